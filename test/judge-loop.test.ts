/**
 * The shared judge (grader/engine/judge-loop.ts) and learner side (grader/engine/learner-side.ts)
 * need no particular transport: here they talk over an in-memory channel (every message a
 * structured clone, as postMessage and Node's advanced IPC serialisation make), with lesson 3's
 * expectations frozen in this process. The verdicts are the ones the engine's own runner gives on
 * the same files (run.ts's runLesson, the self-check's path), known mistakes included; a learner
 * that answers a planned case twice gets that case an error, whatever the transport.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { initBackend } from "../lib/backend.js";
import { freezeLesson } from "../grader/engine/freeze.js";
import type { FrozenLesson } from "../grader/engine/frozen.js";
import { frozenReference, judgeLearner, type StartLearner } from "../grader/engine/judge-loop.js";
import { messageQueue, serveLearner, type FileLoaders } from "../grader/engine/learner-side.js";
import { loadGrader, loadImplementation, loadMutants } from "../grader/engine/load.js";
import type { LearnerMessage, LearnerRequest } from "../grader/engine/protocol.js";
import { runLesson } from "../grader/engine/run.js";
import { ROOT, paths } from "../grader/engine/paths.js";
import type { CaseResult, LessonGrader } from "../grader/engine/types.js";

const LESSON = "lesson-3";
let grader: LessonGrader;
let frozen: FrozenLesson;

beforeAll(async () => {
  await initBackend("cpu");
  grader = await loadGrader(LESSON);
  frozen = await freezeLesson(LESSON, "cpu");
}, 120_000);

/** A learner served in this process; `tamper` may rewrite or repeat what it sends. */
function inMemoryLearner(files: FileLoaders, implDir: string, tamper: (m: LearnerMessage) => LearnerMessage[] = (m) => [m]): StartLearner {
  return (events) => {
    let alive = true;
    const requests = messageQueue<LearnerRequest>();
    const send = (m: LearnerMessage) => {
      for (const out of tamper(m)) setTimeout(() => alive && events.message(structuredClone(out)));
    };
    void serveLearner(grader, { next: requests.next, send, startBackend: async () => "cpu", files, implDir });
    return {
      send: (request) => alive && requests.push(structuredClone(request)),
      kill: () => {
        if (alive) setTimeout(() => events.exit("stopped"));
        alive = false;
      },
      connected: () => alive,
    };
  };
}

/** The lesson folder's files as loaders (what bundle.ts's entry hands learner-child.ts). */
function loaders(dir: string): FileLoaders {
  return Object.fromEntries(grader.exercises.map((e) => [e.file, () => import(pathToFileURL(join(dir, e.file)).href) as Promise<Record<string, unknown>>]));
}

async function judged(dir: string, tamper?: (m: LearnerMessage) => LearnerMessage[]): Promise<CaseResult[]> {
  const run = await judgeLearner(
    { reference: frozenReference(frozen), start: inMemoryLearner(loaders(dir), dir, tamper), hints: true, lesson: LESSON, missingFile: () => undefined, loadErrors: new Map() },
    { caseTimeoutMs: 10_000 },
  );
  expect(run.fatal).toBeUndefined();
  return run.results;
}

const verdicts = (results: readonly CaseResult[]) => results.map((r) => `${r.exercise} › ${r.case}: ${r.status}${r.mistake ? ` (${r.mistake})` : ""}`);

describe("the judge and the learner side over an in-memory channel", () => {
  it("the reference passes and the stubs are not implemented, as the engine's own runner says", async () => {
    const reference = await loadImplementation(grader, join(paths.solutions, LESSON));
    const references = await judged(join(paths.solutions, LESSON));
    expect(verdicts(references)).toEqual(verdicts(runLesson(grader, reference.impl, reference.impl)));
    expect(references.every((r) => r.status === "passed")).toBe(true);
    const stubs = await judged(join(ROOT, "exercises", LESSON));
    expect(stubs.every((r) => r.status === "not-implemented")).toBe(true);
  }, 120_000);

  it("a known mistake fails the same cases with the same named mistake", async () => {
    const reference = await loadImplementation(grader, join(paths.solutions, LESSON));
    const [mutant, ...rest] = await loadMutants(LESSON);
    const impl = { ...reference.impl, [mutant.info.exercise]: mutant.fn };
    const files: FileLoaders = Object.fromEntries(grader.exercises.map((e) => [e.file, async () => impl]));
    const run = await judgeLearner(
      { reference: frozenReference(frozen), start: inMemoryLearner(files, join(paths.solutions, LESSON)), hints: true, lesson: LESSON, missingFile: () => undefined, loadErrors: new Map() },
      { caseTimeoutMs: 10_000 },
    );
    const direct = runLesson(grader, impl, reference.impl, { mutants: [mutant, ...rest] });
    expect(verdicts(run.results)).toEqual(verdicts(direct));
    expect(run.results.some((r) => r.mistake === mutant.info.mistake)).toBe(true);
  }, 120_000);

  it("a second output for a planned case makes that case an error, not a pass", async () => {
    const results = await judged(join(paths.solutions, LESSON), (m) => (m.type === "output" ? [m, m] : [m]));
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => r.status === "error" && /a second result arrived for this case/.test(r.message ?? ""))).toBe(true);
  }, 120_000);
});
