/**
 * Messages between the grading page (the judge, page.ts) and its Web Worker (the learner's side,
 * worker.ts): the browser twin of the learner's IPC channel (grader/engine/protocol.ts). The page
 * sends the learner's compiled files once, then the Node protocol's requests; the worker answers
 * with the Node protocol's messages, checked by the same schema (grader/engine/messages.ts).
 */
import type { LearnerRequest } from "../../grader/engine/protocol.js";

/** One learner file as the page compiled it: CommonJS text, or why it could not be compiled. */
export type CompiledFile = { file: string; code: string } | { file: string; error: string };

/** The first message a fresh worker gets: which lesson, where its data is, and the learner's files. */
export interface WorkerStart {
  type: "start";
  lesson: string;
  /** URL of the lesson's cases module (built by build.ts). */
  casesUrl: string;
  /** URL of the lesson's data table (path → text: fixtures without expected values, tokenizer files). */
  dataUrl: string;
  /** The folder the learner's files are said to live in ("/exercises/lesson-3"): stack frames name it. */
  implDir: string;
  files: CompiledFile[];
  /** TensorFlow.js backend the learner's code runs on: "cpu" (exact, the Node grader's) unless asked otherwise. */
  backend: "cpu" | "webgl";
}

export type PageToWorker = WorkerStart | LearnerRequest;
