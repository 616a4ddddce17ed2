/**
 * Evaluates one compiled learner file (CommonJS text from compile.ts) in the worker and returns its
 * exports. `require` hands out only the modules the page shares with the learner's code (the
 * worker's own TensorFlow.js, so tensors the learner makes are the cases' tensors); the file's
 * stack frames are named `file://<path>` so that grader/engine/location.ts finds the learner's line.
 */
import { registerCompiled } from "./source-map.js";

/** The exports of `code`, evaluated as a CommonJS module named `path`, with `shared` as what it may require. */
export function evaluateModule(code: string, path: string, shared: Record<string, unknown>): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  const require = (name: string): unknown => {
    if (Object.prototype.hasOwnProperty.call(shared, name)) return shared[name];
    throw new Error(`${name} is not available to an exercise graded in the browser`);
  };
  // Indirect eval: global scope, and line 1 of `code` is line 1 of the frame the stack names.
  const url = `file://${encodeURI(path)}`;
  registerCompiled(url, code);
  const wrapped = `(function (require, module, exports) {${code}\n})\n//# sourceURL=${url}`;
  const factory = (0, eval)(wrapped) as (r: typeof require, m: typeof module, e: Record<string, unknown>) => void;
  factory(require, module, module.exports);
  return module.exports;
}
