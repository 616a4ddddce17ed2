/**
 * TensorFlow.js backends in a browser worker: webgpu (@tensorflow/tfjs-backend-webgpu), webgl,
 * wasm (@tensorflow/tfjs-backend-wasm, its .wasm files shipped beside the worker under
 * WASM_FOLDER) and cpu. `startBackend` starts one and checks that it computes (a backend that
 * "starts" but gives a wrong matMul, read back either way, is refused); `probeBackends` says which
 * start here (for training: read back asynchronously at least) and why the others do not, and `chooseBest` takes the first of webgpu → webgl → wasm
 * → cpu that does (backend-choice.ts: names only, so a page can import it without TensorFlow.js),
 * with why each better one was skipped, for the page to show. Grading stays on cpu unless asked (exact, as the Node grader; a GPU backend's
 * float32 differs: docs/BROWSER.md); training takes the best.
 *
 * Align with: lib/backend.ts (tf.setBackend resolves false and stays where it was when a
 * backend fails: every start is checked, never a silent fallback).
 */
import * as tf from "@tensorflow/tfjs";
import "@tensorflow/tfjs-backend-webgpu";
import { setWasmPaths } from "@tensorflow/tfjs-backend-wasm";
import { registerWasmKernels } from "../../lib/wasm-kernels.js";
import { BROWSER_BACKENDS, type BackendAvailability, type BrowserBackend } from "./backend-choice.js";
import { WASM_FOLDER } from "./manifest.js";

export { BROWSER_BACKENDS, chooseBest, type BackendAvailability, type BackendChoice, type BrowserBackend } from "./backend-choice.js";



/**
 * Points tfjs-backend-wasm at the shipped .wasm files (WASM_FOLDER beside this worker's script)
 * and adds the kernels it lacks. Done as this module loads: TensorFlow.js may start the wasm
 * backend on its own (when asked for its backend after another failed to start), and the paths
 * must be set before it does.
 */
setWasmPaths(new URL(`${WASM_FOLDER}/`, self.location.href).href);
registerWasmKernels();

/** Why `name` cannot run in this worker before TensorFlow.js tries it, when that can be told (no WebGPU, no adapter, no OffscreenCanvas). */
async function missingPrerequisite(name: BrowserBackend): Promise<string | undefined> {
  if (name === "webgpu") {
    const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
    if (!gpu) return "this browser offers no WebGPU here (navigator.gpu is missing; Chromium on Linux needs --enable-unsafe-webgpu)";
    // Measured here: with another Chromium busy, requestAdapter() may never settle; 10 s is "none".
    const adapter = await Promise.race([gpu.requestAdapter().catch(() => null), new Promise<null>((r) => setTimeout(() => r(null), 10_000))]);
    if (!adapter) return "WebGPU found no adapter (no usable GPU, or the GPU is blocked)";
  }
  if (name === "webgl" && typeof OffscreenCanvas === "undefined") return "this worker has no OffscreenCanvas, which WebGL in a worker needs";
  return undefined;
}

/**
 * ones([48, 48]) · fill([48, 1], 2) = 96 in every row (exact on every backend; over 1,000 values,
 * so WebGPU computes it on the GPU rather than handing it to the CPU), read back with `data()`
 * or with `dataSync()`, which the course's code uses everywhere but in the training page's GPU
 * step (the grader's outputs, lib/model/train.ts's step) and which a backend may not support here.
 * Returns what was wrong, or undefined.
 */
async function readsBack(sync: boolean): Promise<string | undefined> {
  const t = tf.tidy(() => tf.matMul(tf.ones([48, 48]), tf.fill([48, 1], 2)));
  const got = Array.from(sync ? t.dataSync() : await t.data());
  t.dispose();
  const wrong = got.findIndex((v) => v !== 96);
  return wrong < 0 ? undefined : `a 48×48 matMul read back with ${sync ? "dataSync()" : "data()"} gave ${got[wrong]} instead of 96 (row ${wrong})`;
}

/** Why the running backend cannot be read synchronously (`dataSync()`), or undefined when it can. */
export const syncReadProblem = (): Promise<string | undefined> => readsBack(true);

/**
 * Starts `name` and checks it computes, read back with `data()` and, unless `syncRead` is false,
 * with `dataSync()` too (grading needs it; the training page's GPU step reads asynchronously:
 * lib/model/train-on-device.ts). Returns undefined when TensorFlow.js now runs on it, else why not
 * (TensorFlow.js is then back on the backend it was on, when there was one).
 */
export async function startBackend(name: BrowserBackend, opts: { syncRead?: boolean } = {}): Promise<string | undefined> {
  // The engine's field, not tf.getBackend(): that starts the best registered backend when none runs.
  const before = tf.engine().backendName;
  const back = async () => {
    if (before && tf.engine().backendName !== before) await tf.setBackend(before);
  };
  try {
    const missing = await missingPrerequisite(name);
    if (missing) return missing;
    const ok = await tf.setBackend(name);
    await tf.ready();
    if (!ok || tf.engine().backendName !== name) {
      await back();
      return "TensorFlow.js could not start it";
    }
    const wrong = (await readsBack(false)) ?? (opts.syncRead === false ? undefined : await readsBack(true));
    if (wrong) {
      await back();
      return `it started but ${wrong}`;
    }
    return undefined;
  } catch (err) {
    await back().catch(() => undefined);
    return `it failed to start: ${(err instanceof Error ? err.message : String(err)).split("\n")[0]}`;
  }
}


/**
 * Which backends start in this worker for training, each tried on its own, in BROWSER_BACKENDS's
 * order (best first), and for each that starts whether it reads back synchronously
 * (`syncRead`: why not). They are tried cpu → wasm → webgl → webgpu: measured here (Chromium on
 * SwiftShader), a WebGPU whose synchronous read-back fails can leave the worker's WebGL without a
 * context, so it goes last. Run it in a throwaway worker and start the real one on `chooseBest`'s pick.
 */
export async function probeBackends(): Promise<BackendAvailability[]> {
  const found = new Map<BrowserBackend, BackendAvailability>();
  for (const backend of [...BROWSER_BACKENDS].reverse()) {
    let why = await startBackend(backend, { syncRead: false });
    // Measured here: SwiftShader's WebGL now and then fails to link its first shaders in a fresh browser, and starts when asked again.
    if (why?.startsWith("it failed to start")) why = await startBackend(backend, { syncRead: false });
    const syncRead = why ? undefined : await syncReadProblem();
    found.set(backend, why ? { backend, why } : syncRead ? { backend, syncRead } : { backend });
  }
  return BROWSER_BACKENDS.map((b) => found.get(b)!);
}
