/**
 * The functions MiniMindTS is assembled from, each the graded exercise of one lesson. The model
 * takes them as a `ModelPieces` value, so the same model runs on the reference solutions or on a
 * learner's exercises; lib/resolver.ts chooses, piece by piece (`resolvePieces`).
 */
// Only resolveFunction and resolveFunctions: inside the grading sandbox lib/resolver.ts is replaced
// by a bundled stand-in that exports nothing else (grader/engine/bundle.ts).
import { resolveFunction, resolveFunctions, type FunctionChoice, type ResolveOptions } from "../resolver.js";
import type { ModelPieces, ProjectQkv } from "./types.js";

export type { ModelPieces } from "./types.js";
export type PieceName = keyof ModelPieces;

/** The lesson that teaches each piece, in lesson order. */
export const PIECE_HOMES: Record<PieceName, string> = {
  sampleNextToken: "lesson-3",
  rmsNorm: "lesson-9",
  causalLmLoss: "lesson-10",
  attention: "lesson-11",
  ropeFrequencies: "lesson-12",
  generate: "lesson-12",
  feedForward: "lesson-13",
  moeFeedForward: "lesson-13",
};

/**
 * The pieces a model of this config runs to generate (norms, attention, RoPE, its feed-forward,
 * sampling), plus lesson 10's loss when it also trains with `causalLmLoss`.
 */
export function runningPieces(config: { useMoe: boolean }, opts: { lmLoss?: boolean } = {}): PieceName[] {
  const pieces: PieceName[] = ["rmsNorm", "attention", "ropeFrequencies", config.useMoe ? "moeFeedForward" : "feedForward", "generate", "sampleNextToken"];
  return opts.lmLoss ? [...pieces, "causalLmLoss"] : pieces;
}

/** The reference of `name`, or (when solutions/ lacks it) a function that throws why when called. */
async function referenceOf<F>(lesson: string, name: string): Promise<F> {
  try {
    return (await resolveFunction<F>(lesson, name, { useReference: true, referenceOnly: true })).fn;
  } catch (err) {
    return (() => {
      throw err;
    }) as F;
  }
}

async function referencePieces(): Promise<ModelPieces> {
  const out: Record<string, unknown> = {};
  for (const [name, lesson] of Object.entries(PIECE_HOMES)) out[name] = await referenceOf(lesson, name);
  return out as unknown as ModelPieces;
}

/** The reference solutions of every piece (the model's default). */
export const REFERENCE_PIECES: ModelPieces = await referencePieces();

/** Lesson 11's reference projections, which lib/model/fast-attention.ts shares. */
export const referenceProjectQkv: ProjectQkv = await referenceOf<ProjectQkv>("lesson-11", "projectQkv");

export interface ResolvedPieces {
  pieces: ModelPieces;
  choices: FunctionChoice[];
}

/**
 * For every piece of the model, the learner's function when it passes its grader, else the
 * reference (or always the reference for the lessons in `useReference`). Every piece that can be
 * had neither way is named in one LessonsNotFinishedError.
 */
export async function resolvePieces(opts: ResolveOptions = {}): Promise<ResolvedPieces> {
  const { pieces, choices } = await resolveRun(Object.keys(PIECE_HOMES) as PieceName[], {}, opts);
  return { pieces, choices };
}

/**
 * What a run needs, resolved in one call: the pieces it runs (`running`) and its other lesson
 * functions (`homes`, name → lesson). When some are missing, every one is named in one
 * LessonsNotFinishedError with the lessons to finish, not one per attempt. Pieces the run does not
 * use are the references' (each throws, when called, why it is absent). `choices` lists the
 * running pieces, then `homes`, in order.
 */
export async function resolveRun<T extends object>(
  running: readonly PieceName[],
  homes: { [K in keyof T]: string },
  opts: ResolveOptions = {},
): Promise<{ pieces: ModelPieces; fns: T; choices: FunctionChoice[] }> {
  const pieceHomes = Object.fromEntries(running.map((name) => [name, PIECE_HOMES[name]]));
  const resolved = await resolveFunctions<Record<string, unknown>>({ ...pieceHomes, ...(homes as Record<string, string>) }, opts);
  const pieces: Record<string, unknown> = { ...REFERENCE_PIECES };
  for (const name of running) pieces[name] = resolved.fns[name];
  const fns = Object.fromEntries(Object.keys(homes).map((name) => [name, resolved.fns[name]]));
  return { pieces: pieces as unknown as ModelPieces, fns: fns as T, choices: resolved.choices };
}
