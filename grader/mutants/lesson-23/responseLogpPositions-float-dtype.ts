import * as tf from "../../../lib/tf.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = {
  exercise: "responseLogpPositions",
  mistake: "int32 − a JS number becomes float32 in TensorFlow.js: positions must stay int32 to be used as gather indices",
};

export function responseLogpPositions(promptLens: tf.Tensor1D, responseLen: number): tf.Tensor2D {
  return tf.tidy(() => tf.add(tf.sub(promptLens, 1).expandDims(1), tf.range(0, responseLen).expandDims(0)) as tf.Tensor2D);
}
