/**
 * Runs one implementation on one case and returns what it produced, as data: the encoded result
 * and what was observed around the call (leaked tensors, changed inputs, an exception and where
 * the learner's code threw it). Nothing here decides pass or fail: judge.ts does, in the parent.
 * Whatever happens (a getter that throws, a cyclic result, `tf.engine().reset()`), the case ends
 * with an output, never with an exception that stops the lesson.
 */
import * as tf from "../../lib/tf.js";
import { isNotImplemented } from "../../lib/errors.js";
import { describe, encodeValue, tensorsIn } from "./compare.js";
import { learnerLocation, tfjsOpName } from "./location.js";
import type { AnyFn, CaseDef, ExerciseDef, Inputs } from "./types.js";
import { hashEncoded, type Encoded } from "./encoded.js";

export type CaseOutput = (
  | { status: "ok"; value: Encoded; leaked: number; mutated: string[]; ms: number }
  | { status: "not-implemented"; message: string; ms: number }
  | { status: "error"; message: string; location?: string; details?: string[]; loadError?: boolean; ms: number }
) & {
  /** A hash of the inputs the case built, checked against frozen expectations (frozen.ts). */
  inputsHash?: string;
  /** The case's inputs in brief, one line each (describeInputs), for a failing case's report. */
  inputs?: string[];
};

export interface OutputOptions {
  /** The folder being graded, so an exception's location can point into it. */
  implDir?: string;
  /** Describe the inputs too (`inputs`): for the implementation under test, not the reference. */
  describe?: boolean;
}

/** Builds the case's inputs, calls `fn` on them, and returns the result as data. */
export function caseOutput(ex: ExerciseDef, c: CaseDef, fn: AnyFn, opts: OutputOptions = {}): CaseOutput {
  let inputs: Inputs;
  try {
    inputs = c.inputs();
  } catch (err) {
    return { status: "error", message: `grader bug: the case's inputs could not be built (${messageOf(err)})`, ms: 0 };
  }
  try {
    const inputsHash = hashInputs(inputs);
    const described = opts.describe ? { inputs: describeInputs(inputs) } : {};
    return { ...outputOn(c.call ?? ex.call, fn, inputs, opts), inputsHash, ...described };
  } finally {
    disposeAll(tensorsIn(inputs));
  }
}

/** The stored expectation of a fixture case, as data. */
export function storedOutput(c: CaseDef & { expected: () => unknown }): CaseOutput {
  const value = c.expected();
  try {
    return { status: "ok", value: encodeValue(value), leaked: 0, mutated: [], ms: 0 };
  } finally {
    disposeAll(tensorsIn(value));
  }
}

/** The case's probe variants, each run through `fn`; [] when the exercise declares no probe. */
export function probeOutputs(ex: ExerciseDef, c: CaseDef, fn: AnyFn, opts: OutputOptions = {}): Array<{ label: string; output: CaseOutput }> {
  if (!ex.probe) return [];
  const inputs = c.inputs();
  const owned = tensorsIn(inputs);
  try {
    return ex.probe.variants(inputs).map((v) => {
      const own = [...tensorsIn(v.inputs)].filter((t) => !owned.has(t));
      try {
        return { label: v.label, output: outputOn(c.call ?? ex.call, fn, v.inputs, opts) };
      } finally {
        disposeAll(own);
      }
    });
  } finally {
    disposeAll(owned);
  }
}

/** Calls `fn` through `call` on `inputs` (which the caller owns and disposes). */
function outputOn(call: (fn: AnyFn, inputs: Inputs) => unknown, fn: AnyFn, inputs: Inputs, opts: OutputOptions): CaseOutput {
  const snapshot = snapshotInputs(inputs);
  const owned = tensorsIn(inputs);
  const backend = tf.getBackend();
  const before = tf.memory().numTensors;
  let got: unknown;
  const t0 = performance.now();
  try {
    got = call(fn, inputs);
  } catch (err) {
    const ms = performance.now() - t0;
    if (isNotImplemented(err)) return { status: "not-implemented", message: (err as Error).message, ms };
    return { status: "error", ...describeError(err, opts.implDir), ms };
  }
  const ms = performance.now() - t0;
  try {
    if (tf.getBackend() !== backend) {
      const now = tf.getBackend();
      void tf.setBackend(backend);
      return { status: "error", message: `your code switched TensorFlow.js from the ${backend} backend to ${now}: grading runs on ${backend}, so leave the backend alone in an exercise`, ms };
    }
    const value = encodeValue(got);
    const fresh = [...tensorsIn(got)].filter((t) => !owned.has(t));
    const leaked = Math.max(0, tf.memory().numTensors - before - fresh.length);
    return { status: "ok", value, leaked, mutated: changedInputs(snapshot), ms };
  } catch (err) {
    return { status: "error", message: `the result could not be read: ${messageOf(err)}`, details: [`it was ${describe(got)}`], ms };
  } finally {
    disposeAll([...tensorsIn(got)].filter((t) => !owned.has(t)));
  }
}

/** Values shown in full up to this many elements (a tensor's, an array's); larger ones by shape only. */
const SHOWN_VALUES = 16;

/**
 * A case's inputs in brief, one line each: `logits: float32 [2, 3, 5]`, `labels: int32 [3] = [1, 2, -100]`,
 * `text: "hello"` (long strings by length and start), `opts: { temperature: 0.7, topK: 5 }`.
 */
export function describeInputs(inputs: Inputs): string[] {
  try {
    return Object.entries(inputs).map(([k, v]) => clipped(`${k}: ${briefly(v, 0)}`));
  } catch {
    return [];
  }
}

/** One input's line, at most 300 characters. */
function clipped(line: string): string {
  return line.length <= 300 ? line : `${line.slice(0, 299)}…`;
}

function briefly(v: unknown, depth: number): string {
  if (v instanceof tf.Tensor) {
    if (v.isDisposed) return "a disposed tensor";
    const head = `${v.dtype} [${v.shape.join(", ")}]`;
    return v.size <= SHOWN_VALUES ? `${head} = ${JSON.stringify(v.arraySync())}` : head;
  }
  if (typeof v === "string") return v.length <= 80 ? JSON.stringify(v) : `a string of ${v.length} characters starting ${JSON.stringify(v.slice(0, 40))}…`;
  if (typeof v === "number" || typeof v === "boolean" || v === null || v === undefined) return String(v);
  if (typeof v === "function") return "a function";
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x === "number")) return v.length <= SHOWN_VALUES ? `[${v.join(", ")}]` : `${v.length} numbers [${v.slice(0, 8).join(", ")}, …]`;
    if (depth >= 2 || v.length > 8) return `an array of ${v.length}`;
    return `[${v.map((x) => briefly(x, depth + 1)).join(", ")}]`;
  }
  if (typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>);
    if (depth >= 2 || entries.length > 12) return `{ ${entries.slice(0, 8).map(([k]) => k).join(", ")}${entries.length > 8 ? `, … (${entries.length} keys)` : ""} }`;
    return `{ ${entries.map(([k, x]) => `${k}: ${briefly(x, depth + 1)}`).join(", ")} }`;
  }
  return typeof v;
}

/** The hash of a case's inputs, taken before the call (a call must not change them anyway). */
export function hashInputs(inputs: Inputs): string {
  try {
    return hashEncoded(encodeValue(inputs));
  } catch {
    return "unhashable";
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message.split("\n")[0] : String(err);
}

/** Disposes tensors that are still alive; a tensor the engine no longer knows is skipped. */
export function disposeAll(tensors: Iterable<tf.Tensor>): void {
  for (const t of tensors) {
    try {
      if (!t.isDisposed) t.dispose();
    } catch {
      // tf.engine().reset() in learner code leaves tensors the engine cannot dispose.
    }
  }
}

interface InputSnapshot {
  path: string;
  tensor?: tf.Tensor;
  /** An array or object input, kept by reference (keys may contain dots, so no path lookup). */
  container?: unknown;
  values?: ArrayLike<number> | string;
}

function snapshotInputs(inputs: Inputs): InputSnapshot[] {
  const out: InputSnapshot[] = [];
  const visit = (v: unknown, path: string) => {
    if (v instanceof tf.Tensor) out.push({ path, tensor: v, values: Array.from(v.dataSync() as ArrayLike<number>) });
    else if (Array.isArray(v) || (v !== null && typeof v === "object")) out.push({ path, container: v, values: JSON.stringify(v, (_k, x) => (x instanceof tf.Tensor ? "<tensor>" : x)) });
    if (Array.isArray(v)) v.forEach((x, i) => visit(x, `${path}[${i}]`));
    else if (v !== null && typeof v === "object" && !(v instanceof tf.Tensor)) for (const [k, x] of Object.entries(v)) visit(x, path === "" ? k : `${path}.${k}`);
  };
  for (const [k, v] of Object.entries(inputs)) visit(v, k);
  return out;
}

function changedInputs(snapshot: InputSnapshot[]): string[] {
  const changed: string[] = [];
  for (const s of snapshot) {
    if (s.tensor) {
      if (s.tensor.isDisposed) changed.push(`${s.path} was disposed`);
      else {
        const now = s.tensor.dataSync() as ArrayLike<number>;
        const before = s.values as ArrayLike<number>;
        let same = now.length === before.length;
        for (let i = 0; same && i < now.length; i++) same = Object.is(now[i], before[i]);
        if (!same) changed.push(`${s.path} values changed`);
      }
    } else {
      if (JSON.stringify(s.container, (_k, x) => (x instanceof tf.Tensor ? "<tensor>" : x)) !== s.values) changed.push(`${s.path} changed`);
    }
  }
  return changed;
}

function describeError(err: unknown, implDir: string | undefined): { message: string; location?: string; details?: string[] } {
  if (!(err instanceof Error)) return { message: `threw ${describe(err)}` };
  const stack = String(err.stack ?? "");
  const location = learnerLocation(stack, implDir);
  const op = tfjsOpName(stack, implDir);
  const first = `${err.name === "Error" ? "" : `${err.name}: `}${String(err.message).split("\n")[0]}`;
  return { message: op ? `${op}: ${first}` : first, location, details: hintsForError(String(err.message)) };
}

function hintsForError(message: string): string[] {
  const hints: string[] = [];
  if (/gradient.*(GatherNd|Einsum|ScatterNd|MatrixBandPart|TopK|Greater|Less|Equal|NotEqual)|not yet implemented.*gradient/i.test(message)) {
    hints.push("TensorFlow.js has no gradient for this op: see the lesson's note on ops without gradients");
  }
  if (/Cannot compute gradient of y=f\(x\) with respect to x/i.test(message)) {
    hints.push("your result does not depend on the input this case differentiates: a constant (tf.scalar(0)), or a value that left TensorFlow.js (dataSync, arraySync, a JS number) and came back, has no gradient; build the result from the inputs with tf ops");
  }
  if (/Tensor is disposed/i.test(message)) hints.push("a tensor was used after it was disposed (did a tf.tidy free something you return?)");
  if (/could not be broadcast/i.test(message)) hints.push("the shapes of the two operands do not broadcast: line them up with expandDims/reshape (e.g. [B] → [B, 1])");
  return hints;
}
