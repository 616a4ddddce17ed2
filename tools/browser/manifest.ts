/**
 * The built folder's table of contents (manifest.json), written by build.ts and read by the page:
 * where each supported lesson's cases module, data table, frozen expectations and stubs are, and
 * the shared files (the worker, the lib/ sources, esbuild-wasm's wasm). Paths are relative to the
 * folder, so the folder works from any static host and any sub-path.
 */
export interface BrowserLessonEntry {
  /** The lesson's cases bundled for the browser (an ES module; its default export is the LessonGrader). */
  cases: string;
  /** Path → text of the data files its cases read (fixtures without their expected values, tokenizer files). */
  data: string;
  /** Its frozen expectations, written by grader/engine/freeze.ts as the release writes them. */
  expected: string;
  /** Its exercise stubs: file name → text (the page's starting point). */
  stubs: string;
  /**
   * The lessons whose functions the worker's resolver lends while it is graded (lessons.ts's
   * lentLessons: lesson 5 takes lesson 4's renderChat), each → its stubs, lent when the learner
   * gives none of that lesson's files (as a fresh clone's exercises/ holds them).
   */
  borrows?: Record<string, string>;
}

export interface BrowserManifest {
  version: 1;
  worker: string;
  lib: string;
  wasm: string;
  lessons: Record<string, BrowserLessonEntry>;
  /** Graded lessons not supported in the browser yet, each with why (lessons.ts). */
  unsupported: Record<string, string>;
}

/** The folder of the build that holds tfjs-backend-wasm's .wasm files, beside the workers' scripts (backends.ts, train-build.ts). */
export const WASM_FOLDER = "tfjs-wasm";
