/**
 * Every optional input of every graded function is omitted by at least one case (issue 21): a wrong
 * default shows only where the input is left out. One test per graded lesson lists the inputs no case
 * omits ("lesson-11 attention: option `eps` is never omitted by any case"); add a case that leaves
 * each one out. `node --import tsx grader/engine/optional-inputs.ts lesson-NN` prints the same list.
 */
import { describe, expect, it } from "vitest";
import * as tf from "../lib/tf.js";
import { initBackend } from "../lib/backend.js";
import { formatAll, neverOmitted, optionalInputsOf } from "../grader/engine/optional-inputs.js";
import { gradedLessons, paths } from "../grader/engine/paths.js";
import { ELEMENTWISE, type CaseDef, type LessonGrader } from "../grader/engine/types.js";
import { join } from "node:path";

await initBackend("cpu");

describe("the check itself", () => {
  it("reads optional parameters and optional option keys from the reference's signature", () => {
    expect(optionalInputsOf(join(paths.solutions, "lesson-10", "loss.ts"), "causalLmLoss")).toEqual([{ exercise: "causalLmLoss", kind: "parameter", name: "ignoreIndex", index: 2 }]);
    const sampling = optionalInputsOf(join(paths.solutions, "lesson-3", "sampling.ts"), "filteredProbabilities");
    expect(sampling[0]).toEqual({ exercise: "filteredProbabilities", kind: "parameter", name: "opts", index: 1 });
    expect(sampling.filter((i) => i.kind === "option").map((i) => i.name)).toContain("temperature");
    expect(sampling.every((i) => i.kind === "parameter" || i.param === "opts")).toBe(true);
  });

  const lossCase = (name: string, ignoreIndex?: number): CaseDef => ({
    name,
    kind: "edge",
    inputs: () => ({ logits: tf.zeros([1, 3, 4]), labels: tf.tensor2d([[1, 2, -100]], [1, 3], "int32"), ...(ignoreIndex === undefined ? {} : { ignoreIndex }) }),
  });
  const lesson10 = (cases: CaseDef[]): LessonGrader => ({
    lesson: "lesson-10",
    exercises: [{ name: "causalLmLoss", file: "loss.ts", tolerance: ELEMENTWISE, call: (fn, x) => fn(x.logits, x.labels, x.ignoreIndex), cases }],
  });

  it("names a parameter every case passes, and is satisfied by one case that leaves it out", async () => {
    expect(formatAll(await neverOmitted("lesson-10", lesson10([lossCase("explicit", -100), lossCase("explicit 0", 0)])))).toEqual([
      "lesson-10 causalLmLoss: parameter `ignoreIndex` is never omitted by any case",
    ]);
    expect(await neverOmitted("lesson-10", lesson10([lossCase("explicit", -100), lossCase("default")]))).toEqual([]);
  });

  it("names each option key every case sets, and counts an omitted options object as omitting them all", async () => {
    const probs = (name: string, opts?: () => Record<string, unknown>): CaseDef => ({ name, kind: "edge", inputs: () => ({ logits: tf.tensor1d([1, 2, 3]), ...(opts ? { opts: opts() } : {}) }) });
    const lesson3 = (cases: CaseDef[]): LessonGrader => ({
      lesson: "lesson-3",
      exercises: [{ name: "filteredProbabilities", file: "sampling.ts", tolerance: ELEMENTWISE, call: (fn, x) => fn(x.logits, x.opts), cases }],
    });
    const all = () => ({ temperature: 0.5, topK: 2, topP: 0.9, repetitionPenalty: 1.1, previousTokens: tf.tensor1d([0], "int32") });
    const found = formatAll(await neverOmitted("lesson-3", lesson3([probs("every option", all), probs("no temperature", () => ({ ...all(), temperature: undefined }))])));
    expect(found).toContain("lesson-3 filteredProbabilities: parameter `opts` is never omitted by any case");
    expect(found).toContain("lesson-3 filteredProbabilities: option `topK` is never omitted by any case");
    expect(found.join("\n")).not.toMatch(/`temperature`/);
    expect(await neverOmitted("lesson-3", lesson3([probs("every option", all), probs("no options")]))).toEqual([]);
  });
});

describe("every optional input is omitted by some case", () => {
  it.each(gradedLessons())("%s", async (lesson) => {
    expect(formatAll(await neverOmitted(lesson))).toEqual([]);
  });
});
