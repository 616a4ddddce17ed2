/**
 * Collection: the entries of a submissions folder as learners, whatever each is:
 *
 * - a git clone (one repository a learner, as GitHub Classroom makes them): graded at the last
 *   commit at or before the deadline (with a late rule and no such commit: the last within the late
 *   days), recorded with its hash and commit time. The commit is read with `git archive` into a
 *   temporary folder: the learner's repository is only read (no checkout, no worktree, no hooks);
 * - a `.zip` (zip.ts, with yauzl: no zip-slip, no links): unpacked into a temporary folder, its time the zip
 *   file's modification time;
 * - a folder (today's layout): read where it is, its time the newest modification time of the
 *   files in its assigned lesson folders.
 *
 * Every temporary folder is removed by `dispose`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { detectLearner, type Learner } from "./submissions.js";
import { unzipInto } from "./zip.js";

export interface Collected {
  learners: Learner[];
  /** Entries that are no submission (plain files other than .zip), by name. */
  skipped: string[];
  /** Removes the temporary folders of git and zip submissions. */
  dispose(): void;
}

export interface CollectOptions {
  deadline?: Date;
  /** Days after the deadline a late submission is still taken (the late rule's maxDaysLate). */
  lateDays?: number;
  /** Only these lesson folders count for a folder's submission time. */
  lessons?: readonly string[];
}

function git(repo: string, args: string[]): string {
  // No fsmonitor, no hooks, no pager: nothing of the learner's repository configuration runs.
  return execFileSync("git", ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-C", repo, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, GIT_PAGER: "cat", GIT_TERMINAL_PROMPT: "0" } }).trim();
}

/** The last commit of HEAD at or before `before` (any, when undefined): hash and commit time. */
function commitAt(repo: string, before: Date | undefined): { hash: string; time: Date } | undefined {
  const args = ["log", "-1", "--format=%H %cI", ...(before ? [`--before=${before.toISOString()}`] : []), "HEAD", "--"];
  let line: string;
  try {
    line = git(repo, args);
  } catch {
    return undefined; // no commit at all
  }
  if (!line) return undefined;
  const [hash, time] = line.split(" ");
  return { hash, time: new Date(time) };
}

function newestMtime(dir: string, depth = 0): number {
  let newest = 0;
  for (const e of readdirSync(dir)) {
    if (e === "node_modules" || e === ".git") continue;
    const p = join(dir, e);
    const st = lstatSync(p);
    if (st.isDirectory() && depth < 8) newest = Math.max(newest, newestMtime(p, depth + 1));
    else if (st.isFile()) newest = Math.max(newest, st.mtimeMs);
  }
  return newest;
}

function isGitClone(dir: string): boolean {
  return existsSync(join(dir, ".git"));
}

/** The learners of a submissions folder (sorted by name): git clones, zips and folders. */
export async function collect(folder: string, opts: CollectOptions = {}): Promise<Collected> {
  const temps: string[] = [];
  const dispose = () => temps.splice(0).forEach((t) => rmSync(t, { recursive: true, force: true }));
  const temp = (name: string) => {
    const t = mkdtempSync(join(tmpdir(), `gradebook-${name.replace(/[^\w.-]/g, "_").slice(0, 40)}-`));
    temps.push(t);
    return t;
  };
  const learners: Learner[] = [];
  const skipped: string[] = [];
  try {
    for (const e of readdirSync(folder).filter((x) => !x.startsWith(".")).sort((a, b) => a.localeCompare(b))) {
      const p = join(folder, e);
      const st = lstatSync(p);
      if (st.isDirectory() && isGitClone(p)) learners.push(fromGit(e, p, opts, temp));
      else if (st.isDirectory()) learners.push(fromFolder(e, p, opts));
      else if (st.isFile() && /\.zip$/i.test(e)) learners.push(await fromZip(e.replace(/\.zip$/i, ""), p, temp));
      else skipped.push(e);
    }
  } catch (err) {
    dispose();
    throw err;
  }
  const names = new Set<string>();
  for (const l of learners) {
    if (names.has(l.name)) throw new Error(`two submissions are both named ${l.name} (a folder and a zip?): keep one`);
    names.add(l.name);
  }
  return { learners, skipped, dispose };
}

function fromFolder(name: string, dir: string, opts: CollectOptions): Learner {
  const l = detectLearner(name, dir);
  if (!l.lessonsDir) return { ...l, source: "folder" };
  const lessons = readdirSync(l.lessonsDir).filter((x) => !opts.lessons || opts.lessons.includes(x));
  const newest = Math.max(0, ...lessons.map((x) => join(l.lessonsDir!, x)).filter((x) => statSync(x).isDirectory()).map((x) => newestMtime(x)));
  return { ...l, source: "folder", submittedAt: newest > 0 ? new Date(newest) : undefined };
}

async function fromZip(name: string, file: string, temp: (n: string) => string): Promise<Learner> {
  const dir = temp(name);
  let note = "";
  try {
    const u = await unzipInto(file, dir);
    const left = [...u.links.map((l) => `${l} (a symbolic link)`), ...u.refused];
    if (left.length > 0) note = `; left out of the zip: ${left.slice(0, 5).join(", ")}${left.length > 5 ? ` and ${left.length - 5} more` : ""}`;
  } catch (err) {
    return { name, dir, prefix: "", layout: `a zip that could not be read (${(err as Error).message})`, source: "zip", submittedAt: statSync(file).mtime };
  }
  const l = detectLearner(name, dir);
  return { ...l, layout: `${l.layout}, from ${name}.zip${note}`, source: "zip", submittedAt: statSync(file).mtime };
}

function fromGit(name: string, repo: string, opts: CollectOptions, temp: (n: string) => string): Learner {
  let commit = commitAt(repo, opts.deadline);
  if (!commit && opts.deadline && opts.lateDays && opts.lateDays > 0) commit = commitAt(repo, new Date(opts.deadline.getTime() + opts.lateDays * 86_400_000));
  if (!commit) {
    const why = opts.deadline ? `no commit at or before the deadline${opts.lateDays ? ` or within the ${opts.lateDays} late day(s)` : ""}` : "no commit";
    return { name, dir: repo, prefix: "", layout: `a git repository with ${why}`, source: "git" };
  }
  const dir = temp(name);
  const tar = join(dir, "..", `${dir.split("/").pop()}.tar`);
  try {
    git(repo, ["archive", "--format=tar", "-o", tar, commit.hash]);
    const into = join(dir, "tree");
    mkdirSync(into);
    execFileSync("tar", ["-xf", tar, "-C", into, "--no-same-owner", "--no-same-permissions"], { stdio: ["ignore", "ignore", "pipe"] });
    const l = detectLearner(name, into);
    return { ...l, dir: into, layout: `${l.layout}, git commit ${commit.hash.slice(0, 12)} of ${commit.time.toISOString()}`, source: "git", commit: commit.hash, submittedAt: commit.time };
  } catch (err) {
    return { name, dir: repo, prefix: "", layout: `a git repository whose commit ${commit.hash.slice(0, 12)} could not be read (${String((err as Error).message).split("\n")[0]})`, source: "git", commit: commit.hash, submittedAt: commit.time };
  } finally {
    rmSync(tar, { force: true });
  }
}
