/** Wrong but well-formed versions of every lesson-23 function (zeros of the right shape), as learner source. */
export const WRONG_LESSON_23 = `
export function responseLogpPositions(p: tf.Tensor1D, R: number) { return tf.zeros([p.shape[0], R], "int32"); }
export function maskedGae(r: tf.Tensor2D) { return { advantages: tf.zerosLike(r), returns: tf.zerosLike(r) }; }
export function ppoPolicyLoss() { return tf.scalar(0); }
export function referenceKlPenalty() { return tf.scalar(0); }
export function clippedValueLoss() { return tf.scalar(0); }
`;
