/**
 * The functions MiniMindTS is assembled from, each the graded exercise of one lesson. The model
 * takes them as a `ModelPieces` value, so the same model runs on the reference solutions or on a
 * learner's exercises; lib/resolver.ts chooses, piece by piece (`resolvePieces`).
 */
// Only resolveFunction: inside the grading sandbox lib/resolver.ts is replaced by a bundled
// stand-in that exports nothing else (grader/engine/bundle.ts).
import { resolveFunction, type FunctionChoice, type ResolveOptions } from "../resolver.js";
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
 * reference (or always the reference for the lessons in `useReference`).
 */
export async function resolvePieces(opts: ResolveOptions = {}): Promise<ResolvedPieces> {
  const pieces: Record<string, unknown> = {};
  const choices: FunctionChoice[] = [];
  for (const [name, lesson] of Object.entries(PIECE_HOMES)) {
    const r = await resolveFunction(lesson, name, opts);
    pieces[name] = r.fn;
    choices.push({ lesson, name, source: r.source, why: r.why });
  }
  return { pieces: pieces as unknown as ModelPieces, choices };
}
