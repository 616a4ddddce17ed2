/**
 * Parametrised wrong versions of lesson 17's loadStateDict. Each mutant file picks one flaw, so
 * every mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../lib/tf.js";

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
  /** `weights` built from the checkpoint: every entry of it (unexpected ones too), in its order, then the missing parameters. */
  stateDictEntries?: boolean;
  /** `weights` holds the right names, but in the checkpoint's order, then the missing parameters. */
  stateDictOrder?: boolean;
  /** The strict check runs before the shape check: with both wrong, the error names only the missing and unexpected keys. */
  strictBeforeShapes?: boolean;
  /** The strict error lists the missing keys only. */
  strictNamesMissingOnly?: boolean;
  /** Loaded tensors cloned as they are: a checkpoint of another dtype keeps it. */
  noCast?: boolean;
  /** The input tensors themselves returned (cast only when not float32, never cloned): disposing the checkpoint or the old model frees the new weights. */
  aliasesInputs?: boolean;
}

export function loadStateDictVariant(f: LoadFlaws) {
  return (model: Record<string, tf.Tensor>, stateDictIn: Record<string, tf.Tensor>, strict: boolean) => {
    const stateDict = f.stripModulePrefix ? Object.fromEntries(Object.entries(stateDictIn).map(([n, t]) => [n.replace(/^module\./, ""), t])) : stateDictIn;
    const sameShape = (a: tf.Tensor, b: tf.Tensor) => a.shape.join(",") === b.shape.join(",");
    const missing = Object.keys(model).filter((n) => !(n in stateDict));
    const unexpected = Object.keys(stateDict).filter((n) => !(n in model));
    const checkStrict = () => {
      if (!strict || f.strictIgnored) return;
      if (f.strictNamesMissingOnly && (missing.length || unexpected.length)) throw new Error(`missing key(s): ${missing.join(", ")}`);
      if (missing.length || unexpected.length) throw new Error(`missing ${missing.join(", ")}; unexpected ${unexpected.join(", ")}`);
    };
    if (f.strictBeforeShapes) checkStrict();
    for (const [n, own] of Object.entries(model)) {
      const given = stateDict[n];
      if (given && !sameShape(given, own) && !f.mismatchSkipped) throw new Error(`size mismatch for ${n}`);
    }
    if (!f.strictBeforeShapes) checkStrict();
    const load = (t: tf.Tensor) => (f.aliasesInputs && t.dtype === "float32" ? t : f.noCast ? tf.clone(t) : tf.cast(t, "float32"));
    const keep = (t: tf.Tensor) => (f.aliasesInputs ? t : tf.clone(t));
    const weights: Record<string, tf.Tensor> = {};
    if (f.stateDictEntries || f.stateDictOrder) {
      for (const [n, t] of Object.entries(stateDict)) if (f.stateDictEntries || n in model) weights[n] = load(t);
      for (const n of missing) weights[n] = keep(model[n]);
    } else {
      for (const [n, own] of Object.entries(model)) {
        const given = stateDict[n];
        weights[n] = given && sameShape(given, own) ? load(given) : f.missingZeroed && !given ? tf.zeros(own.shape) : keep(own);
      }
    }
    return f.swappedLists ? { weights, missing: unexpected, unexpected: missing } : { weights, missing, unexpected };
  };
}
