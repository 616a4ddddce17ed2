/**
 * The TensorFlow.js backends a browser page may ask for, best first, and the pick among those
 * that start (backends.ts probes them in a worker). Names and a pure choice only: the pages import
 * this without TensorFlow.js.
 */
/** The backends a page may ask for, best first: the order chooseBest prefers them in. */
export const BROWSER_BACKENDS = ["webgpu", "webgl", "wasm", "cpu"] as const;
export type BrowserBackend = (typeof BROWSER_BACKENDS)[number];

/** The backend a worker runs on, and why each better one was skipped (best first). */
export interface BackendChoice {
  backend: BrowserBackend;
  skipped: Array<{ backend: BrowserBackend; why: string }>;
}

/** One backend and, when it does not start here, why; when it starts but cannot read back synchronously (`dataSync()`), why not. */
export interface BackendAvailability {
  backend: BrowserBackend;
  why?: string;
  syncRead?: string;
}

/** The first available backend of `found` (best first), and why each better one was skipped. */
export function chooseBest(found: readonly BackendAvailability[]): BackendChoice {
  const first = found.findIndex((f) => f.why === undefined);
  if (first < 0) throw new Error(`no TensorFlow.js backend starts in this browser: ${found.map((f) => `${f.backend}: ${f.why}`).join("; ")}`);
  return { backend: found[first].backend, skipped: found.slice(0, first).map((f) => ({ backend: f.backend, why: f.why! })) };
}
