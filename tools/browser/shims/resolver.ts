/**
 * lib/resolver.ts in the grading page's worker (build.ts bundles this in its place, and learner
 * files compiled by the page get it through evaluate.ts's shared modules): the Node sandbox's
 * resolver (grader/engine/sandbox-resolver.ts), lending the learner's own compiled files of the
 * other lessons the page sent (`lend`), as a student edition without those lessons' references
 * does, and of the graded lesson too (which the Node sandbox withholds: there the reference is what
 * it would hand out; here it is the learner's own, so lesson 11's file, which takes lesson 12's
 * applyRope, still loads while lesson 12's model cases run it). Everything else lib/resolver.ts exports (its error classes, describeRun) is the real
 * module's. Until the worker lends, or in a worker that never does (the training page's), asking
 * for a function throws a LessonNotFinishedError, as a resolver with no reference to hand out does.
 */
import { lendingResolver } from "../../../grader/engine/sandbox-resolver.js";
import { LessonNotFinishedError } from "../../../lib/resolver.js";

export * from "../../../lib/resolver.js";

type Lending = ReturnType<typeof lendingResolver>;

let lending: Lending | undefined;

/** Makes `resolver` what resolveFunction and resolveFunctions answer with (the worker does, before it loads the lesson's cases). */
export function lend(resolver: Lending): void {
  lending = resolver;
}

function current(lesson: string, name: string): Lending {
  if (!lending) throw new LessonNotFinishedError(lesson, name, "not lent to this worker");
  return lending;
}

/** lib/resolver.ts's resolveFunction, answered by the lending resolver (options are ignored, as in the Node sandbox). */
export async function resolveFunction(lesson: string, name: string): Promise<{ fn: unknown; source: "solutions" | "exercises"; why: string }> {
  return current(lesson, name).resolveFunction(lesson, name);
}

/** lib/resolver.ts's resolveFunctions, answered by the lending resolver. */
export async function resolveFunctions(homes: Record<string, string>): Promise<{ fns: Record<string, unknown>; choices: Array<{ lesson: string; name: string; source: string; why: string }> }> {
  const [first] = Object.entries(homes);
  return current(first?.[1] ?? "", first?.[0] ?? "").resolveFunctions(homes);
}
