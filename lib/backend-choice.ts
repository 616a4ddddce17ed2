/**
 * Which TensorFlow.js backend a run asked for (COURSE_BACKEND), checked without loading
 * TensorFlow.js: the command line validates it before any grading process starts.
 */
export type BackendName = "cpu" | "wasm" | "tensorflow";
export const BACKENDS: readonly BackendName[] = ["cpu", "wasm", "tensorflow"];

export class BackendError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackendError";
  }
}

/** Reads and validates COURSE_BACKEND; `fallback` when it is unset or empty. */
export function requestedBackend(fallback: BackendName = "cpu"): BackendName {
  const raw = (process.env.COURSE_BACKEND ?? "").trim().toLowerCase();
  if (raw === "") return fallback;
  if ((BACKENDS as readonly string[]).includes(raw)) return raw as BackendName;
  throw new BackendError(`COURSE_BACKEND=${process.env.COURSE_BACKEND} is not a backend: use one of ${BACKENDS.join(", ")}.`);
}
