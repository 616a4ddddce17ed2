/** Number formatting for reports. No TensorFlow.js here: the command line imports it at start-up. */

/** A number as a person reads it: up to 7 significant digits. */
export function fmt(x: unknown): string {
  const n = Number(x);
  if (!Number.isFinite(n)) return String(n);
  if (n === 0) return "0";
  return Math.abs(n) >= 1e-4 && Math.abs(n) < 1e6 ? String(Number(n.toPrecision(7))) : n.toExponential(4);
}
