/**
 * The grading contract (DESIGN.md): what a report says for wrong shapes, dtypes, NaN, a learner's
 * exception, a hang, a crash, leaked tensors, mutated inputs, a wrong return type, and a known mistake.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as tf from "../lib/tf.js";
import { initBackend } from "../lib/backend.js";
import { compareValues } from "../grader/engine/compare.js";
import { gradeIsolated } from "../grader/engine/isolate.js";
import { runLesson, type Implementation } from "../grader/engine/run.js";
import { learnerLocation } from "../grader/engine/location.js";
import { namedMistake } from "../grader/engine/summary.js";
import { mistakeWording } from "../grader/report.js";
import type { CaseResult } from "../grader/engine/types.js";
import { ROOT } from "../grader/engine/paths.js";
import { ELEMENTWISE, EXACT, type LessonGrader } from "../grader/engine/types.js";

await initBackend("cpu");

describe("compareValues", () => {
  it("reports a shape mismatch with both shapes and a hint", () => {
    const m = compareValues(tf.zeros([2, 4, 1]), tf.zeros([2, 4]), ELEMENTWISE);
    expect(m?.message).toBe("the result has shape [2,4,1], expected [2,4]");
    expect(m?.details.join(" ")).toMatch(/reshape or squeeze/);
  });

  it("reports a dtype mismatch", () => {
    expect(compareValues(tf.tensor1d([1, 2]), tf.tensor1d([1, 2], "int32"), EXACT)?.message).toBe("the result has dtype float32, expected int32");
  });

  it("names the worst element, both values and the tolerance", () => {
    const m = compareValues({ a: tf.tensor2d([[1, 2], [3, 4.5]]) }, { a: tf.tensor2d([[1, 2], [3, 4]]) }, ELEMENTWISE);
    expect(m?.message).toBe("`a` differs from the reference (1 of 4 elements)");
    expect(m?.details).toContain("worst at [1, 1]: got 4.5, expected 4");
    expect(m?.details.join("\n")).toMatch(/tolerance: \|got − expected\| ≤ 0.000001 \+ 0.00001·\|expected\|/);
  });

  it("reports NaN where the reference is finite, with its position", () => {
    const m = compareValues(tf.tensor1d([1, NaN, 3]), tf.tensor1d([1, 2, 3]), ELEMENTWISE);
    expect(m?.message).toMatch(/NaN\/Inf/);
    expect(m?.details[0]).toMatch(/\[1\] got NaN, expected 2/);
  });

  it("accepts values within tolerance and NaN where the reference is NaN", () => {
    expect(compareValues(tf.tensor1d([1 + 1e-7, NaN]), tf.tensor1d([1, NaN]), ELEMENTWISE)).toBeNull();
  });

  it("explains wrong return types", () => {
    expect(compareValues(undefined, tf.scalar(1), ELEMENTWISE)?.message).toMatch(/got undefined \(did you forget to return\?\)/);
    expect(compareValues(Promise.resolve(1), tf.scalar(1), ELEMENTWISE)?.message).toMatch(/a Promise/);
    expect(compareValues(tf.scalar(1), { advantages: tf.scalar(1) }, ELEMENTWISE)?.message).toMatch(/an object with keys \{ advantages \}/);
    expect(compareValues({}, { advantages: tf.scalar(1) }, ELEMENTWISE)?.message).toBe("the result is missing the key `advantages`");
  });
});

/** A one-exercise lesson: double(x) = 2x, with a known mistake "added instead of doubled". */
const doubling: LessonGrader = {
  lesson: "lesson-23",
  exercises: [
    {
      name: "double",
      file: "double.ts",
      tolerance: ELEMENTWISE,
      call: (fn, x) => fn(x.x),
      cases: [{ name: "three numbers", kind: "worked", inputs: () => ({ x: tf.tensor1d([1, 2, 3]) }) }],
    },
  ],
};
const reference: Implementation = { double: (x: tf.Tensor) => tf.tidy(() => tf.mul(x, 2)) };

function gradeDouble(fn: (x: tf.Tensor) => unknown, mutants = false) {
  const known = [{ info: { exercise: "double", mistake: "added 1 instead of doubling" }, fn: (x: tf.Tensor) => tf.tidy(() => tf.add(x, 1)) }];
  return runLesson(doubling, { double: fn }, reference, { mutants: mutants ? known : undefined })[0];
}

describe("runLesson", () => {
  it("passes a correct implementation", () => {
    expect(gradeDouble(reference.double!).status).toBe("passed");
  });

  it("fails a leak and says how to fix it", () => {
    const r = gradeDouble((x) => tf.add(tf.mul(x, 1), tf.mul(x, 1)));
    expect(r.status).toBe("failed");
    expect(r.message).toBe("double leaked 2 tensor(s)");
    expect(r.details?.join(" ")).toMatch(/tf\.tidy/);
  });

  it("fails an implementation that writes into its input", () => {
    const r = gradeDouble((x) => {
      (x.dataSync() as Float32Array)[0] = 100;
      return tf.tidy(() => tf.mul(x, 2));
    });
    expect(r.status).toBe("failed");
    expect(r.details?.join(" ")).toMatch(/x values changed/);
  });

  it("fails an implementation that disposes its input", () => {
    const r = gradeDouble((x) => {
      const y = tf.mul(x, 2);
      x.dispose();
      return y;
    });
    expect(r.details?.join(" ")).toMatch(/x was disposed/);
  });

  it("names a known mistake when the output equals a mutant's", () => {
    const r = gradeDouble((x) => tf.tidy(() => tf.add(x, 1)), true);
    expect(r.status).toBe("failed");
    expect(r.mistake).toBe("added 1 instead of doubling");
  });

  it("reports a stub as not implemented", async () => {
    const { NotImplementedError } = await import("../lib/errors.js");
    const r = gradeDouble(() => {
      throw new NotImplementedError("lesson-23", "double");
    });
    expect(r.status).toBe("not-implemented");
    expect(r.message).toMatch(/lessons\/23-ppo-training-flow\.md/);
  });
});

describe("naming a known mistake", () => {
  // A failure on values (the only kind a mistake is named from).
  const result = (status: CaseResult["status"], mistake?: string): CaseResult => ({ exercise: "f", case: "c", kind: "random", status, mistake, tolerance: ELEMENTWISE, ms: 0, ...(status === "failed" ? { wrongValues: true as const } : {}) });
  const repeat = (n: number, r: CaseResult) => Array.from({ length: n }, () => r);

  it("names the mistake that explains most failing cases and more than half of them, and says how many", () => {
    // Lesson 24's sample std: 7 of 8 failing cases equal the mutant, the G = 1 case is NaN and matches nothing.
    const named = namedMistake([...repeat(7, result("failed", "sample std")), result("failed")]);
    expect(named).toEqual({ mistake: "sample std", matched: 7, failed: 8, crashed: 0 });
    expect(mistakeWording(named!)).toBe("on 7 of 8 failing cases your output equals a known mistake: sample std");
    // Lesson 11's tiled kv heads: 4 of 5 match it, the T = 1 case matched another mutant first.
    expect(namedMistake([...repeat(4, result("failed", "tiled")), result("failed", "other")])?.mistake).toBe("tiled");
  });

  it("does not name a mistake matched on a minority of the failures, or on a tie (γ = λ agrees with a different bug)", () => {
    expect(namedMistake([result("failed", "γ for λ"), result("failed"), result("failed")])).toBeUndefined();
    expect(namedMistake([result("failed", "m"), result("failed")])).toBeUndefined();
    expect(namedMistake([result("failed", "m"), result("failed", "m"), result("failed", "n"), result("failed", "n")])).toBeUndefined();
    expect(namedMistake([result("passed")])).toBeUndefined();
  });

  it("does not count failures on leaked tensors or changed inputs alone", () => {
    const leaked: CaseResult = { exercise: "f", case: "c", kind: "random", status: "failed", tolerance: ELEMENTWISE, ms: 0 };
    expect(namedMistake([...repeat(2, result("failed", "m")), ...repeat(5, leaked)])).toEqual({ mistake: "m", matched: 2, failed: 2, crashed: 0 });
    expect(namedMistake(repeat(5, { ...leaked, mistake: "m" }))).toBeUndefined();
  });

  it("counts cases that threw apart instead of saying 'every failing case'", () => {
    const named = namedMistake([...repeat(2, result("failed", "no offset")), ...repeat(7, result("error"))]);
    expect(mistakeWording(named!)).toBe("on all 2 failing cases your output equals a known mistake: no offset (7 other cases threw or timed out before producing an output)");
  });
});

describe("learnerLocation", () => {
  const stack = (file: string) => `Error: boom\n    at f (${join(ROOT, "node_modules", "x.js")}:1:1)\n    at g (${join(ROOT, file)}:12:5)`;

  it("points into the course's implementation folders", () => {
    expect(learnerLocation(stack("exercises/lesson-23/ppo.ts"))).toBe("exercises/lesson-23/ppo.ts:12:5");
    expect(learnerLocation(stack("lib/tf.ts"))).toBeUndefined();
  });

  it("points into the folder being graded, wherever it is", () => {
    expect(learnerLocation(stack(".my-workspace/lesson-23/ppo.ts"))).toBeUndefined();
    expect(learnerLocation(stack(".my-workspace/lesson-23/ppo.ts"), join(ROOT, ".my-workspace", "lesson-23"))).toBe(".my-workspace/lesson-23/ppo.ts:12:5");
  });
});

describe("gradeIsolated (the command line's runner)", () => {
  it("stops a hanging function, reports a crash and an exception with the learner's file:line, and grades the rest", async () => {
    const run = await gradeIsolated(
      { lesson: "lesson-23", implDir: join(ROOT, "test", "bad-implementations", "lesson-23"), hints: false },
      { caseTimeoutMs: 5000 }, // generous: the passing functions must not time out on a loaded CI machine
    );
    expect(run.fatal).toBeUndefined();
    const by = (ex: string) => run.results.filter((r) => r.exercise === ex);

    const hang = by("responseLogpPositions");
    expect(hang[0].status).toBe("timeout");
    expect(hang[0].message).toMatch(/timed out after 5 s/);
    expect(hang.slice(1).every((r) => r.status === "timeout" && /not run/.test(r.message ?? ""))).toBe(true);

    const thrown = by("maskedGae")[0];
    expect(thrown.status).toBe("error");
    expect(thrown.message).toBe("TypeError: cannot read the length of undefined");
    expect(thrown.location).toMatch(/^test\/bad-implementations\/lesson-23\/ppo\.ts:\d+:\d+$/);

    const crash = by("ppoPolicyLoss")[0];
    expect(crash.status).toBe("error");
    expect(crash.message).toMatch(/exited \(code 3\)/);

    expect(by("referenceKlPenalty").every((r) => r.status === "passed")).toBe(true);

    const leaky = by("clippedValueLoss");
    expect(leaky.every((r) => r.status === "failed")).toBe(true);
    expect(leaky[0].details?.join(" ")).toMatch(/mask values changed/);
    expect(leaky[0].details?.join(" ")).toMatch(/leaked \d+ tensor/);
  });
});
