/**
 * Parametrised wrong versions of lesson 12's functions. Each mutant file picks one flaw, so every
 * mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../lib/tf.js";
import type { RopeScaling } from "../../lib/model/config.js";
import type { CausalLm, KvCache } from "../../lib/model/types.js";
import type { GenerateOptions } from "../../solutions/lesson-12/generate.js";

export interface TableFlaws {
  /** f_i = base^(−i/D): the factor 2 in the exponent forgotten. */
  exponentWithoutTwo?: boolean;
  /** Each frequency written twice in a row ([f0, f0, f1, f1, …]) instead of the table twice. */
  interleavedTable?: boolean;
  /** The YaRN attention factor applied only when the table goes past the original context. */
  attentionFactorOnlyWhenScaling?: boolean;
  /** The ramp the wrong way round: f·(γ + (1 − γ)/factor). */
  rampFlipped?: boolean;
  /** Another default base when it is left out (1e4, the original Transformer's and Llama's). */
  baseDefault?: number;
  /** `ropeScaling !== null` as the check, so a left-out (undefined) ropeScaling is read. */
  scalingNullCheckOnly?: boolean;
  /** Frequencies rescaled from end ≥ originalMaxPositionEmbeddings on (≥ for >). */
  scaleAtOriginalLength?: boolean;
  /** The ramp divides by high − low without the max(·, 0.001) guard: 0/0 = NaN when high = low. */
  rampUnguarded?: boolean;
  /** tf.range(0, dim, 2) without keeping only its first ⌊dim/2⌋ entries: an odd dim gets one frequency too many. */
  oddDimExtraFrequency?: boolean;
}

export function tableVariant(flaws: TableFlaws) {
  return (dim: number, end: number, base = flaws.baseDefault ?? 1e6, given?: RopeScaling | null) =>
    tf.tidy(() => {
      if (given === undefined && flaws.scalingNullCheckOnly) throw new TypeError("Cannot read properties of undefined (reading 'attentionFactor')");
      const scaling = given ?? null;
      const half = flaws.oddDimExtraFrequency ? Math.ceil(dim / 2) : Math.floor(dim / 2);
      const exponents = flaws.exponentWithoutTwo ? tf.div(tf.range(0, half, 1, "float32"), dim) : tf.div(tf.range(0, 2 * half, 2, "float32"), dim);
      let freqs: tf.Tensor1D = tf.div(1, tf.pow(base, exponents));
      let attentionFactor = 1;
      if (scaling !== null) {
        const scaled = flaws.scaleAtOriginalLength ? end >= scaling.originalMaxPositionEmbeddings : end / scaling.originalMaxPositionEmbeddings > 1;
        if (!flaws.attentionFactorOnlyWhenScaling || scaled) attentionFactor = scaling.attentionFactor;
        if (scaled) {
          const indexFor = (b: number) => (dim * Math.log(scaling.originalMaxPositionEmbeddings / (b * 2 * Math.PI))) / (2 * Math.log(base));
          const low = Math.max(Math.floor(indexFor(scaling.betaFast)), 0);
          const high = Math.min(Math.ceil(indexFor(scaling.betaSlow)), half - 1);
          const ramp = tf.clipByValue(tf.div(tf.sub(tf.range(0, half, 1, "float32"), low), flaws.rampUnguarded ? high - low : Math.max(high - low, 0.001)), 0, 1);
          const [keep, divide] = flaws.rampFlipped ? [ramp, tf.sub(1, ramp)] : [tf.sub(1, ramp), ramp];
          freqs = tf.mul(freqs, tf.add(keep, tf.div(divide, scaling.factor)));
        }
      }
      const angles = tf.outerProduct(tf.range(0, end, 1, "float32"), freqs);
      const table = (f: (x: tf.Tensor) => tf.Tensor) => {
        const values = f(angles);
        const full = flaws.interleavedTable ? tf.reshape(tf.stack([values, values], -1), [end, 2 * half]) : tf.concat([values, values], -1);
        return tf.mul(full, attentionFactor) as tf.Tensor2D;
      };
      return { cos: table(tf.cos), sin: table(tf.sin) };
    });
}

export type RotationFlaw =
  /** rotate_half(x) = [x₂, −x₁]: every pair turns the wrong way. */
  | "wrongSign"
  /** Neighbouring dimensions (0,1), (2,3), … rotated together instead of j with j + D/2. */
  | "interleavedPairs"
  /** Only the queries rotated. */
  | "keysUnrotated"
  /** rotate_half built from the numbers (dataSync) as a new tensor: the right values, but no gradient flows through it. */
  | "rotateHalfOffTape"
  /** x·sin + rotate_half(x)·cos. */
  | "sinCosSwapped";

export function rotationVariant(flaw: RotationFlaw) {
  return (q: tf.Tensor4D, k: tf.Tensor4D, cos: tf.Tensor2D, sin: tf.Tensor2D) =>
    tf.tidy(() => {
      const [S, D] = cos.shape;
      const c = tf.reshape(cos, [S, 1, D]);
      const s = tf.reshape(sin, [S, 1, D]);
      const rotateHalf = (x: tf.Tensor4D): tf.Tensor => {
        if (flaw === "interleavedPairs") {
          const [B, T, H] = x.shape;
          const pairs = tf.reshape(x, [B, T, H, D / 2, 2]);
          const [even, odd] = tf.split(pairs, 2, -1);
          return tf.reshape(tf.concat([tf.neg(odd), even], -1), x.shape);
        }
        const [first, second] = tf.split(x, 2, -1);
        if (flaw === "rotateHalfOffTape") return tf.tensor(tf.concat([tf.neg(second), first], -1).dataSync(), x.shape);
        return flaw === "wrongSign" ? tf.concat([second, tf.neg(first)], -1) : tf.concat([tf.neg(second), first], -1);
      };
      const rotate = (x: tf.Tensor4D) =>
        (flaw === "sinCosSwapped" ? tf.add(tf.mul(x, s), tf.mul(rotateHalf(x), c)) : tf.add(tf.mul(x, c), tf.mul(rotateHalf(x), s))) as tf.Tensor4D;
      return { q: rotate(q), k: flaw === "keysUnrotated" ? k.clone() : rotate(k) };
    });
}

export interface GenerateFlaws {
  /** The whole sequence fed every step although the cache already holds its prefix. */
  feedsEverythingWithCache?: boolean;
  /** Finished rows keep choosing tokens instead of repeating EOS. */
  noEosFill?: boolean;
  /** Never stops before maxNewTokens, even when every row is finished. */
  neverStopsEarly?: boolean;
  /** The attention mask is not passed to the model. */
  ignoresMask?: boolean;
  /** The cache is never used: every step recomputes the whole prefix. */
  recomputesPrefix?: boolean;
  /** The mask is not grown by one column per new token. */
  maskNotExtended?: boolean;
  /** `opts.eosTokenId ?? 2`: an explicit null (never stop) becomes MiniMind's default 2. */
  eosNullAsDefault?: boolean;
  /** `opts.eosTokenId ?? null`: a left-out EOS never stops, instead of MiniMind's default 2. */
  eosDefaultNone?: boolean;
  /** Always greedy: opts.pickToken is never called. */
  ignoresPickToken?: boolean;
  /** A row whose prompt contains EOS already counts as finished (a multi-turn prompt ends turns with it). */
  eosInPromptFinishes?: boolean;
  /** `if (opts.useCache)`: a left-out useCache turns the cache off instead of on. */
  cacheOffByDefault?: boolean;
  /** `opts.attentionMask !== null` as the check, so a left-out (undefined) mask is cloned. */
  maskNullCheckOnly?: boolean;
}

export function generateVariant(flaws: GenerateFlaws) {
  return (model: CausalLm, inputIds: tf.Tensor2D, opts: GenerateOptions): tf.Tensor2D => {
    const B = inputIds.shape[0];
    const eos = flaws.eosNullAsDefault ? (opts.eosTokenId ?? 2) : flaws.eosDefaultNone ? (opts.eosTokenId ?? null) : opts.eosTokenId === undefined ? 2 : opts.eosTokenId;
    const useCache = (flaws.cacheOffByDefault ? !!opts.useCache : (opts.useCache ?? true)) && !flaws.recomputesPrefix;
    if (flaws.maskNullCheckOnly && opts.attentionMask === undefined) throw new TypeError("Cannot read properties of undefined (reading 'shape')");
    let ids = tf.clone(inputIds);
    let mask = opts.attentionMask && !flaws.ignoresMask ? tf.clone(opts.attentionMask) : null;
    let past: KvCache | null = null;
    const prompt = flaws.eosInPromptFinishes ? (inputIds.arraySync() as number[][]) : [];
    const finished = Array.from({ length: B }, (_, b) => flaws.eosInPromptFinishes && eos !== null && prompt[b].includes(eos));
    for (let step = 0; step < opts.maxNewTokens; step++) {
      const pastLen = past && !flaws.feedsEverythingWithCache ? past[0].k.shape[1] : 0;
      const { chosen, cache } = tf.tidy(() => {
        const out = model.forward(tf.slice(ids, [0, pastLen], [B, ids.shape[1] - pastLen]), { attentionMask: mask, pastKv: past, useCache });
        const [, S, V] = out.logits.shape;
        const last = tf.reshape(tf.slice(out.logits, [0, S - 1, 0], [B, 1, V]), [B, V]) as tf.Tensor2D;
        const chosen = opts.pickToken && !flaws.ignoresPickToken ? opts.pickToken(last) : tf.argMax(last, -1);
        return { chosen, cache: useCache ? out.pastKv : undefined };
      });
      const picked = Array.from(chosen.dataSync());
      chosen.dispose();
      const next = picked.map((t, b) => (finished[b] && eos !== null && !flaws.noEosFill ? eos : t));
      const grown = tf.tidy(() => tf.concat([ids, tf.tensor2d(next, [B, 1], "int32")], 1));
      const grownMask = mask && !flaws.maskNotExtended ? tf.tidy(() => tf.concat([mask!, tf.ones([B, 1])], 1) as tf.Tensor2D) : mask;
      tf.dispose([ids, ...(mask && grownMask !== mask ? [mask] : []), ...(past ?? []).flatMap((e) => [e.k, e.v])]);
      [ids, mask, past] = [grown, grownMask, cache ?? null];
      if (eos !== null) {
        next.forEach((t, b) => (finished[b] = finished[b] || t === eos));
        if (finished.every(Boolean) && !flaws.neverStopsEarly) break;
      }
    }
    tf.dispose([...(mask ? [mask] : []), ...(past ?? []).flatMap((e) => [e.k, e.v])]);
    return ids as tf.Tensor2D;
  };
}
