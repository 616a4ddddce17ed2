/**
 * Which graded lessons the browser grades (build.ts bundles these): all of them. Measured by
 * building each lesson's cases for the browser and grading its stubs, its reference and a known
 * mistake in Chromium against the Node grader (test/browser-grade.test.ts).
 *
 * Two kinds of lessons needed more than the others, and get it as a student edition does:
 * - lessons 11 and 12, whose cases build inputs with grader/engine/deps.ts (lesson 12's rope
 *   table, from its reference): the worker's bundle holds the calls recorded while the build froze
 *   the expectations (replay.ts, build.ts's replayedDeps), never the reference;
 * - lessons 5, 11, 21 and 26, whose exercises take another lesson's function through
 *   lib/resolver.ts at load time (a top-level await, so the page compiles ES modules), and lesson
 *   12, whose cases run a model of the other lessons' pieces (lib/model/pieces.ts): there the
 *   worker's resolver is the Node sandbox's (grader/engine/sandbox-resolver.ts) and hands out the
 *   learner's own functions of those lessons (the files the page is given for them, else their
 *   stubs), as a student edition without those lessons' references does, and the graded lesson's
 *   own (the Node sandbox withholds it, so there, in a student edition, lesson 11's file, which
 *   takes lesson 12's applyRope, cannot load while lesson 12's model cases need it). The full course's Node grader hands
 *   the reference instead, so the verdicts agree wherever the learner's borrowed functions compute
 *   what the references do (a finished lesson); where they do not, the page says which lesson to
 *   finish first ("… which you have not written yet: finish lesson-4 first") or judges with the
 *   learner's function, as the student edition's grader does. The page never holds a reference.
 */
export const BROWSER_LESSONS: readonly string[] = [
  "lesson-3",
  "lesson-4",
  "lesson-5",
  "lesson-6",
  "lesson-8",
  "lesson-9",
  "lesson-10",
  "lesson-11",
  "lesson-12",
  "lesson-13",
  "lesson-14",
  "lesson-15",
  "lesson-17",
  "lesson-18",
  "lesson-19",
  "lesson-20",
  "lesson-21",
  "lesson-22",
  "lesson-23",
  "lesson-24",
  "lesson-25",
  "lesson-26",
  "lesson-27",
  "lesson-29",
  "lesson-30",
  "lesson-31",
  "lesson-32",
  "lesson-33",
  "lesson-34",
];

/** Graded lessons not supported in the browser yet → why (none today). */
export const BROWSER_UNSUPPORTED: Readonly<Record<string, string>> = {};

/** A stub's call of the resolver, as lib/stubs.ts writes it: `resolveFunction<typeof …>("lesson-4", "renderChat", …)`. */
const RESOLVER_CALL = /\bresolveFunction\s*(?:<[^>]*>)?\s*\(\s*"(lesson-\d+)"/g;

const byNumber = (a: string, b: string) => Number(a.slice(7)) - Number(b.slice(7));

/** The lessons whose functions a lesson's stubs (file name → text) take through lib/resolver.ts, in lesson order. */
export function borrowedLessons(stubs: Readonly<Record<string, string>>): string[] {
  const found = new Set(Object.values(stubs).flatMap((text) => [...text.matchAll(RESOLVER_CALL)].map((m) => m[1])));
  return [...found].sort(byNumber);
}

/**
 * The lessons whose functions the page's resolver lends while `lesson` is graded: `direct` of the
 * lesson (what its stubs and its cases take), then, in turn, what those lessons' own files take
 * when they load (`direct` of each); not the graded lesson itself, whose files the worker has
 * anyway. In lesson order.
 */
export function lentLessons(lesson: string, direct: (l: string) => readonly string[]): string[] {
  const lent = new Set<string>();
  const queue = [lesson];
  while (queue.length > 0) {
    for (const l of direct(queue.shift()!)) {
      if (l === lesson || lent.has(l)) continue;
      lent.add(l);
      queue.push(l);
    }
  }
  return [...lent].sort(byNumber);
}
