/**
 * Messages between the grading page (the judge, page.ts) and its Web Worker (the learner's side,
 * worker.ts): the browser twin of the learner's IPC channel (grader/engine/protocol.ts). The page
 * sends the learner's compiled files once, then the Node protocol's requests; the worker answers
 * with the Node protocol's messages, checked by the same schema (grader/engine/messages.ts).
 */
import type { LearnerRequest } from "../../grader/engine/protocol.js";
import type { BrowserBackend } from "./backend-choice.js";

/** One learner file as the page compiled it: an ES module's text (CommonJS for the training worker), or why it could not be compiled. */
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
  /**
   * The learner's files of the other lessons the worker's resolver lends while this lesson is
   * graded (shims/resolver.ts), compiled by the page: lesson → its files.
   */
  lent: Record<string, CompiledFile[]>;
  /** TensorFlow.js backend the learner's code runs on: "cpu" (exact, the Node grader's) unless asked otherwise (backends.ts). */
  backend: BrowserBackend;
}

export type PageToWorker = WorkerStart | LearnerRequest;
