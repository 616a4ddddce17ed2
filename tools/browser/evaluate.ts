/**
 * Runs one compiled learner file in a worker and returns its exports: an ES module from compile.ts
 * (`importCompiled`, imported from a blob URL, so a top-level await, an exercise that takes another
 * lesson's function through lib/resolver.ts, works as in Node), or CommonJS text
 * (`evaluateModule`, the training worker's). The packages a worker shares with learner code (its
 * own TensorFlow.js, so tensors the learner makes are the cases' tensors) are, for an ES module,
 * read from one global slot that compile.ts's stand-in modules name (`sharedModuleSource`), and for
 * CommonJS handed to its `require`. The file's inline source map is registered so that stack
 * frames name the learner's own lines (source-map.ts).
 */
import { registerCompiled } from "./source-map.js";

/** The global slot holding the modules shared with learner code (a registered symbol: no name a learner's global could take by chance). */
const SHARED_MODULES = "course.shared-modules";

/** The course module the worker shares with learner code in its place (its stand-in, shims/resolver.ts): one resolver for the cases and the learner's files. */
export const SHARED_RESOLVER = "/lib/resolver.ts";

/** The source of the stand-in module compile.ts bundles for the shared package `name` (CommonJS, so named imports become property reads). */
export function sharedModuleSource(name: string): string {
  return `module.exports = globalThis[Symbol.for(${JSON.stringify(SHARED_MODULES)})][${JSON.stringify(name)}];`;
}

/** Makes `modules` (package name → module) what learner code's imports of those packages get. */
export function shareWithLearnerCode(modules: Record<string, unknown>): void {
  (globalThis as Record<symbol, unknown>)[Symbol.for(SHARED_MODULES)] = modules;
}

/** The exports of `code`, a learner file's compiled text, imported as an ES module. */
export async function importCompiled(code: string): Promise<Record<string, unknown>> {
  const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
  registerCompiled(url, code);
  try {
    return { ...((await import(/* @vite-ignore */ url)) as Record<string, unknown>) };
  } finally {
    URL.revokeObjectURL(url);
  }
}

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
