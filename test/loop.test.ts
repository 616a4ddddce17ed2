/**
 * The learner's loop, on a temporary workspace so the real exercises/ and progress file are never
 * touched: COURSE_EXERCISES_DIR points at a folder beside exercises/ and COURSE_PROGRESS_FILE at a
 * file in a temporary folder (a progress file inside the exercises being graded is refused). Covers the progress file, hint tiers, reset with backups, --compare refusing and
 * accepting, the progress table's cache, watch re-grading on save, and bad input (exit 2, no stack).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { findLesson } from "../lib/catalog.js";
import { loadGrader } from "../grader/engine/load.js";
import { ROOT, gradedLessons, hintsFile, paths } from "../grader/engine/paths.js";
import { summarise } from "../grader/engine/summary.js";
import type { CaseResult } from "../grader/engine/types.js";
import { TIERS } from "../grader/engine/hint-types.js";
import { generateStub } from "../lib/stubs.js";
import { functionsIn } from "../tools/loop/functions.js";
import { functionToHint, loadHints } from "../tools/loop/hints.js";
import { emptyProgress, lessonHash, lessonPassed, lessonRecord, readProgress, writeProgress } from "../tools/loop/progress.js";
import { debouncedRunner } from "../tools/loop/schedule.js";
import { functionLines } from "../tools/loop/status.js";

const LESSON = "lesson-23";
const SOLUTION = readFileSync(join(paths.solutions, LESSON, "ppo.ts"), "utf8");
const STUB = generateStub(SOLUTION, LESSON, "ppo.ts");

// A workspace beside exercises/ (so `../../lib` imports resolve), removed afterwards.
const WS = mkdtempSync(join(ROOT, ".loop-test-"));
const PROGRESS_DIR = mkdtempSync(join(tmpdir(), "course-progress-"));
const PROGRESS = join(PROGRESS_DIR, "progress.json");
const LEARNER_FILE = join(WS, LESSON, "ppo.ts");
const backups: string[] = [];

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one of the course's commands in a child process on the temporary workspace. */
function cli(script: string, args: string[], opts: { input?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, COURSE_EXERCISES_DIR: WS, COURSE_PROGRESS_FILE: PROGRESS, FORCE_COLOR: "0", ...opts.env };
  for (const k of Object.keys(env)) if (k.startsWith("npm_config_")) delete env[k];
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { cwd: ROOT, env, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdin.end(opts.input ?? "");
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

const grade = (...args: string[]) => cli("tools/loop/grade-cli.ts", args);
const hint = (...args: string[]) => cli("tools/loop/hint-cli.ts", args);
const reset = (args: string[], input?: string) => cli("tools/loop/reset-cli.ts", args, { input });

function setLearnerFile(text: string): void {
  mkdirSync(join(WS, LESSON), { recursive: true });
  writeFileSync(LEARNER_FILE, text);
}

/** The backups a command reported ("your version is in .backups/…"), remembered for clean-up. */
function reportedBackups(out: string): string[] {
  const found = [...out.matchAll(/your version is in (\S+)/g)].map((m) => join(ROOT, m[1]));
  backups.push(...found);
  return found;
}

function noStackTrace(r: CliResult): void {
  expect(`${r.stdout}${r.stderr}`).not.toMatch(/\n\s+at .+:\d+:\d+/);
}

beforeAll(() => {
  process.env.COURSE_EXERCISES_DIR = WS;
  process.env.COURSE_PROGRESS_FILE = PROGRESS;
});

afterAll(() => {
  delete process.env.COURSE_EXERCISES_DIR;
  delete process.env.COURSE_PROGRESS_FILE;
  rmSync(WS, { recursive: true, force: true });
  rmSync(PROGRESS_DIR, { recursive: true, force: true });
  // backupFile keeps the workspace's path under .backups/<time>/: remove what these tests made.
  for (const b of backups) {
    const stampDir = join(ROOT, ".backups", b.slice(join(ROOT, ".backups").length + 1).split("/")[0]);
    rmSync(join(stampDir, basename(WS)), { recursive: true, force: true });
    if (existsSync(stampDir) && readdirSync(stampDir).length === 0) rmSync(stampDir, { recursive: true });
  }
});

describe("the progress file", () => {
  it("is written atomically and read back; a damaged one is replaced with a note, not a crash", () => {
    const p = emptyProgress();
    p.hints[LESSON] = { maskedGae: 2 };
    writeProgress(p, PROGRESS);
    expect(readProgress(PROGRESS)).toEqual(p);
    expect(readdirSync(PROGRESS_DIR).filter((f) => f.endsWith(".tmp") || f.endsWith(".lock"))).toEqual([]);
    writeFileSync(PROGRESS, "{ half-written");
    const note = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(readProgress(PROGRESS)).toEqual(emptyProgress());
    expect(note.mock.calls[0]?.[0]).toMatch(/could not be read/);
    note.mockRestore();
    rmSync(PROGRESS);
  });

  it("hashes the learner's files: a change is seen, and undoing it restores the hash", () => {
    setLearnerFile(STUB);
    const before = lessonHash(LESSON);
    setLearnerFile(`${STUB}\n// an edit\n`);
    expect(lessonHash(LESSON)).not.toBe(before);
    setLearnerFile(STUB);
    expect(lessonHash(LESSON)).toBe(before);
  });

  it("records each function's verdict; a lesson passes only when every function does", () => {
    const result = (exercise: string, status: CaseResult["status"]): CaseResult => ({ exercise, case: `${exercise} case`, kind: "worked", status, tolerance: { rtol: 0, atol: 0 }, ms: 1 });
    const mixed = lessonRecord("h", summarise([result("a", "passed"), result("b", "failed")]));
    expect(mixed.functions).toEqual({ a: { verdict: "passed", passed: 1, total: 1 }, b: { verdict: "failed", passed: 0, total: 1 } });
    expect(lessonPassed(mixed)).toBe(false);
    expect(lessonPassed(lessonRecord("h", summarise([result("a", "passed")])))).toBe(true);
    expect(lessonPassed(lessonRecord("h", [], "the reference failed"))).toBe(false);
  });
});

describe("hints", () => {
  const hinted = readdirSync(join(ROOT, "grader")).filter((f) => /^lesson-\d+$/.test(f) && existsSync(hintsFile(f)));

  it.each(hinted)("%s has three non-empty tiers for exactly its graded functions", async (lesson) => {
    const hints = (await loadHints(lesson))!;
    expect(hints.lesson).toBe(lesson);
    expect(gradedLessons()).toContain(lesson);
    const grader = await loadGrader(lesson);
    expect(Object.keys(hints.functions).sort()).toEqual(grader.exercises.map((e) => e.name).sort());
    for (const [name, h] of Object.entries(hints.functions)) for (const t of TIERS) expect(h[t.key].trim().length, `${name} ${t.key}`).toBeGreaterThan(40);
  });

  it("without a function, hints at the first one that did not pass at the last grading", async () => {
    const hints = (await loadHints(LESSON))!;
    const names = Object.keys(hints.functions);
    expect(functionToHint(hints, undefined)).toBe(names[0]);
    const record = lessonRecord("h", []);
    for (const n of names) record.functions[n] = { verdict: "passed", passed: 1, total: 1 };
    record.functions[names[2]].verdict = "failed";
    expect(functionToHint(hints, record)).toBe(names[2]);
    record.functions[names[2]].verdict = "passed";
    expect(functionToHint(hints, record)).toBeUndefined();
  });

  it("each call reveals the next tier, and the tiers seen are saved", async () => {
    rmSync(PROGRESS, { force: true });
    const hints = (await loadHints(LESSON))!.functions.maskedGae;
    for (let tier = 1; tier <= TIERS.length; tier++) {
      const r = await hint(LESSON, "maskedGae");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`hint ${tier} of ${TIERS.length}`);
      expect(r.stdout).toContain(hints[TIERS[tier - 1].key].split(" ").slice(0, 6).join(" "));
      if (tier < TIERS.length) expect(r.stdout).not.toContain(hints[TIERS[tier].key].split(" ").slice(0, 6).join(" "));
      expect(readProgress(PROGRESS).hints[LESSON]).toEqual({ maskedGae: tier });
    }
    const after = await hint(LESSON, "maskedGae");
    expect(after.stdout).toContain("That is every hint for maskedGae");
    expect(readProgress(PROGRESS).hints[LESSON]).toEqual({ maskedGae: TIERS.length });
  });

  it("says kindly when a lesson has no hints, and rejects an unknown function with exit 2", async () => {
    const none = findLesson("lesson-1")!;
    expect(existsSync(hintsFile(none.id))).toBe(false);
    const r = await hint(none.id);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("has no hints yet");
    const bad = await hint(LESSON, "noSuchFunction");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no function named "noSuchFunction"');
    noStackTrace(bad);
  });
});

describe("npm run reset", () => {
  it("asks first, and a 'no' changes nothing", async () => {
    setLearnerFile(SOLUTION);
    const r = await reset([LESSON, "maskedGae"], "n\n");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Nothing changed");
    expect(readFileSync(LEARNER_FILE, "utf8")).toBe(SOLUTION);
  });

  it("restores one function's body after saving the learner's file", async () => {
    setLearnerFile(SOLUTION);
    const r = await reset([LESSON, "maskedGae", "--yes"]);
    expect(r.code).toBe(0);
    const [backup] = reportedBackups(r.stdout);
    expect(readFileSync(backup, "utf8")).toBe(SOLUTION);
    const now = readFileSync(LEARNER_FILE, "utf8");
    const fn = (text: string, name: string) => {
      const f = functionsIn(text).find((x) => x.name === name)!;
      return text.slice(f.bodyStart, f.bodyEnd);
    };
    expect(fn(now, "maskedGae")).toBe(fn(STUB, "maskedGae"));
    expect(fn(now, "ppoPolicyLoss")).toBe(fn(SOLUTION, "ppoPolicyLoss"));
    expect(now).toContain('import { NotImplementedError } from "../../lib/errors.js";');
  });

  it("restores the whole file after a 'y', keeping the previous version", async () => {
    const edited = `${SOLUTION}\n// my notes\n`;
    setLearnerFile(edited);
    const r = await reset([LESSON], "y\n");
    expect(r.code).toBe(0);
    const [backup] = reportedBackups(r.stdout);
    expect(readFileSync(backup, "utf8")).toBe(edited);
    expect(readFileSync(LEARNER_FILE, "utf8")).toBe(STUB);
    const again = await reset([LESSON, "--yes"]);
    expect(again.stdout).toContain("Nothing to reset");
  });

  it("rejects bad input with exit 2 and no stack trace", async () => {
    for (const args of [[LESSON, "noSuchFunction", "--yes"], ["lesson-99"]]) {
      const r = await reset(args);
      expect(r.code, args.join(" ")).toBe(2);
      noStackTrace(r);
    }
  });
});

describe("npm run grade", () => {
  it("--compare refuses politely before the lesson passes, showing no reference code", async () => {
    setLearnerFile(STUB);
    const r = await grade(LESSON, "--compare");
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("--compare shows the reference solution only once your code passes");
    expect(r.stdout).not.toContain("nextAdvantage");
    expect(readProgress(PROGRESS).lessons[LESSON]?.hash).toBe(lessonHash(LESSON));
  });

  it("--compare shows each function's body beside the reference once it passes", async () => {
    const finished = SOLUTION.split("\n")
      .filter((l) => !/\/\/ (BEGIN|END) SOLUTION/.test(l))
      .join("\n")
      .replace("const ratio = tf.exp(tf.sub(newLogps, oldLogps));", "const ratio = tf.exp(tf.sub(newLogps, oldLogps)); // mine");
    setLearnerFile(finished);
    const r = await cli("tools/loop/grade-cli.ts", [LESSON, "--compare"], { env: { COLUMNS: "240" } });
    expect(r.code).toBe(0);
    for (const name of ["responseLogpPositions", "maskedGae", "ppoPolicyLoss", "referenceKlPenalty", "clippedValueLoss"]) expect(r.stdout).toContain(`── ${name} `);
    expect(r.stdout).toMatch(/oldLogps\)\); \/\/ mine\s+│\s+const ratio = tf\.exp\(tf\.sub\(newLogps, oldLogps\)\);\n/);
    expect(r.stdout).toContain("function maskedMean");
    expect(r.stdout).not.toContain("BEGIN SOLUTION");
    // Unchanged since it passed: a second --compare reuses the saved verdict, one after the other on a narrow terminal.
    const narrow = await cli("tools/loop/grade-cli.ts", [LESSON, "--compare"], { env: { COLUMNS: "60" } });
    expect(narrow.code).toBe(0);
    expect(narrow.stdout).toContain("your files have not changed since");
    expect(narrow.stdout).toMatch(/reference \(solutions\/lesson-23\/ppo\.ts\):/);
  });

  it("the progress table re-grades only lessons whose files changed", async () => {
    // Saved verdicts no grading of these files could give (a stub "passing") prove the table reads them.
    setLearnerFile(STUB);
    const progress = emptyProgress();
    const saved = (verdict: "passed" | "failed") => ({ verdict, passed: verdict === "passed" ? 3 : 1, total: 3 });
    for (const id of gradedLessons()) progress.lessons[id] = { hash: lessonHash(id), gradedAt: new Date().toISOString(), functions: { someFunction: saved("failed") } };
    progress.lessons[LESSON].functions = { a: saved("passed"), b: saved("passed"), c: saved("passed"), d: saved("passed"), e: saved("passed") };
    writeProgress(progress, PROGRESS);
    const cached = await grade();
    expect(cached.stderr).not.toContain(`grading ${LESSON}`);
    expect(cached.stdout).toMatch(/PPO, end to end\s+✓ 5\/5 functions/);
    expect(cached.code).toBe(1);
    setLearnerFile(`${STUB}\n// started\n`);
    const changed = await grade();
    expect(changed.stderr).toContain(`grading ${LESSON} (changed since it was last graded)`);
    expect(changed.stdout).toMatch(new RegExp(`re-graded [^\\n]*${LESSON}`));
    expect(changed.stdout).toMatch(/PPO, end to end\s+not started \(0\/5\)/);
  });

  it("rejects bad input with exit 2 and no stack trace", async () => {
    const runs = [await grade("lesson-99"), await grade(LESSON, "--timeout", "soon"), await cli("tools/loop/grade-cli.ts", [LESSON], { env: { COURSE_EXERCISES_DIR: "/tmp" } })];
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(2);
      noStackTrace(r);
    }
    expect(runs[0].stderr).toContain("Lessons with graded exercises: ");
    expect(runs[2].stderr).toContain("must be a folder directly inside");
  });
});

describe("npm run watch", () => {
  it("runs once per burst of saves, and once more after a save during a run", async () => {
    let runs = 0;
    let release: () => void = () => {};
    const runner = debouncedRunner(() => {
      runs++;
      return new Promise<void>((r) => (release = r));
    }, 20);
    for (let i = 0; i < 5; i++) runner.trigger();
    await vi.waitFor(() => expect(runs).toBe(1));
    runner.trigger();
    runner.trigger();
    await new Promise((r) => setTimeout(r, 60));
    expect(runs).toBe(1);
    release();
    await vi.waitFor(() => expect(runs).toBe(2));
    release();
    await vi.waitFor(() => expect(runner.busy()).toBe(false));
    runner.stop();
    runner.trigger();
    await new Promise((r) => setTimeout(r, 60));
    expect(runs).toBe(2);
  });

  it("prints one line per function, with the known mistake when the grader recognised one", () => {
    // A failure on values (wrongValues), as the judge reports one: only those name a known mistake.
    const r = (exercise: string, status: CaseResult["status"], mistake?: string): CaseResult => ({ exercise, case: "worked example", kind: "worked", status, message: "values differ", mistake, ...(status === "failed" ? { wrongValues: true as const } : {}), tolerance: { rtol: 0, atol: 0 }, ms: 1 });
    const lines = functionLines(summarise([r("a", "passed"), r("b", "failed", "the ratio is flipped"), r("c", "not-implemented"), r("d", "error")]), 100);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain("known mistake: the ratio is flipped");
    expect(lines[3]).toContain("worked example: values differ");
    expect(Math.max(...lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, "").length))).toBeLessThanOrEqual(100);
  });

  it("re-grades when an exercise file is saved", async () => {
    setLearnerFile(STUB);
    const env: NodeJS.ProcessEnv = { ...process.env, COURSE_EXERCISES_DIR: WS, COURSE_PROGRESS_FILE: PROGRESS, FORCE_COLOR: "0" };
    const child = spawn(process.execPath, ["--import", "tsx", "tools/loop/watch-cli.ts", LESSON, "referenceKlPenalty"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    try {
      await vi.waitFor(() => expect(out).toContain("0/1 functions pass"), { timeout: 45_000, interval: 100 });
      setLearnerFile(SOLUTION);
      await vi.waitFor(() => expect(out).toContain("1/1 functions pass"), { timeout: 45_000, interval: 100 });
      expect(out).toMatch(/✓ referenceKlPenalty\s+passed/);
    } finally {
      child.kill("SIGINT");
    }
  });
});
