/** Parametrised wrong versions of lesson 34's globalTokenMean: each mutant file turns on one flaw. */
export interface TokenMeanFlaws {
  /** The step's loss is the plain mean of the micro-batch means (every micro-batch weighs the same). */
  meanOfMeans?: boolean;
  /** Each rank divides by its own token count (the weight is not all-reduced), then ranks are averaged. */
  perRankTotal?: boolean;
  /** The scale forgets the data-parallel size: local / total only. */
  noDpMultiplier?: boolean;
  /** An empty micro-batch computes 0/0. */
  emptyIsNan?: boolean;
}

export function tokenMeanVariant(flaws: TokenMeanFlaws) {
  return (sums: readonly (readonly number[])[], counts: readonly (readonly number[])[]) => {
    const R = counts.length;
    if (sums.length !== R || sums.some((row, r) => row.length !== counts[r].length)) throw new Error("shapes differ");
    const total = counts.reduce((s, row) => s + row.reduce((a, n) => a + n, 0), 0);
    if (!(total > 0)) throw new Error("Global total loss weight must be positive after all_reduce");
    const rankTotal = counts.map((row) => row.reduce((a, n) => a + n, 0));
    const nMbs = counts.reduce((s, row) => s + row.length, 0);
    const scales = counts.map((row, r) =>
      row.map((n) => {
        if (flaws.meanOfMeans) return R / nMbs;
        if (flaws.perRankTotal) return rankTotal[r] === 0 ? 0 : n / rankTotal[r];
        return (n / total) * (flaws.noDpMultiplier ? 1 : R);
      }),
    );
    let loss = 0;
    counts.forEach((row, r) =>
      row.forEach((n, m) => {
        if (n === 0 && !flaws.emptyIsNan) return;
        loss += ((sums[r][m] / n) * scales[r][m]) / R;
      }),
    );
    return { loss, scales };
  };
}
