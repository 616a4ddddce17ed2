/**
 * A training page's side of the resolver: for each lesson a run needs, the learner's passing files
 * compiled in the page by esbuild-wasm as grading compiles them (or why there are none), and the
 * reference the build published (its compiled files, fetched). The worker chooses between them
 * (lesson-modules.ts, train-resolve.ts).
 */
import { compileLearnerFiles, startCompiler, type LibTable } from "./compile.js";
import { implDirOf } from "./judge-run.js";
import type { BrowserManifest } from "./manifest.js";
import type { TrainLesson } from "./train-protocol.js";

let lib: Promise<LibTable> | undefined;

/**
 * The lessons of `functions` (name → lesson) as the worker takes them: `learner` holds the
 * learner's passing lessons (lesson → file → text), `references` the build's published ones
 * (lesson → path of its compiled files); `fetchJson` fetches a path of the built site.
 */
export async function runLessons(
  m: BrowserManifest,
  functions: Record<string, string>,
  references: Record<string, string>,
  learner: Record<string, Record<string, string>>,
  fetchJson: <T>(path: string) => Promise<T>,
  url: (path: string) => string,
): Promise<Record<string, TrainLesson>> {
  const out: Record<string, TrainLesson> = {};
  for (const lesson of new Set(Object.values(functions))) {
    const mine = learner[lesson];
    let compiled: TrainLesson["learner"] = "not passed in this browser yet";
    if (mine) {
      await startCompiler(url(m.wasm));
      lib ??= fetchJson<LibTable>(m.lib);
      compiled = await compileLearnerFiles(lesson, implDirOf(lesson), mine, await lib);
    }
    const reference = references[lesson] ? await fetchJson<TrainLesson["reference"]>(references[lesson]) : undefined;
    out[lesson] = { learner: compiled, reference };
  }
  return out;
}
