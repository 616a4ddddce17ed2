/**
 * Hidden cases (the gradebook's): each seeded random case of a lesson run again with its seeds mixed
 * with a salt derived from the instructor's secret, so that a table of the public cases' answers
 * scores only the public share. The variants are the lesson's own generators (lib/random.ts's
 * `withSeedSalt` reseeds every `new Rng(seed)` made while a case builds its inputs); worked, edge and
 * fixture cases stay public only, and so does a random case with stored expectations.
 */
import { withSeedSalt } from "../../lib/random.js";
import { tensorsIn } from "./compare.js";
import { disposeAll, hashInputs } from "./outputs.js";
import type { CaseDef, Inputs, LessonGrader } from "./types.js";

/** The prefix of a hidden case's name: "hidden: <the public case's name>". */
export const HIDDEN_PREFIX = "hidden: ";

/** Whether a case name is a hidden variant's. */
export function isHiddenCase(name: string): boolean {
  return name.startsWith(HIDDEN_PREFIX);
}

/** The hidden variant of a case, or undefined when it has none (not random, or stored expectations). */
function hiddenVariant(c: CaseDef, salt: number): CaseDef | undefined {
  if (c.kind !== "random" || c.expected) return undefined;
  return { ...c, name: `${HIDDEN_PREFIX}${c.name}`, inputs: () => withSeedSalt(salt, c.inputs) };
}

/**
 * The grader with, after each exercise's own cases, the hidden variant of each of its random cases
 * (salt 0 or undefined: the grader as it is). The reference process and the learner's process apply
 * the same salt, so both plan the same cases; the parent's plan (the reference's) is the one judged.
 */
export function withHiddenCases(grader: LessonGrader, salt: number | undefined): LessonGrader {
  if (!salt) return grader;
  return {
    ...grader,
    exercises: grader.exercises.map((ex) => ({ ...ex, cases: [...ex.cases, ...ex.cases.flatMap((c) => hiddenVariant(c, salt) ?? [])] })),
  };
}

function inputsHashOf(c: CaseDef): string | undefined {
  let inputs: Inputs | undefined;
  try {
    inputs = c.inputs();
    return hashInputs(inputs);
  } catch {
    return undefined;
  } finally {
    if (inputs) disposeAll(tensorsIn(inputs));
  }
}

/**
 * The grader without the hidden variants whose inputs equal their public case's (a random case
 * whose numbers come from no seeded Rng): a copy of a public case would be no hidden case at all.
 * For the reference process, whose plan is the one judged.
 */
export function distinctHiddenCases(grader: LessonGrader): LessonGrader {
  return {
    ...grader,
    exercises: grader.exercises.map((ex) => ({
      ...ex,
      cases: ex.cases.filter((c) => {
        if (!isHiddenCase(c.name)) return true;
        const pub = ex.cases.find((p) => p.name === c.name.slice(HIDDEN_PREFIX.length));
        const h = inputsHashOf(c);
        return h !== undefined && pub !== undefined && h !== inputsHashOf(pub);
      }),
    })),
  };
}
