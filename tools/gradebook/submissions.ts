/**
 * A folder of submissions, one learner a subfolder, each either a copy of the course (its work in
 * `exercises/lesson-NN/`) or just the content of an `exercises/` folder (`lesson-NN/`). A learner
 * folder is only ever read: its lessons are copied into a staging folder the grader owns and
 * graded there.
 *
 * A staged copy is `.grader-build/gradebook-<pid>-<n>/` (the pid of the gradebook that made it): a
 * name no learner file can have, in a folder only the grader writes. It holds the learner's lesson
 * folders as `exercises/lesson-NN/` beside links to this course's `lib/` and `grader/`, so that the
 * files' `../../lib/…` imports resolve against this course's lib/, not the learner's copy of it.
 * Clean-up removes only such folders, and only those whose gradebook no longer runs.
 */
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "../../grader/engine/paths.js";
import { processAlive } from "../../lib/processes.js";

/** Where the grader builds things (git-ignored); bundle.ts builds its bundles here too, named `<pid>-…`. */
export const BUILD_DIR = join(ROOT, ".grader-build");
/** A staged copy's name: `gradebook-<pid of the gradebook>-<n>`. */
const STAGED_NAME = /^gradebook-(\d+)-(\d+)$/;
/** The course folders a lesson file imports from (`../../lib/tf.js`, `../../grader/engine/random.js`), linked into a staged copy. */
const COURSE_LINKS = ["lib", "grader"];

const LESSON_FOLDER = /^lesson-\d+$/;

export interface Learner {
  /** The subfolder's name: the learner's name in the gradebook. */
  name: string;
  /** The subfolder. */
  dir: string;
  /** The folder holding the learner's lesson-NN folders; undefined when there is none. */
  lessonsDir?: string;
  /** Where lessonsDir lies inside the learner's folder, as reports show it ("exercises", "" for the folder itself). */
  prefix: string;
  /** What the folder was taken for, in words. */
  layout: string;
  /** How it was handed in (collect.ts): a folder, a zip, a git clone. */
  source?: "folder" | "zip" | "git";
  /** When it was handed in: the commit's time (git), else the file's modification time. */
  submittedAt?: Date;
  /** The commit graded (git). */
  commit?: string;
}

function isDir(p: string): boolean {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

function hasLessons(dir: string): boolean {
  return readdirSync(dir).some((e) => LESSON_FOLDER.test(e) && isDir(join(dir, e)));
}

/** Which kind of submission the folder `dir` is, as the learner `name`. */
export function detectLearner(name: string, dir: string): Learner {
  return detect(name, dir);
}

/** Which kind of submission `dir` is; a single wrapping folder (an unpacked archive) is looked into. */
function detect(name: string, dir: string, depth = 0): Learner {
  if (isDir(join(dir, "exercises"))) return { name, dir, lessonsDir: join(dir, "exercises"), prefix: relative(dir, join(dir, "exercises")), layout: "a copy of the course" };
  if (hasLessons(dir)) return { name, dir, lessonsDir: dir, prefix: "", layout: "an exercises/ folder" };
  const inner = readdirSync(dir).filter((e) => !e.startsWith(".") && isDir(join(dir, e)));
  if (depth === 0 && inner.length === 1) {
    const found = detect(name, join(dir, inner[0]), 1);
    if (found.lessonsDir) return { ...found, dir, prefix: relative(dir, found.lessonsDir), layout: `${found.layout}, inside ${inner[0]}/` };
  }
  return { name, dir, prefix: "", layout: "no exercises/ folder and no lesson-NN folders" };
}

/** The learners of a submissions folder, sorted by name; hidden folders and plain files are skipped. */
export function findLearners(folder: string): Learner[] {
  return readdirSync(folder)
    .filter((e) => !e.startsWith(".") && isDir(join(folder, e)))
    .sort((a, b) => a.localeCompare(b))
    .map((e) => detect(e, join(folder, e)));
}

/** The lesson-NN folders a learner submitted. */
export function submittedLessons(learner: Learner): string[] {
  if (!learner.lessonsDir) return [];
  return readdirSync(learner.lessonsDir).filter((e) => LESSON_FOLDER.test(e) && isDir(join(learner.lessonsDir!, e)));
}

export interface Staged {
  /** The staged copy, `.grader-build/gradebook-<pid>-<n>` (removed whole by `remove`). */
  dir: string;
  /** The staged lesson folder to grade (it may not exist: nothing was submitted). */
  implDir: string;
  /** The folder of the staged lesson folders, relative to the repository root, as the engine's messages name it. */
  rel: string;
  /** Files of the lesson folders ("lesson-23/ppo.ts") that are symbolic links: not followed, so not graded. */
  links: string[];
  remove(): void;
}

let counter = 0;
/** The staged copies this process made (and has not removed yet). */
const mine = new Set<string>();


/**
 * Removes staged copies left by gradebooks that no longer run (one killed with SIGKILL cannot clean
 * up after itself): only `gradebook-<pid>-<n>` folders directly in `.grader-build/`, whose pid runs
 * no process, or is this process's own but was not made by it (a recycled pid). Returns their names.
 */
export function removeStaleStaging(): string[] {
  if (!existsSync(BUILD_DIR)) return [];
  const removed: string[] = [];
  for (const name of readdirSync(BUILD_DIR)) {
    const m = STAGED_NAME.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    const stale = pid === process.pid ? !mine.has(name) : !processAlive(pid);
    if (!stale) continue;
    rmSync(join(BUILD_DIR, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/** Whether `dir` is named as a staged copy of the gradebook (a `gradebook-<pid>-<n>` folder of `.grader-build/`). */
export function isStagedCopy(dir: string): boolean {
  const rel = relative(BUILD_DIR, dir);
  return STAGED_NAME.test(rel);
}

/** Copies regular files and folders (never links, never node_modules/) from `from` to `to`; returns the links skipped. */
function copyTree(from: string, to: string, base: string, links: string[]): void {
  mkdirSync(to, { recursive: true });
  for (const e of readdirSync(from)) {
    const src = join(from, e);
    const st = lstatSync(src);
    if (st.isSymbolicLink()) links.push(relative(base, src));
    else if (st.isDirectory() && e !== "node_modules") copyTree(src, join(to, e), base, links);
    else if (st.isFile()) copyFileSync(src, join(to, e));
  }
}

/**
 * Copies a learner's lesson folders into a fresh staged copy (`.grader-build/gradebook-<pid>-<n>/
 * exercises/`), to grade `lesson` there: all of them, as `npm run grade` sees them beside each other
 * (a file may import from a sibling lesson folder).
 */
export function stageLesson(learner: Learner, lesson: string): Staged {
  mkdirSync(BUILD_DIR, { recursive: true });
  let name: string;
  for (;;) {
    name = `gradebook-${process.pid}-${counter++}`;
    try {
      mkdirSync(join(BUILD_DIR, name));
      break;
    } catch (err) {
      // Left by an earlier process with this pid: removeStaleStaging takes it away at the next run's start.
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  mine.add(name);
  const dir = join(BUILD_DIR, name);
  const remove = () => {
    // Removes the links, never what they point to (rmSync does not follow symbolic links).
    rmSync(dir, { recursive: true, force: true });
    mine.delete(name);
  };
  const exercises = join(dir, "exercises");
  const links: string[] = [];
  try {
    for (const l of COURSE_LINKS) symlinkSync(join(ROOT, l), join(dir, l), "junction");
    mkdirSync(exercises);
    for (const l of submittedLessons(learner)) copyTree(join(learner.lessonsDir!, l), join(exercises, l), learner.lessonsDir!, links);
  } catch (err) {
    remove();
    throw err;
  }
  return { dir, implDir: join(exercises, lesson), rel: relative(ROOT, exercises), links, remove };
}
