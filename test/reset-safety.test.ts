/**
 * `npm run reset` never deletes a learner's file (issue 20, item 8). It used to remove every
 * `*.<digits>.tmp` in the lesson folder whose "pid" was not running (or that was older than ten
 * minutes), so a learner's `scratch.20240101.tmp` was deleted with no backup, even by a reset that
 * said "Nothing to reset". The course's temporaries now have a name of their own
 * (`.<file>.course-tmp-<pid>-<8 hex>.tmp`, tools/workspace.ts), and clean-up removes only those,
 * and only when their process is gone.
 *
 * Runs on a temporary workspace beside exercises/ (COURSE_EXERCISES_DIR) and a progress file under
 * the system's temporary directory (COURSE_PROGRESS_FILE); the real exercises/ is never touched.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, paths } from "../grader/engine/paths.js";
import { generateStub } from "../lib/stubs.js";
import { cleanStaleTemporaries, writeFileAtomic } from "../tools/workspace.js";

const LESSON = "lesson-3";
const FILE = "sampling.ts";
const SOLUTION = readFileSync(join(paths.solutions, LESSON, FILE), "utf8");
const STUB = generateStub(SOLUTION, LESSON, FILE);

const WS = mkdtempSync(join(ROOT, ".loop-test-reset-safety-"));
const TMP = mkdtempSync(join(tmpdir(), "course-reset-safety-"));
const LESSON_DIR = join(WS, LESSON);
const cleanup: string[] = [WS, TMP];
afterAll(() => cleanup.forEach((p) => rmSync(p, { recursive: true, force: true })));

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

/** `npm run reset …` (the script it runs), on the temporary workspace. */
function reset(args: string[]): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, COURSE_EXERCISES_DIR: WS, COURSE_PROGRESS_FILE: join(TMP, "progress.json"), FORCE_COLOR: "0" };
  for (const k of Object.keys(env)) if (k.startsWith("npm_config_")) delete env[k];
  const child = spawn(process.execPath, ["--import", "tsx", "tools/loop/reset-cli.ts", ...args], { cwd: ROOT, env, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdin.end("");
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/**
 * The learner's own files beside the exercise, in names the old clean-up took for its temporaries:
 * `<name>.<digits>.tmp` with no such process, and an hour old (the old rule removed any such file
 * older than ten minutes, whatever its "pid").
 */
function learnerFiles(): Map<string, string> {
  const files = new Map([
    ["scratch.20240101.tmp", "my scratch work\n"],
    ["notes.12345.tmp", "notes to self\n"],
    [`notes.${deadPid()}.tmp`, "more notes\n"],
    [`${FILE}.${deadPid()}.tmp`, "a copy I keep\n"],
    // Close to the course's form, but not it: not hidden, no random part, a link.
    [`${FILE}.course-tmp-${deadPid()}-0123abcd.tmp`, "not hidden\n"],
    [`.${FILE}.course-tmp-${deadPid()}.tmp`, "no random part\n"],
  ]);
  const old = new Date(Date.now() - 3_600_000);
  for (const [name, text] of files) {
    writeFileSync(join(LESSON_DIR, name), text);
    utimesSync(join(LESSON_DIR, name), old, old);
  }
  return files;
}

function expectSurvived(files: Map<string, string>): void {
  for (const [name, text] of files) {
    expect(existsSync(join(LESSON_DIR, name)), `${name} was deleted`).toBe(true);
    expect(readFileSync(join(LESSON_DIR, name), "utf8")).toBe(text);
  }
}

/** A temporary as the course names its own, left by a process that is gone. */
function staleCourseTemporary(): string {
  const path = join(LESSON_DIR, `.${FILE}.course-tmp-${deadPid()}-${"5eed".repeat(2)}.tmp`);
  writeFileSync(path, STUB.slice(0, 50));
  return path;
}

/** The backups the command reported, remembered for clean-up (.backups/<stamp>). */
function rememberBackups(out: string): string[] {
  const found = [...out.matchAll(/your version is in (\S+)/g)].map((m) => m[1]);
  for (const b of found) cleanup.push(join(ROOT, b.split("/").slice(0, 2).join("/")));
  return found;
}

describe("npm run reset leaves the learner's files alone (issue 20, item 8)", () => {
  it("when there is nothing to reset: learner's *.<digits>.tmp survive, a stale course temporary goes", async () => {
    rmSync(LESSON_DIR, { recursive: true, force: true });
    mkdirSync(LESSON_DIR, { recursive: true });
    writeFileSync(join(LESSON_DIR, FILE), STUB);
    const mine = learnerFiles();
    const stale = staleCourseTemporary();
    const r = await reset([LESSON, "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("Nothing to reset");
    expectSurvived(mine);
    expect(existsSync(stale)).toBe(false);
    expect(r.stdout).toMatch(/Removed \d+ temporary file\(s\) an interrupted command left/);
    expect(r.stdout).toContain(basename(stale));
    expect(readFileSync(join(LESSON_DIR, FILE), "utf8")).toBe(STUB);
  });

  it("when it resets: learner's files survive, the exercise is the stub, the old version is backed up", async () => {
    rmSync(LESSON_DIR, { recursive: true, force: true });
    mkdirSync(LESSON_DIR, { recursive: true });
    writeFileSync(join(LESSON_DIR, FILE), SOLUTION);
    const mine = learnerFiles();
    const stale = staleCourseTemporary();
    // A live process's temporary (this test's parent is alive) is being written: kept.
    const live = join(LESSON_DIR, `.${FILE}.course-tmp-${process.ppid}-0123abcd.tmp`);
    writeFileSync(live, "being written");
    const r = await reset([LESSON, "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    const [backup] = rememberBackups(r.stdout);
    expect(backup).toBeDefined();
    expect(readFileSync(join(ROOT, backup!), "utf8")).toBe(SOLUTION);
    expect(readFileSync(join(LESSON_DIR, FILE), "utf8")).toBe(STUB);
    expectSurvived(mine);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(live)).toBe(true);
    // Nothing else is left in the folder: the reset's own temporaries were renamed into place.
    expect(readdirSync(LESSON_DIR).sort()).toEqual([FILE, basename(live), ...mine.keys()].sort());
    rmSync(live);
  });
});

describe("the course's temporaries have a name of their own", () => {
  it("writeFileAtomic leaves a learner's `<file>.<digits>.tmp` beside the file, and no temporary of its own", () => {
    const dir = mkdtempSync(join(TMP, "atomic-"));
    const file = join(dir, "ppo.ts");
    writeFileSync(join(dir, "ppo.ts.20240101.tmp"), "mine\n");
    writeFileAtomic(file, "whole\n");
    expect(readFileSync(file, "utf8")).toBe("whole\n");
    expect(readdirSync(dir).sort()).toEqual(["ppo.ts", "ppo.ts.20240101.tmp"]);
  });

  it("cleanStaleTemporaries removes only regular files of that form, and follows no link", () => {
    const dir = mkdtempSync(join(TMP, "clean-"));
    const outside = mkdtempSync(join(TMP, "outside-"));
    const pid = deadPid();
    const theirs = join(outside, `.x.ts.course-tmp-${pid}-00000000.tmp`);
    writeFileSync(theirs, "elsewhere\n");
    const ours = join(dir, `.ppo.ts.course-tmp-${pid}-abcdef01.tmp`);
    writeFileSync(ours, "half");
    // A link named like a temporary, and a link to a folder holding one: neither is touched.
    symlinkSync(theirs, join(dir, `.link.ts.course-tmp-${pid}-abcdef02.tmp`));
    symlinkSync(outside, join(dir, "linked-folder"));
    mkdirSync(join(dir, `.dir.course-tmp-${pid}-abcdef03.tmp`));
    expect(cleanStaleTemporaries(dir, { recursive: true })).toEqual([ours]);
    expect(existsSync(theirs)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual([`.dir.course-tmp-${pid}-abcdef03.tmp`, `.link.ts.course-tmp-${pid}-abcdef02.tmp`, "linked-folder"]);
  });
});
