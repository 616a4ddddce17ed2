/**
 * The harness of the sandboxed process that runs a learner's code (bundled by bundle.ts, started
 * by isolate.ts with Node's permission model: no file writes, no child processes, no workers):
 * the IPC transport of learner-side.ts, which computes the learner's outputs and nothing else.
 * What it sends back is data the parent checks against its own plan, so a module that writes to
 * the IPC channel itself can at most claim outputs, which is no more than computing them.
 */
import { initBackend } from "../../lib/backend.js";
import { messageQueue, serveLearner, type FileLoaders } from "./learner-side.js";
import type { LearnerMessage, LearnerRequest } from "./protocol.js";
import type { LessonGrader } from "./types.js";

export async function runLearnerChild(lessonGrader: LessonGrader, files: FileLoaders, implDir: string): Promise<void> {
  // Taken before any learner module loads; a module that replaces process.send later changes nothing we rely on.
  const sendRaw = process.send!.bind(process) as (m: LearnerMessage) => boolean;
  const send = (m: LearnerMessage) => {
    if (process.connected) sendRaw(m);
  };
  // The grader is gone: nothing is left to send to.
  process.on("disconnect", () => process.exit(0));
  // A shape error deep inside a TensorFlow.js kernel is 10+ frames below the learner's line.
  Error.stackTraceLimit = 100;
  const requests = messageQueue<LearnerRequest>();
  process.on("message", (m: LearnerRequest) => requests.push(m));
  await serveLearner(lessonGrader, { next: requests.next, send, startBackend: () => initBackend("cpu"), files, implDir });
}
