/**
 * A learner's data is never lost (issue 15, "Lost data"): a progress path that names the learner's
 * code or a course file is refused; a damaged progress file is kept aside, and a bad record in it is
 * dropped (the rest survive) instead of crashing every command; concurrent updates keep every
 * record; a grading that could not run never replaces a verdict; the reference solutions cannot be
 * graded as the learner's work; and a killed reset leaves no temporaries behind for good.
 *
 * Everything runs on temporary folders: a workspace beside exercises/ (so `../../lib` imports
 * resolve) and a progress folder under the system's temporary directory.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ROOT, paths } from "../grader/engine/paths.js";
import { UsageError } from "../tools/loop/cli-support.js";
import { checkProgressPath, exercisesDir, progressFile } from "../tools/loop/locations.js";
import { emptyProgress, lessonPassed, readProgress, updateProgress, writeProgress, type LessonRecord } from "../tools/loop/progress.js";
import { progressCell } from "../tools/loop/status.js";
import { BACKUPS_DIR, backupFile, cleanStaleTemporaries, writeFileAtomic } from "../tools/workspace.js";

const LESSON = "lesson-23";
const SOLUTION = readFileSync(join(paths.solutions, LESSON, "ppo.ts"), "utf8");

const WS = mkdtempSync(join(ROOT, ".loop-test-safety-"));
const TMP = mkdtempSync(join(tmpdir(), "course-progress-safety-"));
const LEARNER_FILE = join(WS, LESSON, "ppo.ts");
const cleanup: string[] = [];

const savedEnv = { ex: process.env.COURSE_EXERCISES_DIR, pf: process.env.COURSE_PROGRESS_FILE };
beforeEach(() => {
  delete process.env.COURSE_EXERCISES_DIR;
  delete process.env.COURSE_PROGRESS_FILE;
});
afterEach(() => {
  process.env.COURSE_EXERCISES_DIR = savedEnv.ex;
  process.env.COURSE_PROGRESS_FILE = savedEnv.pf;
  if (savedEnv.ex === undefined) delete process.env.COURSE_EXERCISES_DIR;
  if (savedEnv.pf === undefined) delete process.env.COURSE_PROGRESS_FILE;
  vi.restoreAllMocks();
});
afterAll(() => {
  for (const p of [WS, TMP, ...cleanup]) rmSync(p, { recursive: true, force: true });
});

function setLearnerFile(text: string): void {
  mkdirSync(join(WS, LESSON), { recursive: true });
  writeFileSync(LEARNER_FILE, text);
}

/** A process id that no process has now: one of a child that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" });
  return Number(child.stdout.trim());
}

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(script: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  const full: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: "0", ...env };
  for (const k of Object.keys(full)) if (k.startsWith("npm_config_")) delete full[k];
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { cwd: ROOT, env: full, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdin.end("");
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

const passedRecord = (hash = "h"): LessonRecord => ({ hash, gradedAt: new Date(0).toISOString(), functions: { maskedGae: { verdict: "passed", passed: 3, total: 3 } } });

function quiet() {
  return vi.spyOn(console, "error").mockImplementation(() => {});
}

describe("item 5: the progress path never names the learner's code or a course file", () => {
  it("refuses exercise files, course files and folders, missing folders and non-.json names (UsageError)", () => {
    setLearnerFile(SOLUTION);
    process.env.COURSE_EXERCISES_DIR = WS;
    const refused = [
      LEARNER_FILE,
      join(WS, "progress.json"), // inside COURSE_EXERCISES_DIR
      join(WS, LESSON, "progress.json"),
      join(paths.exercises, "progress.json"),
      join(paths.exercises, LESSON, "ppo.ts"),
      join(paths.solutions, "progress.json"),
      ...["lib", "grader", "tools", "labs", "lessons", "datasets", "test", "node_modules", ".git"].map((d) => join(ROOT, d, "progress.json")),
      join(ROOT, "package.json"),
      join(ROOT, "package-lock.json"),
      join(ROOT, "tsconfig.json"),
      join(ROOT, "README.md"),
      join(TMP, "no-such-folder", "progress.json"),
      join(TMP, "notes.txt"),
      TMP,
    ];
    for (const file of refused) expect(() => checkProgressPath(file), file).toThrow(UsageError);
    expect(checkProgressPath(join(TMP, "progress.json"))).toBe(join(TMP, "progress.json"));
    expect(checkProgressPath(join(ROOT, ".course-progress.json"))).toBe(join(ROOT, ".course-progress.json"));
    expect(existsSync(join(TMP, "no-such-folder"))).toBe(false);
  });

  it("refuses a .json symbolic link to the learner's file, and names the variable", () => {
    setLearnerFile(SOLUTION);
    const link = join(TMP, "sneaky.json");
    symlinkSync(LEARNER_FILE, link);
    process.env.COURSE_PROGRESS_FILE = link;
    expect(() => progressFile()).toThrow(/COURSE_PROGRESS_FILE=.*sneaky\.json/);
    expect(() => updateProgress(() => {}, link)).toThrow(UsageError);
    expect(readFileSync(LEARNER_FILE, "utf8")).toBe(SOLUTION);
    rmSync(link);
  });

  it("refuses an existing file that is not a progress file, leaving it untouched", () => {
    const other = join(TMP, "other.json");
    const text = `${JSON.stringify({ name: "not progress", version: "1.0.0" })}\n`;
    writeFileSync(other, text);
    expect(() => readProgress(other)).toThrow(/not a progress file of this course/);
    expect(() => updateProgress((p) => void (p.lessons[LESSON] = passedRecord()), other)).toThrow(UsageError);
    expect(() => writeProgress(emptyProgress(), other)).toThrow(UsageError);
    const list = join(TMP, "list.json");
    writeFileSync(list, "[1, 2, 3]\n");
    expect(() => updateProgress(() => {}, list)).toThrow(UsageError);
    expect(readFileSync(other, "utf8")).toBe(text);
    expect(readFileSync(list, "utf8")).toBe("[1, 2, 3]\n");
  });

  it("keeps an unreadable progress file as <file>.corrupt-<time> before replacing it", () => {
    const dir = mkdtempSync(join(TMP, "corrupt-"));
    const file = join(dir, "progress.json");
    writeFileSync(file, '{ "version": 1, "lessons": { "lesson-23": ');
    const note = quiet();
    expect(readProgress(file)).toEqual(emptyProgress());
    expect(note.mock.calls.flat().join("\n")).toMatch(/could not be read/);
    updateProgress((p) => void (p.lessons[LESSON] = passedRecord()), file);
    const kept = readdirSync(dir).filter((f) => f.startsWith("progress.json.corrupt-"));
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(dir, kept[0]), "utf8")).toBe('{ "version": 1, "lessons": { "lesson-23": ');
    expect(readProgress(file).lessons[LESSON]).toEqual(passedRecord());
  });

  it("npm run grade with COURSE_PROGRESS_FILE on the learner's file exits 2 and the code survives", async () => {
    setLearnerFile(SOLUTION);
    for (const target of [LEARNER_FILE, join(ROOT, "package.json")]) {
      const before = readFileSync(target, "utf8");
      const r = await cli("tools/loop/grade-cli.ts", [LESSON], { COURSE_EXERCISES_DIR: WS, COURSE_PROGRESS_FILE: target });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain("COURSE_PROGRESS_FILE");
      expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/); // a plain message, no stack trace
      expect(readFileSync(target, "utf8")).toBe(before);
    }
  });
});

describe("item 6: the progress file is validated record by record", () => {
  const file = join(TMP, "records.json");

  it('`"lessons": []` is reported and replaced, and later verdicts are kept', () => {
    writeFileSync(file, JSON.stringify({ version: 1, lessons: [], hints: {} }));
    const note = quiet();
    expect(readProgress(file).lessons).toEqual({});
    expect(note.mock.calls.flat().join("\n")).toMatch(/"lessons" is not an object/);
    updateProgress((p) => void (p.lessons[LESSON] = passedRecord()), file);
    expect(JSON.parse(readFileSync(file, "utf8")).lessons[LESSON]).toEqual(passedRecord());
  });

  it("drops bad records (null functions, a null verdict, wrong types) and keeps the valid ones", () => {
    const good = passedRecord("good");
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        lessons: {
          "lesson-23": good,
          "lesson-24": { hash: "x", gradedAt: new Date().toISOString(), functions: null },
          "lesson-25": { hash: "x", gradedAt: new Date().toISOString(), functions: { f: { verdict: null, passed: 1, total: 1 } } },
          "lesson-26": { hash: 7, gradedAt: new Date().toISOString(), functions: {} },
          "lesson-27": { hash: "x", gradedAt: new Date().toISOString(), functions: { f: { verdict: "passed", passed: "3", total: 3 } } },
          "lesson-28": null,
        },
        hints: { "lesson-23": { maskedGae: 2 }, "lesson-24": { maskedGae: "lots" }, "lesson-25": null },
      }),
    );
    const note = quiet();
    const p = readProgress(file);
    expect(Object.keys(p.lessons)).toEqual(["lesson-23"]);
    expect(p.lessons["lesson-23"]).toEqual(good);
    expect(p.hints).toEqual({ "lesson-23": { maskedGae: 2 } });
    const said = note.mock.calls.flat().join("\n");
    for (const l of ["lesson-24", "lesson-25", "lesson-26", "lesson-27", "lesson-28"]) expect(said).toContain(`the record of ${l} is invalid`);
    // What the table shows for each of them can no longer crash.
    for (const l of Object.values(p.lessons)) expect(() => progressCell(l)).not.toThrow();
    expect(lessonPassed(p.lessons["lesson-23"])).toBe(true);
    // An update keeps the valid record, drops the bad ones, and keeps the original aside.
    updateProgress((q) => void (q.lessons["lesson-24"] = passedRecord("new")), file);
    const after = JSON.parse(readFileSync(file, "utf8"));
    expect(Object.keys(after.lessons).sort()).toEqual(["lesson-23", "lesson-24"]);
    expect(readdirSync(TMP).some((f) => f.startsWith("records.json.corrupt-"))).toBe(true);
  });

  it("the progress table's cell never crashes on a record a person edited by hand", () => {
    const broken = [
      { hash: "h", gradedAt: "", functions: null },
      { hash: "h", gradedAt: "", functions: { f: null } },
      { hash: "h", gradedAt: "", functions: { f: { verdict: null } } },
      { hash: "h", gradedAt: "", functions: {} },
    ] as unknown as LessonRecord[];
    for (const r of broken) expect(() => progressCell(r)).not.toThrow();
    expect(progressCell(broken[3])).not.toContain("✓");
  });
});

describe("item 7: concurrent updates keep every record", () => {
  it("four processes updating the same progress file at once keep all of their records", async () => {
    const file = join(TMP, "concurrent.json");
    const writers = 4;
    const each = 12;
    const start = Date.now() + 2500; // every process starts updating at the same moment
    const script = `
      const { updateProgress } = await import(${JSON.stringify(join(ROOT, "tools/loop/progress.ts"))});
      const [file, id, each, start] = process.argv.slice(1);
      while (Date.now() < Number(start)) await new Promise((r) => setTimeout(r, 5));
      for (let i = 0; i < Number(each); i++) {
        updateProgress((p) => {
          const until = Date.now() + 3; // a slow read-modify-write, to make any overlap certain
          while (Date.now() < until);
          p.lessons["lesson-" + (id * 100 + i)] = { hash: "h" + id, gradedAt: new Date().toISOString(), functions: {} };
        }, file);
      }`;
    const runs = Array.from({ length: writers }, (_, id) =>
      new Promise<{ code: number | null; err: string }>((resolve) => {
        const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, file, String(id + 1), String(each), String(start)], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
        let err = "";
        child.stderr.on("data", (d: Buffer) => (err += d.toString()));
        child.on("close", (code) => resolve({ code, err }));
      }),
    );
    const results = await Promise.all(runs);
    for (const r of results) expect(r.code, r.err).toBe(0);
    const saved = JSON.parse(readFileSync(file, "utf8"));
    expect(Object.keys(saved.lessons)).toHaveLength(writers * each);
    expect(existsSync(`${file}.lock`)).toBe(false);
    expect(readdirSync(TMP).filter((f) => f.startsWith("concurrent.json") && f !== "concurrent.json")).toEqual([]);
  });

  it("breaks a stale lock: one whose process is gone, or one left empty long ago", () => {
    const file = join(TMP, "stale.json");
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: deadPid(), at: Date.now(), token: "old" }));
    const t0 = Date.now();
    updateProgress((p) => void (p.lessons[LESSON] = passedRecord()), file);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(existsSync(`${file}.lock`)).toBe(false);
    writeFileSync(`${file}.lock`, "");
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${file}.lock`, old, old);
    updateProgress((p) => void (p.lessons["lesson-24"] = passedRecord()), file);
    expect(Object.keys(readProgress(file).lessons).sort()).toEqual([LESSON, "lesson-24"]);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});

describe("item 8: a grading that could not run never replaces a verdict", () => {
  it("COURSE_BACKEND=bogus leaves the earlier pass in the progress file", async () => {
    setLearnerFile(SOLUTION);
    const file = join(TMP, "fatal.json");
    const progress = emptyProgress();
    progress.lessons[LESSON] = passedRecord("earlier");
    writeProgress(progress, file);
    const before = readFileSync(file, "utf8");
    const r = await cli("tools/loop/grade-cli.ts", [LESSON], { COURSE_EXERCISES_DIR: WS, COURSE_PROGRESS_FILE: file, COURSE_BACKEND: "bogus" });
    expect(r.code).not.toBe(0);
    expect(readFileSync(file, "utf8")).toBe(before);
  });
});

describe("item 9: COURSE_EXERCISES_DIR names a learner workspace only", () => {
  it("refuses solutions/ and the course's other folders, and folders that are no workspace", () => {
    for (const d of ["solutions", "lib", "grader", "tools", "labs", "lessons", "datasets", "test", "node_modules", "docs"]) {
      if (!existsSync(join(ROOT, d))) continue;
      process.env.COURSE_EXERCISES_DIR = d;
      expect(() => exercisesDir(), d).toThrow(UsageError);
    }
    process.env.COURSE_EXERCISES_DIR = "solutions";
    expect(() => exercisesDir()).toThrow(/reference solutions/);
    // A link beside exercises/ that leads to solutions/ is solutions/.
    const link = join(ROOT, `.loop-test-link-${process.pid}`);
    cleanup.push(link);
    symlinkSync(paths.solutions, link);
    process.env.COURSE_EXERCISES_DIR = link;
    expect(() => exercisesDir()).toThrow(UsageError);
    // A folder of something else.
    const other = mkdtempSync(join(ROOT, ".loop-test-other-"));
    cleanup.push(other);
    writeFileSync(join(other, "notes.md"), "mine\n");
    process.env.COURSE_EXERCISES_DIR = other;
    expect(() => exercisesDir()).toThrow(/not a learner workspace/);
  });

  it("accepts exercises/, a workspace of lesson-NN/*.ts, and an empty new folder", () => {
    process.env.COURSE_EXERCISES_DIR = "exercises";
    expect(exercisesDir()).toBe(paths.exercises);
    setLearnerFile(SOLUTION);
    process.env.COURSE_EXERCISES_DIR = WS;
    expect(exercisesDir()).toBe(WS);
    const fresh = mkdtempSync(join(ROOT, ".loop-test-fresh-"));
    cleanup.push(fresh);
    process.env.COURSE_EXERCISES_DIR = fresh;
    expect(exercisesDir()).toBe(fresh);
  });

  it("npm run grade with COURSE_EXERCISES_DIR=solutions exits 2 and records nothing", async () => {
    const file = join(TMP, "solutions-graded.json");
    const r = await cli("tools/loop/grade-cli.ts", [LESSON], { COURSE_EXERCISES_DIR: "solutions", COURSE_PROGRESS_FILE: file });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("not a learner workspace");
    expect(existsSync(file)).toBe(false);
  });
});

describe("item 10: temporaries a killed write left are cleaned; a backup is always whole", () => {
  it("writeFileAtomic removes the dead process's temporaries of the file, not a live one's", () => {
    const dir = mkdtempSync(join(TMP, "atomic-"));
    const file = join(dir, "ppo.ts");
    // The course's temporaries: `.<file>.course-tmp-<pid>-<8 hex>.tmp` (tools/workspace.ts).
    const dead = join(dir, `.ppo.ts.course-tmp-${deadPid()}-0000dead.tmp`);
    const live = join(dir, `.ppo.ts.course-tmp-${process.ppid}-00000a1e.tmp`);
    writeFileSync(dead, "half a fi");
    writeFileSync(live, "being written");
    writeFileAtomic(file, "whole\n");
    expect(readFileSync(file, "utf8")).toBe("whole\n");
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
    // An old temporary is a leftover whatever its process id says: ids are reused.
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(live, old, old);
    expect(cleanStaleTemporaries(dir)).toEqual([live]);
    expect(readdirSync(dir)).toEqual(["ppo.ts"]);
  });

  it("backupFile leaves a whole copy and no temporary, and never overwrites an earlier backup", () => {
    setLearnerFile(SOLUTION);
    const now = new Date();
    const a = backupFile(LEARNER_FILE, now);
    const b = backupFile(LEARNER_FILE, now);
    cleanup.push(join(BACKUPS_DIR, now.toISOString().replace(/[:.]/g, "-")));
    expect(a).not.toBe(b);
    for (const f of [a, b]) expect(readFileSync(f, "utf8")).toBe(SOLUTION);
    expect(readdirSync(join(a, "..")).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    // A file outside the repository is backed up inside .backups/ too, never beside the repository.
    const outside = join(TMP, "outside.ts");
    writeFileSync(outside, "mine\n");
    const c = backupFile(outside, now);
    expect(c.startsWith(BACKUPS_DIR)).toBe(true);
    expect(readFileSync(c, "utf8")).toBe("mine\n");
  });

  it("npm run reset removes the temporaries and the partial backup a killed reset left", async () => {
    setLearnerFile(SOLUTION);
    const pid = deadPid();
    const tmp = join(WS, LESSON, `.ppo.ts.course-tmp-${pid}-0000dead.tmp`);
    writeFileSync(tmp, "half of a stub");
    const stamp = join(BACKUPS_DIR, `1999-01-01T00-00-00-000Z-${process.pid}`);
    cleanup.push(stamp);
    const partial = join(stamp, basename(WS), LESSON, `.ppo.ts.course-tmp-${pid}-0000dead.tmp`);
    mkdirSync(join(partial, ".."), { recursive: true });
    writeFileSync(partial, SOLUTION.slice(0, 100));
    const r = await cli("tools/loop/reset-cli.ts", [LESSON, "--yes"], { COURSE_EXERCISES_DIR: WS, COURSE_PROGRESS_FILE: join(TMP, "reset.json") });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("temporary file(s) an interrupted command left");
    expect(existsSync(tmp)).toBe(false);
    expect(existsSync(stamp)).toBe(false);
    const backup = /your version is in (\S+)/.exec(r.stdout)?.[1];
    expect(backup).toBeDefined();
    cleanup.push(join(ROOT, backup!.split("/").slice(0, 2).join("/")));
    expect(readFileSync(join(ROOT, backup!), "utf8")).toBe(SOLUTION);
    expect(readdirSync(join(WS, LESSON))).toEqual(["ppo.ts"]);
  });
});
