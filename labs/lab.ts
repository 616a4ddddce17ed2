import { describeRun, parseUseReference, resolveFunctions, type FunctionChoice } from "../lib/resolver.js";
import type { PieceName, ResolvedPieces } from "../lib/model/pieces.js";

/** What a lab's default export receives from `npm run lab`. */
export interface LabContext {
  /** labs/<lesson>/out/, ignored by git: write plots and traces here. */
  outDir: string;
  /** The TensorFlow.js backend in use (COURSE_BACKEND, default cpu). */
  backend: string;
  /** Arguments after the lesson name. */
  args: string[];
  /** A path as the learner should see it (relative to the repository root). */
  show: (file: string) => string;
}

export type Lab = (ctx: LabContext) => Promise<void> | void;

/** Prints the "whose functions" table of a run, then a blank line. */
export function printChoices(choices: readonly FunctionChoice[]): void {
  for (const line of describeRun(choices)) console.log(line);
  console.log();
}

/**
 * The lesson functions a lab runs, through lib/resolver.ts (the learner's when they pass grading,
 * else the reference; `--use-reference lesson-NN,…|all` in the lab's arguments forces the
 * reference), with the table of whose they are printed first.
 */
export async function labFunctions<T extends object>(ctx: LabContext, homes: { [K in keyof T]: string }): Promise<T> {
  const { fns, choices } = await resolveFunctions<T>(homes, { useReference: parseUseReference(ctx.args) });
  printChoices(choices);
  return fns;
}

/**
 * The model's pieces for a lab: the `shown` ones (those the lab's model actually runs) and any
 * `extra` functions the lab calls itself, resolved together (every missing one named in one
 * message) and printed in one table; the pieces the lab does not run stay the references'.
 */
export async function labPieces<T extends object = Record<string, never>>(
  ctx: LabContext,
  shown: readonly PieceName[],
  extra?: { [K in keyof T]: string },
): Promise<ResolvedPieces & { extra: T }> {
  const { resolveRun } = await import("../lib/model/pieces.js");
  // One call: every missing function (pieces and extras) named in one message.
  const resolved = await resolveRun<T>(shown, extra ?? ({} as { [K in keyof T]: string }), { useReference: parseUseReference(ctx.args) });
  printChoices(resolved.choices);
  return { pieces: resolved.pieces, choices: resolved.choices, extra: resolved.fns };
}
