/**
 * Parametrised wrong versions of lesson 15's functions: each mutant file picks one flaw, so every
 * mutant differs from the reference in exactly one plausible way.
 */
export interface SkipFlaws {
  /** `skip` samples dropped instead of `skip` batches. */
  samplesNotBatches?: boolean;
  /** The short last batch kept even when the skipped batches ran out first. */
  tailAlways?: boolean;
  /** The short last batch always dropped. */
  dropTail?: boolean;
}

export function skipVariant(f: SkipFlaws) {
  return (order: readonly number[], batchSize: number, skip: number): number[][] => {
    const rest = f.samplesNotBatches ? order.slice(skip) : [...order];
    const skipBatches = f.samplesNotBatches ? 0 : skip;
    const out: number[][] = [];
    let skipped = 0;
    for (let i = 0; i + batchSize <= rest.length; i += batchSize) {
      if (skipped < skipBatches) skipped++;
      else out.push(rest.slice(i, i + batchSize));
    }
    const tail = rest.slice(rest.length - (rest.length % batchSize));
    if (tail.length > 0 && !f.dropTail && (f.tailAlways || skipped >= skipBatches)) out.push(tail);
    return out;
  };
}

export interface RescaleFlaws {
  /** step·current/saved: the ratio upside down. */
  inverted?: boolean;
  /** step·⌊saved/current⌋: the ratio floored before multiplying. */
  ratioFloored?: boolean;
  /** Rounded to the nearest step instead of down. */
  rounded?: boolean;
  /** The saved step kept as is. */
  none?: boolean;
  /** step·(saved/current) with the ratio taken in floating point first: 45·(7/5) = 62.999… floors to 62. */
  floatRatio?: boolean;
}

export function rescaleVariant(f: RescaleFlaws) {
  return (step: number, saved: number, current: number): number => {
    if (f.none) return step;
    if (f.inverted) return Math.floor((step * current) / saved);
    if (f.ratioFloored) return step * Math.floor(saved / current);
    if (f.floatRatio) return Math.floor(step * (saved / current));
    return f.rounded ? Math.round((step * saved) / current) : Math.floor((step * saved) / current);
  };
}
