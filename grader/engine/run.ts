/**
 * Runs a lesson's cases against an implementation, in this process. The command line wraps it in
 * a child process (see isolate.ts) so a hanging learner function can be stopped; vitest and the
 * mutation checks call it directly.
 */
import * as tf from "../../lib/tf.js";
import { isNotImplemented } from "../../lib/errors.js";
import { compareValues, describe, tensorsIn } from "./compare.js";
import { ELEMENTWISE } from "./types.js";
import type { AnyFn, CaseDef, CaseResult, ExerciseDef, Inputs, LessonGrader, MutantInfo } from "./types.js";
import { learnerLocation } from "./location.js";
import { caseKey } from "./protocol.js";

/** Export name → function, as loaded from exercises/, solutions/, a stub folder or a mutant. */
export type Implementation = Record<string, AnyFn | undefined>;

export interface KnownMutant {
  info: MutantInfo;
  fn: AnyFn;
}

export interface RunOptions {
  /** Grade only these exercises. */
  only?: readonly string[];
  /** Cases already reported ("exercise::case"), skipped after a restart. */
  skip?: ReadonlySet<string>;
  /** File → message for implementation files that failed to load. */
  loadErrors?: ReadonlyMap<string, string>;
  /** Known mistakes: when a failing output equals one of these, the report names it. */
  mutants?: readonly KnownMutant[];
  /** The folder being graded, so an exception's location can point into it. */
  implDir?: string;
  /** Called before each case starts (the watchdog in isolate.ts listens). */
  onCaseStart?: (exercise: string, caseName: string) => void;
  onResult?: (result: CaseResult) => void;
}

/** Grades every selected case and returns the results in order. */
export function runLesson(grader: LessonGrader, impl: Implementation, reference: Implementation, opts: RunOptions = {}): CaseResult[] {
  const results: CaseResult[] = [];
  for (const ex of grader.exercises) {
    if (opts.only && !opts.only.includes(ex.name)) continue;
    for (const c of ex.cases) {
      if (opts.skip?.has(caseKey(ex.name, c.name))) continue;
      opts.onCaseStart?.(ex.name, c.name);
      const result = runCase(ex, c, impl, reference, opts);
      results.push(result);
      opts.onResult?.(result);
    }
  }
  return results;
}

function runCase(ex: ExerciseDef, c: CaseDef, impl: Implementation, reference: Implementation, opts: RunOptions): CaseResult {
  const tolerance = c.tolerance ?? ex.tolerance;
  const base = { exercise: ex.name, case: c.name, kind: c.kind, tolerance };
  const loadError = opts.loadErrors?.get(ex.file);
  if (loadError !== undefined) return { ...base, status: "error", message: loadError, ms: 0 };
  const fn = impl[ex.name];
  if (typeof fn !== "function") {
    return { ...base, status: "error", message: `${ex.file} does not export a function named ${ex.name}`, ms: 0 };
  }
  const call = c.call ?? ex.call;
  const inputs = c.inputs();
  let expected: unknown;
  try {
    expected = c.expected ? c.expected() : referenceOutput(ex, call, reference, inputs);
  } catch (err) {
    cleanUp(new Set(tensorsIn(inputs)), undefined);
    const why = err instanceof Error ? err.message : String(err);
    return { ...base, status: "error", message: `grader bug: the reference could not produce this case's expected value (${why})`, ms: 0 };
  }
  const snapshot = snapshotInputs(inputs);
  const owned = new Set<tf.Tensor>([...tensorsIn(inputs), ...tensorsIn(expected)]);
  const before = tf.memory().numTensors;
  let got: unknown;
  const t0 = performance.now();
  try {
    got = call(fn, inputs);
  } catch (err) {
    const ms = performance.now() - t0;
    cleanUp(owned, undefined);
    if (isNotImplemented(err)) return { ...base, status: "not-implemented", message: (err as Error).message, ms };
    return { ...base, status: "error", ...describeError(err, opts.implDir), ms };
  }
  const ms = performance.now() - t0;
  try {
    const fresh = [...tensorsIn(got)].filter((t) => !owned.has(t));
    const leaked = tf.memory().numTensors - before - fresh.length;
    const mutated = changedInputs(inputs, snapshot);
    const mismatch = compareValues(got, expected, tolerance);
    const notes: string[] = [];
    if (c.checks) notes.push(`this case checks ${c.checks}`);
    if (mutated.length > 0) notes.push(`it changed its inputs (${mutated.join(", ")}): never modify or dispose an input`);
    if (leaked > 0) notes.push(`it leaked ${leaked} tensor(s): wrap the body in tf.tidy(() => …) so intermediates are freed`);
    if (mismatch) {
      const mistake = matchMutant(ex, c, got, opts.mutants);
      return { ...base, status: "failed", message: mismatch.message, details: [...mismatch.details, ...notes], mistake, ms };
    }
    if (mutated.length > 0) return { ...base, status: "failed", message: `${ex.name} modified its inputs: ${mutated.join(", ")}`, details: notes, ms };
    if (leaked > 0) return { ...base, status: "failed", message: `${ex.name} leaked ${leaked} tensor(s)`, details: notes, ms };
    return { ...base, status: "passed", ms };
  } finally {
    cleanUp(owned, got);
  }
}

function referenceOutput(ex: ExerciseDef, call: CaseDef["call"] & {}, reference: Implementation, inputs: Inputs): unknown {
  const ref = reference[ex.name];
  if (typeof ref !== "function") throw new Error(`grader bug: the reference solution does not export ${ex.name}`);
  return call(ref, inputs);
}

/** Disposes the case's inputs, expectations and result (leaked intermediates have no handle). */
function cleanUp(owned: Set<tf.Tensor>, got: unknown): void {
  for (const t of tensorsIn(got)) if (!t.isDisposed) t.dispose();
  for (const t of owned) if (!t.isDisposed) t.dispose();
}

interface InputSnapshot {
  path: string;
  tensor?: tf.Tensor;
  shape?: number[];
  values?: ArrayLike<number> | string;
}

function snapshotInputs(inputs: Inputs): InputSnapshot[] {
  const out: InputSnapshot[] = [];
  const visit = (v: unknown, path: string) => {
    if (v instanceof tf.Tensor) out.push({ path, tensor: v, shape: [...v.shape], values: Array.from(v.dataSync() as ArrayLike<number>) });
    else if (Array.isArray(v) || (v !== null && typeof v === "object")) out.push({ path, values: JSON.stringify(v, (_k, x) => (x instanceof tf.Tensor ? "<tensor>" : x)) });
    if (Array.isArray(v)) v.forEach((x, i) => visit(x, `${path}[${i}]`));
    else if (v !== null && typeof v === "object" && !(v instanceof tf.Tensor)) for (const [k, x] of Object.entries(v)) visit(x, path === "" ? k : `${path}.${k}`);
  };
  for (const [k, v] of Object.entries(inputs)) visit(v, k);
  return out;
}

function changedInputs(inputs: Inputs, snapshot: InputSnapshot[]): string[] {
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
      const v = s.path.split(/\.|\[|\]/).filter((p) => p !== "").reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], inputs);
      if (JSON.stringify(v, (_k, x) => (x instanceof tf.Tensor ? "<tensor>" : x)) !== s.values) changed.push(`${s.path} changed`);
    }
  }
  return changed;
}

function matchMutant(ex: ExerciseDef, c: CaseDef, got: unknown, mutants: readonly KnownMutant[] | undefined): string | undefined {
  for (const m of mutants ?? []) {
    if (m.info.exercise !== ex.name) continue;
    const inputs = c.inputs();
    let out: unknown;
    try {
      out = (c.call ?? ex.call)(m.fn, inputs);
      if (compareValues(got, out, ELEMENTWISE) === null) return m.info.mistake;
    } catch {
      // A mutant that cannot run on this case simply does not match it.
    } finally {
      for (const t of [...tensorsIn(inputs), ...tensorsIn(out)]) if (!t.isDisposed) t.dispose();
    }
  }
  return undefined;
}

function describeError(err: unknown, implDir: string | undefined): { message: string; location?: string; details?: string[] } {
  if (!(err instanceof Error)) return { message: `threw ${describe(err)}` };
  const location = learnerLocation(err.stack ?? "", implDir);
  const first = `${err.name === "Error" ? "" : `${err.name}: `}${err.message.split("\n")[0]}`;
  return { message: first, location, details: hintsForError(err.message) };
}

function hintsForError(message: string): string[] {
  const hints: string[] = [];
  if (/gradient.*(GatherNd|Einsum|ScatterNd|MatrixBandPart|TopK|Greater|Less|Equal|NotEqual)|not yet implemented.*gradient/i.test(message)) {
    hints.push("TensorFlow.js has no gradient for this op: see the lesson's note on ops without gradients");
  }
  if (/Tensor is disposed/i.test(message)) hints.push("a tensor was used after it was disposed (did a tf.tidy free something you return?)");
  return hints;
}
