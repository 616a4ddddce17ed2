/** One figure of a lesson: its file name under lessons/figures/ and how to draw it. */
export interface Figure {
  /** lesson-NN-name.svg */
  file: string;
  /** The lesson number the figure belongs to. */
  lesson: number;
  /** Draws the figure: a standalone SVG document. */
  render: () => string | Promise<string>;
  /** The lesson functions it runs through lib/resolver.ts ("lesson-23/ppoPolicyLoss"), if any. */
  uses?: string[];
}

/** A small seeded generator (mulberry32): the same seed draws the same numbers everywhere. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal draw from a uniform generator (Box-Muller). */
export function normal(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

export function softmax(xs: readonly number[]): number[] {
  const m = Math.max(...xs);
  const e = xs.map((x) => Math.exp(x - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

import { resolveFunction } from "../../lib/resolver.js";

/**
 * A lesson function for a figure, through the course's one seam (lib/resolver.ts). Figures are
 * committed pictures of the reference behaviour, so they always ask for the reference: a
 * learner's half-finished function must not redraw the course's pages.
 */
export async function lessonFunction<F>(lesson: number, name: string): Promise<F> {
  const { fn } = await resolveFunction<F>(`lesson-${lesson}`, name, { useReference: true });
  return fn;
}
