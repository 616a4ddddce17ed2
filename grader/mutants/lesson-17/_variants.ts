/**
 * Parametrised wrong versions of lesson 17's loadStateDict. Each mutant file picks one flaw, so
 * every mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../../lib/tf.js";

export interface LoadFlaws {
  /** A name whose shape differs is skipped (the model keeps its value) instead of an error. */
  mismatchSkipped?: boolean;
  /** strict never raises. */
  strictIgnored?: boolean;
  /** A missing parameter becomes zeros instead of keeping its value. */
  missingZeroed?: boolean;
  /** The lists swapped: missing holds the checkpoint's extra names, unexpected the model's. */
  swappedLists?: boolean;
  /** "module." stripped from checkpoint names (a helpful loader; load_state_dict is not one). */
  stripModulePrefix?: boolean;
}

export function loadStateDictVariant(f: LoadFlaws) {
  return (model: Record<string, tf.Tensor>, stateDictIn: Record<string, tf.Tensor>, strict: boolean) => {
    const stateDict = f.stripModulePrefix ? Object.fromEntries(Object.entries(stateDictIn).map(([n, t]) => [n.replace(/^module\./, ""), t])) : stateDictIn;
    const sameShape = (a: tf.Tensor, b: tf.Tensor) => a.shape.join(",") === b.shape.join(",");
    const missing = Object.keys(model).filter((n) => !(n in stateDict));
    const unexpected = Object.keys(stateDict).filter((n) => !(n in model));
    for (const [n, own] of Object.entries(model)) {
      const given = stateDict[n];
      if (given && !sameShape(given, own) && !f.mismatchSkipped) throw new Error(`size mismatch for ${n}`);
    }
    if (strict && !f.strictIgnored && (missing.length || unexpected.length)) throw new Error(`missing ${missing.join(", ")}; unexpected ${unexpected.join(", ")}`);
    const weights: Record<string, tf.Tensor> = {};
    for (const [n, own] of Object.entries(model)) {
      const given = stateDict[n];
      weights[n] = given && sameShape(given, own) ? tf.clone(given) : f.missingZeroed && !given ? tf.zeros(own.shape) : tf.clone(own);
    }
    return f.swappedLists ? { weights, missing: unexpected, unexpected: missing } : { weights, missing, unexpected };
  };
}
