import * as tf from "../../../lib/tf.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = {
  exercise: "responseLogpPositions",
  mistake: "every row used the first row's prompt length; each row has its own",
};

export function responseLogpPositions(promptLens: tf.Tensor1D, responseLen: number): tf.Tensor2D {
  const first = promptLens.dataSync()[0];
  const rows = Array.from({ length: promptLens.shape[0] }, () => Array.from({ length: responseLen }, (_, j) => first - 1 + j));
  return tf.tensor2d(rows, [promptLens.shape[0], responseLen], "int32");
}
