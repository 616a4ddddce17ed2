/**
 * A folder of submissions, one learner a subfolder, each either a copy of the course (its work in
 * `exercises/lesson-NN/`) or just the content of an `exercises/` folder (`lesson-NN/`). A learner
 * folder is only ever read: its lessons are copied into a staging folder directly inside the
 * repository root (like exercises/, so that the files' `../../lib/…` imports resolve against this
 * course's lib/, not the learner's copy of it) and graded there.
 */
import { copyFileSync, lstatSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "../../grader/engine/paths.js";

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
  /** The staged lesson folder to grade (it may not exist: nothing was submitted). */
  implDir: string;
  /** The staging workspace, relative to the repository root, as the engine's messages name it. */
  rel: string;
  /** Files of the lesson folders ("lesson-23/ppo.ts") that are symbolic links: not followed, so not graded. */
  links: string[];
  remove(): void;
}

let counter = 0;

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
 * Copies a learner's lesson folders into a fresh workspace directly inside the repository root, to
 * grade `lesson` there: all of them, as `npm run grade` sees them beside each other (a file may
 * import from a sibling lesson folder).
 */
export function stageLesson(learner: Learner, lesson: string): Staged {
  const workspace = join(ROOT, `.gradebook-${process.pid}-${counter++}`);
  mkdirSync(workspace);
  const links: string[] = [];
  try {
    for (const l of submittedLessons(learner)) copyTree(join(learner.lessonsDir!, l), join(workspace, l), learner.lessonsDir!, links);
  } catch (err) {
    rmSync(workspace, { recursive: true, force: true });
    throw err;
  }
  return { implDir: join(workspace, lesson), rel: relative(ROOT, workspace), links, remove: () => rmSync(workspace, { recursive: true, force: true }) };
}
