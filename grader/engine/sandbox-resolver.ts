/**
 * What lib/resolver.ts becomes where a learner's code is graded: inside Node's sandbox (bundle.ts
 * bundles a module that calls `lendingResolver` with the files it may hand out) and in the grading
 * page's worker (tools/browser/shims/resolver.ts, with the learner's compiled files of other
 * lessons), one implementation so that both hand out the same functions with the same words. An
 * exercise, or course code its cases run (lesson 12's model pieces), may take another lesson's
 * function through the resolver; the real resolver grades and imports at run time, which neither
 * place can do. No file system here: the page runs it too.
 */

type Loaded = Record<string, unknown>;

/** One lesson the resolver can hand functions of: its files' loaders, and whose they are. */
export interface LentLesson {
  /** "solutions": the reference (Node, where present); "exercises": the learner's own files of that lesson. */
  source: "solutions" | "exercises";
  files: ReadonlyArray<() => Promise<Loaded>>;
}

/** The resolver's answer, as lib/resolver.ts's Resolution. */
export interface Lent {
  fn: unknown;
  source: "solutions" | "exercises";
  why: string;
}

/**
 * `fn`, the learner's function `name` of `lesson`, lent while `graded` is graded: its
 * NotImplementedError becomes "… which you have not written yet: finish <lesson> first".
 */
export function yours(fn: unknown, graded: string, lesson: string, name: string): (...args: unknown[]) => unknown {
  return (...args: unknown[]) => {
    try {
      return (fn as (...a: unknown[]) => unknown)(...args);
    } catch (err) {
      if (err instanceof Error && err.name === "NotImplementedError") throw new Error(`${graded} uses ${name} from ${lesson}, which you have not written yet: finish ${lesson} first (npm run grade ${lesson})`);
      throw err;
    }
  };
}

/**
 * The resolver while `graded` is graded: `resolveFunction(lesson, name)` hands the first function
 * `name` of that lesson's files, a reference as it is, the learner's own wrapped by `yours`; a
 * lesson not lent is refused ("an exercise may use other lessons' functions only"). Options are
 * ignored: grading never grades another lesson on the way.
 */
export function lendingResolver(graded: string, lessons: Readonly<Record<string, LentLesson>>) {
  async function resolveFunction(lesson: string, name: string): Promise<Lent> {
    const entry = lessons[lesson];
    for (const load of entry?.files ?? []) {
      const mod = await load();
      const fn = mod[name];
      if (typeof fn !== "function") continue;
      if (entry.source === "solutions") return { fn, source: "solutions", why: `the reference, while ${graded} is graded` };
      return { fn: yours(fn, graded, lesson, name), source: "exercises", why: "yours (no reference in this edition)" };
    }
    throw new Error(`${lesson}'s ${name} is not available while ${graded} is graded: an exercise may use other lessons' functions only`);
  }
  async function resolveFunctions(homes: Record<string, string>) {
    const fns: Record<string, unknown> = {};
    const choices: Array<{ lesson: string; name: string; source: string; why: string }> = [];
    for (const [name, lesson] of Object.entries(homes)) {
      const r = await resolveFunction(lesson, name);
      fns[name] = r.fn;
      choices.push({ lesson, name, source: r.source, why: r.why });
    }
    return { fns, choices };
  }
  return { resolveFunction, resolveFunctions };
}
