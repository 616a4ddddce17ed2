/**
 * Parametrised wrong versions of lesson 19's functions. Each mutant file picks one flaw, so every
 * mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../lib/tf.js";

type InitA = (name: string, shape: [number, number]) => tf.Tensor2D;

export interface ApplyFlaws {
  /** A zero and B drawn at random: still a no-op at the start, but the wrong factor is zero. */
  zeroA?: boolean;
  /** Every 2-D linear weight adapted, square or not. */
  everyLinear?: boolean;
  /** The token embedding treated as a linear layer when it is square. */
  embeddingToo?: boolean;
  /** A stored as [in, r]. */
  transposedA?: boolean;
  /** Names "M.weight.lora.A" instead of MiniMind's "M.lora.A.weight". */
  wrongNames?: boolean;
  /** Any square 2-D tensor adapted, whether or not its name ends in ".weight" (a buffer such as "….rotary.freqs" too). */
  noWeightSuffixCheck?: boolean;
}

export function applyLoraVariant(flaws: ApplyFlaws) {
  return (weights: Record<string, tf.Tensor>, rank: number, initA: InitA): Record<string, tf.Tensor2D> => {
    const out: Record<string, tf.Tensor2D> = {};
    for (const [name, w] of Object.entries(weights)) {
      if ((!name.endsWith(".weight") && !flaws.noWeightSuffixCheck) || w.rank !== 2) continue;
      if (name === "model.embed_tokens.weight" && !flaws.embeddingToo) continue;
      const [o, i] = w.shape;
      if (o !== i && !flaws.everyLinear) continue;
      const module = name.endsWith(".weight") ? name.slice(0, -".weight".length) : name;
      const [aName, bName] = flaws.wrongNames ? [`${name}.lora.A`, `${name}.lora.B`] : [`${module}.lora.A.weight`, `${module}.lora.B.weight`];
      const aShape: [number, number] = flaws.transposedA ? [i, rank] : [rank, i];
      if (flaws.zeroA) {
        out[aName] = tf.zeros(aShape);
        out[bName] = initA(aName, [o, rank]);
      } else {
        out[aName] = initA(aName, aShape);
        out[bName] = tf.zeros([o, rank]);
      }
    }
    return out;
  };
}

export interface TrainableFlaws {
  /** The total counts only the frozen base model. */
  totalBaseOnly?: boolean;
  /** Only names ending in ".lora.A.weight" train. */
  onlyA?: boolean;
  /** Only the adapter matrices ("….lora.A.weight", "….lora.B.weight") train: another "lora" parameter (a "….lora.scaling") is frozen. */
  abWeightsOnly?: boolean;
  /** Only names with ".lora." (dots on both sides) train: PEFT's "….lora_A.default.weight" is frozen. */
  dottedLora?: boolean;
  /** A parameter's size as the sum of its dimensions. */
  sumOfDims?: boolean;
  /** The frozen names listed instead of the trainable ones. */
  invert?: boolean;
}

export function trainableParamsVariant(flaws: TrainableFlaws) {
  return (shapes: Record<string, readonly number[]>) => {
    const size = (s: readonly number[]) => (flaws.sumOfDims ? s.reduce((p, d) => p + d, 0) : s.reduce((p, d) => p * d, 1));
    const isAdapter = (n: string) =>
      flaws.onlyA ? n.endsWith(".lora.A.weight") : flaws.abWeightsOnly ? /\.lora\.[AB]\.weight$/.test(n) : flaws.dottedLora ? n.includes(".lora.") : n.includes("lora");
    const trainable: string[] = [];
    let trainableCount = 0;
    let totalCount = 0;
    for (const [name, shape] of Object.entries(shapes)) {
      if (!(flaws.totalBaseOnly && isAdapter(name))) totalCount += size(shape);
      if (isAdapter(name) === !!flaws.invert) continue;
      trainable.push(name);
      trainableCount += size(shape);
    }
    return { trainable, trainableCount, totalCount };
  };
}
