import * as tf from "../../lib/tf.js";
import { miniMindConfig } from "../../lib/model/config.js";
import { MiniMindTS } from "../../lib/model/model.js";
import { AdamW } from "../../lib/model/train.js";
import { stepOn } from "../../lib/model/step.js";
import { clipGradNorm } from "../../solutions/lesson-14/clip.js";
import { formatProfile, profileStep } from "./step-profile.js";
import { Rng } from "../../lib/random.js";
await import("@tensorflow/tfjs-backend-wasm");
const { registerWasmKernels } = await import("../../lib/wasm-kernels.js");
registerWasmKernels();
await tf.setBackend("wasm");
const TINY = { vocabSize: 512, hiddenSize: 128, numHiddenLayers: 2, numAttentionHeads: 4, numKeyValueHeads: 2, maxPositionEmbeddings: 64 };
const [BATCH, SEQ] = [16, 64];
const rng = new Rng(3);
const ids = Int32Array.from({ length: BATCH * SEQ }, () => rng.int(0, 511));
const profile = await profileStep((pieces) => {
  const model = MiniMindTS.init(miniMindConfig(TINY), 1, { pieces });
  const optimizer = new AdamW(model.trainableVariables());
  return {
    step: (phase) => {
      const batch = phase("stage the batch", () => tf.tensor2d(ids, [BATCH, SEQ], "int32"));
      stepOn(model.trainableVariables(), optimizer, () => model.loss(batch, batch).loss, 5e-4, clipGradNorm, 1.0, phase);
      batch.dispose();
    },
    dispose: () => model.dispose(),
  };
}, 3);
console.log(formatProfile("p", profile).join("\n"));
