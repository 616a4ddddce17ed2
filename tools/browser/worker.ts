/**
 * The learner's side of grading in a browser: a Web Worker, the postMessage transport of
 * grader/engine/learner-side.ts (as learner-child.ts is its IPC transport in Node). It loads the
 * lesson's cases (the same grader/lesson-N/cases.ts, bundled for the browser), lends the
 * learner's compiled files through its resolver (shims/resolver.ts: the Node sandbox's, with a
 * student edition's choice of the learner's own functions), imports the learner's files, runs each planned case's inputs through the learner's functions on
 * TensorFlow.js's cpu backend (unless asked for another) and posts the outputs back as data (the
 * Node protocol's messages). No reference, no comparison, no verdict: the page judges. A function
 * that never returns is stopped by the page terminating this worker.
 */
import * as tf from "@tensorflow/tfjs";
import { messageQueue, serveLearner, type FileLoaders } from "../../grader/engine/learner-side.js";
import type { LearnerMessage, LearnerRequest } from "../../grader/engine/protocol.js";
import type { LessonGrader } from "../../grader/engine/types.js";
import { installFiles } from "./shims/fs.js";
import { lendingResolver } from "../../grader/engine/sandbox-resolver.js";
import type { CompiledFile, PageToWorker, WorkerStart } from "./protocol.js";
import { importCompiled, SHARED_RESOLVER, shareWithLearnerCode } from "./evaluate.js";
import * as resolver from "./shims/resolver.js";
import { installSourceMappedStacks } from "./source-map.js";
import { startBackend } from "./backends.js";

const scope = self as unknown as { postMessage(m: unknown): void; onmessage: ((e: MessageEvent<PageToWorker>) => void) | null };
// Taken before any learner module loads; a module that replaces postMessage later changes nothing the page relies on.
const post = scope.postMessage.bind(scope) as (m: LearnerMessage | { type: "fatal"; message: string }) => void;

const requests = messageQueue<PageToWorker>();
scope.onmessage = (e) => requests.push(e.data);

/** A compiled file's exports, imported once (as Node imports a module once); a file that did not compile rejects with why. */
function loaderOf(f: CompiledFile): () => Promise<Record<string, unknown>> {
  let loaded: Promise<Record<string, unknown>> | undefined;
  return () => (loaded ??= "code" in f ? importCompiled(f.code) : Promise.reject(new Error(f.error)));
}

async function main(): Promise<void> {
  const start = (await requests.next()) as WorkerStart;
  if (start.type !== "start") return;
  // A shape error deep inside a TensorFlow.js kernel is 10+ frames below the learner's line.
  Error.stackTraceLimit = 100;
  installSourceMappedStacks();
  tf.env().set("PROD", true);
  installFiles((await (await fetch(start.dataUrl)).json()) as Record<string, string>);
  // Before the cases load: course code they import may take lesson functions at load time (lesson 12's model pieces).
  shareWithLearnerCode({ "@tensorflow/tfjs": tf, [SHARED_RESOLVER]: resolver });
  const files: FileLoaders = Object.fromEntries(start.files.flatMap((f) => ("code" in f ? [[f.file, loaderOf(f)]] : [])));
  // The other lessons' files, and this lesson's own (the same modules the cases run): lesson 11's file takes lesson 12's applyRope while lesson 12's model cases run it.
  const lent = { ...Object.fromEntries(Object.entries(start.lent).map(([lesson, compiled]) => [lesson, compiled.map(loaderOf)])), [start.lesson]: Object.values(files) };
  resolver.lend(lendingResolver(start.lesson, Object.fromEntries(Object.entries(lent).map(([lesson, loaders]) => [lesson, { source: "exercises" as const, files: loaders }]))));
  const lessonGrader = ((await import(/* @vite-ignore */ start.casesUrl)) as { default: LessonGrader }).default;
  const failedFiles = new Map(start.files.flatMap((f) => ("error" in f ? [[f.file, f.error] as const] : [])));
  await serveLearner(lessonGrader, {
    next: () => requests.next() as Promise<LearnerRequest>,
    send: post,
    startBackend: async () => {
      // Started and checked (backends.ts): a backend that does not start is fatal, never a silent fallback.
      const notStarted = await startBackend(start.backend);
      if (notStarted) {
        post({ type: "fatal", message: `TensorFlow.js's ${start.backend} backend did not start in this browser: ${notStarted}` });
        return undefined;
      }
      await tf.ready();
      return tf.getBackend();
    },
    files,
    failedFiles,
    implDir: start.implDir,
  });
}

main().catch((err: unknown) => post({ type: "fatal", message: `the grading worker failed: ${err instanceof Error ? err.message : String(err)}` }));
