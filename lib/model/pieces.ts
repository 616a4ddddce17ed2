/**
 * The functions MiniMindTS is assembled from, each the graded exercise of one lesson. The model
 * takes them as a `ModelPieces` value, so the same model runs on the reference solutions or on a
 * learner's exercises (lib/model/resolver.ts chooses).
 */
import { rmsNorm } from "../../solutions/lesson-9/rmsnorm.js";
import { causalLmLoss } from "../../solutions/lesson-10/loss.js";
import { attention } from "../../solutions/lesson-11/attention.js";
import { ropeFrequencies } from "../../solutions/lesson-12/rope.js";
import { generate } from "../../solutions/lesson-12/generate.js";
import { feedForward, moeFeedForward } from "../../solutions/lesson-13/ffn.js";
import { sampleNextToken } from "../../solutions/lesson-3/sampling.js";

export interface ModelPieces {
  rmsNorm: typeof rmsNorm;
  causalLmLoss: typeof causalLmLoss;
  attention: typeof attention;
  ropeFrequencies: typeof ropeFrequencies;
  generate: typeof generate;
  feedForward: typeof feedForward;
  moeFeedForward: typeof moeFeedForward;
  sampleNextToken: typeof sampleNextToken;
}

export type PieceName = keyof ModelPieces;

/** Where each piece is taught: the lesson, and the file under exercises/<lesson>/ (and solutions/). */
export const PIECE_HOMES: Record<PieceName, { lesson: string; file: string }> = {
  rmsNorm: { lesson: "lesson-9", file: "rmsnorm.ts" },
  causalLmLoss: { lesson: "lesson-10", file: "loss.ts" },
  attention: { lesson: "lesson-11", file: "attention.ts" },
  ropeFrequencies: { lesson: "lesson-12", file: "rope.ts" },
  generate: { lesson: "lesson-12", file: "generate.ts" },
  feedForward: { lesson: "lesson-13", file: "ffn.ts" },
  moeFeedForward: { lesson: "lesson-13", file: "ffn.ts" },
  sampleNextToken: { lesson: "lesson-3", file: "sampling.ts" },
};

/** The reference solutions of every piece. */
export const REFERENCE_PIECES: ModelPieces = { rmsNorm, causalLmLoss, attention, ropeFrequencies, generate, feedForward, moeFeedForward, sampleNextToken };
