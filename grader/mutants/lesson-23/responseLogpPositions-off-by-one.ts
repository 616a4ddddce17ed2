import * as tf from "../../../lib/tf.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = {
  exercise: "responseLogpPositions",
  mistake: "positions start at promptLen, but the logits at p predict token p + 1: response token j is read at promptLen − 1 + j",
};

export function responseLogpPositions(promptLens: tf.Tensor1D, responseLen: number): tf.Tensor2D {
  return tf.tidy(() => tf.add(promptLens.expandDims(1), tf.range(0, responseLen, 1, "int32").expandDims(0)) as tf.Tensor2D);
}
