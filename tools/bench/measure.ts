/** Timing helpers for `npm run bench`: medians over repeated runs, measured side by side. */
export interface Timing {
  label: string;
  medianMs: number;
  runs: number;
}

/** Runs `fn` `warmup` times, then `runs` times, and returns the median wall time in ms. */
export function timeIt(label: string, fn: () => void, runs = 15, warmup = 2): Timing {
  for (let i = 0; i < warmup; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const mid = Math.floor(samples.length / 2);
  const medianMs = samples.length % 2 ? samples[mid] : (samples[mid - 1] + samples[mid]) / 2;
  return { label, medianMs, runs };
}

export function formatTimings(title: string, timings: Timing[]): string {
  const base = timings[0].medianMs;
  const width = Math.max(...timings.map((t) => t.label.length));
  const rows = timings.map((t) => `  ${t.label.padEnd(width)}  median ${t.medianMs.toFixed(3).padStart(10)} ms  (${t.runs} runs)  ×${(t.medianMs / base).toFixed(2)} vs first`);
  return [title, ...rows].join("\n");
}
