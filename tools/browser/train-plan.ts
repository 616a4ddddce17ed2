/**
 * What the training page runs: lab 7's tiny pretraining (labs/lesson-7/config.ts), and the lesson
 * functions it needs, each with the lesson that teaches it: the pieces its model runs (lib/model/
 * pieces.ts's runningPieces, with lesson 10's loss) and the lab's own (cosine schedule, gradient
 * clipping, pretraining samples). The build writes the table into train.json; the worker resolves it.
 */
import { PIECE_HOMES, runningPieces } from "../../lib/model/pieces.js";
import { PRETRAIN_FUNCTION_HOMES } from "../../labs/lesson-7/config.js";

/** Function name → lesson, for a model of `config` trained with lesson 10's loss: the lab's `labPieces` call, as a table. */
export function trainFunctionHomes(config: { useMoe: boolean }): Record<string, string> {
  const pieces = Object.fromEntries(runningPieces(config, { lmLoss: true }).map((name) => [name, PIECE_HOMES[name]]));
  return { ...pieces, ...PRETRAIN_FUNCTION_HOMES };
}
