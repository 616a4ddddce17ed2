/**
 * Grading an error instead of a value: a case whose right answer is "this input is refused" calls
 * the function and turns what happened into a string the parent compares, so the verdict does not
 * depend on error classes (which the sandbox's bundle may duplicate) but on the message.
 */
import * as tf from "../../lib/tf.js";
import { isNotImplemented } from "../../lib/errors.js";
import { tensorsIn } from "./compare.js";
import type { AnyFn, Inputs } from "./types.js";

/**
 * A `call` that reports whether the function threw and, when `phrases` are given, which of them its
 * message contains (the first that matches). An unfinished stub still reports "not implemented".
 */
export function throwsCall(call: (fn: AnyFn, x: Inputs) => unknown, phrases: readonly string[] = []) {
  return (fn: AnyFn, x: Inputs): string => {
    try {
      tf.dispose([...tensorsIn(call(fn, x))]);
      return "returned without an error";
    } catch (err) {
      if (isNotImplemented(err)) throw err;
      if (phrases.length === 0) return "threw an error";
      const message = err instanceof Error ? err.message : String(err);
      const phrase = phrases.find((p) => message.includes(p));
      return phrase === undefined ? "threw an error with none of the expected messages" : `threw an error saying "${phrase}"`;
    }
  };
}
