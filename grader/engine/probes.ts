/**
 * Diagnostic probes a lesson's grader can declare (ExerciseDef.probe). A scalar loss built from
 * per-token terms says only "wrong"; run again with the mask keeping one row at a time, the
 * learner's function and the reference give each row's own term, and the first row that differs
 * says where ("with only row 1 kept, your result 0.31, expected 0.19").
 */
import * as tf from "../../lib/tf.js";
import type { Inputs, Probe } from "./types.js";

/** One variant a row of the [B, R] mask `maskKey`: that row kept, the others zeroed. Rows the mask already drops are skipped. */
export function maskRowProbe(maskKey = "mask"): Probe {
  return {
    unit: "row",
    variants: (inputs: Inputs) => {
      const mask = inputs[maskKey] as tf.Tensor2D;
      const [B, R] = mask.shape;
      const data = mask.dataSync();
      const out: Array<{ label: string; inputs: Inputs }> = [];
      for (let b = 0; b < B; b++) {
        const row = data.slice(b * R, (b + 1) * R);
        if (!row.some((v) => v !== 0)) continue;
        const kept = new Float32Array(B * R);
        kept.set(row, b * R);
        out.push({ label: `row ${b}`, inputs: { ...inputs, [maskKey]: tf.tensor2d(kept, [B, R], mask.dtype as "float32") } });
      }
      return out;
    },
  };
}
