/**
 * `npm run workspace -- import|export` (tools/workspace-cli.ts): a clone's exercises go out as a
 * zip in the page's layout and come back whole; a file an import replaces is backed up first; a
 * zip holding anything but exercises/<graded lesson>/<file>.ts (zip-slip, absolute paths, other
 * files, links, not a zip at all) is refused whole with exit 1, a message naming the entry and
 * nothing written; and a zip in the page's layout, unzipped into a workspace, grades with the Node
 * grader (grade-cli.ts --json-file on a temporary COURSE_EXERCISES_DIR, as
 * test/browser-grade.test.ts does).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { strToU8, unzipSync, zipSync, type Zippable } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, paths } from "../grader/engine/paths.js";
import { filesHash } from "../tools/browser/store.js";
import { progressJson, PROGRESS_ENTRY, workspaceZip } from "../tools/browser/workspace-layout.js";

const temp: string[] = [];
const fresh = (prefix: string, inside = tmpdir()) => {
  const dir = mkdtempSync(join(inside, prefix));
  temp.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

const reference = readFileSync(join(paths.solutions, "lesson-9", "rmsnorm.ts"), "utf8");
/** Lesson 9 with the residual connection forgotten: a known mistake (grader/lesson-9/mutants.ts "no-residual"). */
const noResidual = reference.replace("tf.add(x, sublayer(rmsNorm(x, normWeight, eps)))", "sublayer(rmsNorm(x, normWeight, eps))");

/** A workspace folder directly inside the repository (COURSE_EXERCISES_DIR must be), with `files` (lesson → file → text). */
function workspace(files: Record<string, Record<string, string>> = {}): string {
  const dir = fresh(".integrity-workspace-zip-", ROOT);
  for (const [lesson, fs] of Object.entries(files)) {
    mkdirSync(join(dir, lesson), { recursive: true });
    for (const [f, text] of Object.entries(fs)) writeFileSync(join(dir, lesson, f), text);
  }
  return dir;
}

function cli(args: string[], dir: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ["--import", "tsx", "tools/workspace-cli.ts", ...args], { cwd: ROOT, env: { ...process.env, COURSE_EXERCISES_DIR: dir, FORCE_COLOR: "0" }, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every file of `dir`, relative path → text. */
function tree(dir: string, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    if (d.isDirectory()) Object.assign(out, tree(join(dir, d.name), `${prefix}${d.name}/`));
    else out[`${prefix}${d.name}`] = readFileSync(join(dir, d.name), "utf8");
  }
  return out;
}

const zipFile = (entries: Zippable) => {
  const file = join(fresh("course-workspace-zip-"), "workspace.zip");
  writeFileSync(file, zipSync(entries));
  return file;
};

describe("npm run workspace", () => {
  it("export then import: the same files, in exercises/<lesson>/<file>.ts, with the progress side file", () => {
    const source = workspace({ "lesson-9": { "rmsnorm.ts": reference }, "lesson-4": { "bpe.ts": "// mine\n", "chat-template.ts": "// also mine\n" } });
    const zip = join(fresh("course-workspace-zip-"), "out.zip");
    const out = cli(["export", zip], source);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("3 file(s) of 2 lesson(s)");
    const entries = unzipSync(readFileSync(zip));
    expect(Object.keys(entries).sort()).toEqual([PROGRESS_ENTRY, "exercises/lesson-4/bpe.ts", "exercises/lesson-4/chat-template.ts", "exercises/lesson-9/rmsnorm.ts"]);
    expect(JSON.parse(new TextDecoder().decode(entries[PROGRESS_ENTRY]))).toMatchObject({ format: "minimind-course-workspace", version: 1, source: "clone", grades: {} });
    // An export never replaces a file.
    const again = cli(["export", zip], source);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("exists: choose a new file name");

    const target = workspace();
    const back = cli(["import", zip], target);
    expect(back.code).toBe(0);
    expect(back.stdout).toContain("imported 3 file(s)");
    expect(tree(target)).toEqual(tree(source));
  });

  it("backs up every file it replaces before writing, and leaves identical files alone", () => {
    const dir = workspace({ "lesson-9": { "rmsnorm.ts": "// my own work in progress\n" }, "lesson-4": { "bpe.ts": "// same\n" } });
    const zip = zipFile({ "exercises/lesson-9/rmsnorm.ts": strToU8(reference), "exercises/lesson-4/bpe.ts": strToU8("// same\n") });
    const r = cli(["import", zip], dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, "lesson-9", "rmsnorm.ts"), "utf8")).toBe(reference);
    const backup = /replaced\s+\S+\s+\(your previous file: (\S+)\)/.exec(r.stdout)?.[1];
    expect(backup, r.stdout).toBeDefined();
    const backupPath = join(ROOT, backup!);
    try {
      expect(readFileSync(backupPath, "utf8")).toBe("// my own work in progress\n");
    } finally {
      rmSync(dirname(dirname(dirname(backupPath))), { recursive: true, force: true });
    }
    expect(r.stdout).toContain("unchanged 1 file(s)");
  });

  const bad: Array<[string, Zippable | string, string]> = [
    ["a path that climbs out", { "exercises/lesson-9/../../evil.ts": strToU8("x") }, "evil.ts"],
    ["an absolute path", { "/tmp/evil.ts": strToU8("x") }, "/tmp/evil.ts"],
    ["a file outside exercises/", { "README.md": strToU8("x") }, "README.md (outside exercises/)"],
    ["a file that is not .ts", { "exercises/lesson-9/notes.txt": strToU8("x") }, "exercises/lesson-9/notes.txt (not a .ts file"],
    ["a lesson that is not graded", { "exercises/lesson-99/a.ts": strToU8("x") }, "lesson-99 is not a graded lesson"],
    ["a sub-folder of a lesson", { "exercises/lesson-9/sub/a.ts": strToU8("x") }, "exercises/lesson-9/sub/a.ts (not a file directly in exercises/<lesson>/)"],
    ["a symbolic link", { "exercises/lesson-9/rmsnorm.ts": [strToU8("/etc/passwd"), { os: 3, attrs: (0o120777 << 16) >>> 0 }] }, "exercises/lesson-9/rmsnorm.ts (a symbolic link)"],
    ["a broken side file", { [PROGRESS_ENTRY]: strToU8("{not json") }, `${PROGRESS_ENTRY} is not JSON`],
    ["a file that is not a zip", "not a zip at all", "not a zip archive"],
  ];
  it.each(bad)("refuses %s whole: exit 1, the entry named, nothing written", (_what, entries, named) => {
    const mine = { "lesson-9": { "rmsnorm.ts": "// mine\n" } };
    const dir = workspace(mine);
    const zip = typeof entries === "string" ? join(fresh("course-workspace-zip-"), "bad.zip") : zipFile({ ...entries, "exercises/lesson-3/sampling.ts": strToU8("// would be written\n") });
    if (typeof entries === "string") writeFileSync(zip, entries);
    const r = cli(["import", zip], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("refused:");
    expect(r.stderr).toContain(named);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(tree(dir)).toEqual({ "lesson-9/rmsnorm.ts": "// mine\n" });
    expect(existsSync(join(ROOT, "evil.ts"))).toBe(false);
  });

  it("usage errors exit 2", () => {
    const dir = workspace();
    for (const args of [[], ["import"], ["frobnicate", "a.zip"], ["import", "a.txt"], ["import", join(dir, "missing.zip")]]) {
      const r = cli(args, dir);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain("usage: npm run workspace");
    }
  });

  it("a zip in the page's layout, imported into a workspace, grades with the Node grader: the reference passes, a known mistake is named", { timeout: 180_000 }, async () => {
    const grades = { "lesson-9": { passed: 1, total: 1, filesHash: await filesHash({ "rmsnorm.ts": reference }), at: new Date().toISOString() } };
    for (const [text, expectPass] of [[reference, true], [noResidual, false]] as const) {
      const zip = join(fresh("course-workspace-zip-"), "page.zip");
      writeFileSync(zip, workspaceZip({ "lesson-9": { "rmsnorm.ts": text } }, progressJson("page", grades)));
      const dir = workspace();
      const imported = cli(["import", zip], dir);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toContain("the page's last grades (self-study, not saved here): lesson-9 1/1");
      const scratch = fresh("course-workspace-zip-grade-");
      const report = join(scratch, "report.json");
      const env = { ...process.env, COURSE_EXERCISES_DIR: dir, COURSE_PROGRESS_FILE: join(scratch, "progress.json"), FORCE_COLOR: "0", NO_COLOR: "1" };
      const g = spawnSync(process.execPath, ["--import", "tsx", "tools/loop/grade-cli.ts", "lesson-9", "--json-file", report], { cwd: ROOT, env, encoding: "utf8" });
      expect(g.status).toBe(expectPass ? 0 : 1);
      const records = JSON.parse(readFileSync(report, "utf8")) as Array<{ exercise: string; status: string; mistake?: string }>;
      expect(records.length).toBeGreaterThan(0);
      if (expectPass) expect(records.filter((x) => x.status !== "passed")).toEqual([]);
      else expect(records.some((x) => x.exercise === "preNormResidual" && x.mistake?.includes("residual connection is missing"))).toBe(true);
    }
  });
});
