/**
 * Chooses the TensorFlow.js backend from `COURSE_BACKEND` (cpu | wasm | tensorflow).
 *
 * - cpu: pure JavaScript, exact, always available; the grader's default.
 * - wasm: `@tensorflow/tfjs-backend-wasm` with SIMD; much faster matMul, used by labs and training.
 * - tensorflow: `@tensorflow/tfjs-node-gpu` (CUDA) or `@tensorflow/tfjs-node`, when the learner has
 *   installed one of them (they are optional peers; see README "Backends").
 *
 * `tf.setBackend` resolves to false and quietly stays on cpu when a backend fails to start, so
 * every path here checks what it got and throws a `BackendError` that says what to do instead.
 */
import { createRequire } from "node:module";
import * as tf from "./tf.js";
import { registerWasmKernels } from "./wasm-kernels.js";

import { BackendError, requestedBackend, type BackendName } from "./backend-choice.js";

export { BACKENDS, BackendError, requestedBackend, type BackendName } from "./backend-choice.js";

/**
 * Starts the requested backend (COURSE_BACKEND, else `fallback`) and returns its name.
 * Throws BackendError when it cannot start; never falls back silently.
 */
export async function initBackend(fallback: BackendName = "cpu"): Promise<BackendName> {
  const name = requestedBackend(fallback);
  if (name === "wasm") {
    await import("@tensorflow/tfjs-backend-wasm");
    // Kernels the wasm backend lacks (the embedding gradient needs UnsortedSegmentSum).
    registerWasmKernels();
  }
  if (name === "tensorflow") await loadTfjsNode();
  const ok = await tf.setBackend(name);
  await tf.ready();
  if (!ok || tf.getBackend() !== name) {
    throw new BackendError(
      `the ${name} backend failed to start (TensorFlow.js is on "${tf.getBackend()}"). ` +
        `Run with COURSE_BACKEND=cpu to use the always-available backend.`,
    );
  }
  return name;
}

async function loadTfjsNode(): Promise<void> {
  const require = createRequire(import.meta.url);
  const tried: string[] = [];
  for (const pkg of ["@tensorflow/tfjs-node-gpu", "@tensorflow/tfjs-node"]) {
    try {
      require.resolve(pkg);
    } catch {
      tried.push(`${pkg} (not installed)`);
      continue;
    }
    try {
      await import(pkg);
      return;
    } catch (err) {
      tried.push(`${pkg} (${(err as Error).message.split("\n")[0]})`);
    }
  }
  throw new BackendError(
    `COURSE_BACKEND=tensorflow needs @tensorflow/tfjs-node-gpu (CUDA) or @tensorflow/tfjs-node: ` +
      `tried ${tried.join("; ")}. Install one with \`npm install --no-save @tensorflow/tfjs-node-gpu@4.22.0\` ` +
      `(see README "Backends"), or use COURSE_BACKEND=cpu.`,
  );
}
