/**
 * The one import of TensorFlow.js the course uses: `import * as tf from "../../lib/tf.js"`.
 *
 * It re-exports `@tensorflow/tfjs` (tensors, ops, chained ops such as `x.sum()`, autograd,
 * optimizers) with its pure-JS cpu backend, which is exact and always available.
 * `lib/backend.ts` switches to wasm or to tfjs-node(-gpu) when asked.
 */
import { env } from "@tensorflow/tfjs";

// PROD silences the "install tfjs-node" banner that would otherwise interleave with every report.
env().set("PROD", true);

export * from "@tensorflow/tfjs";
