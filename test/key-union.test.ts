/**
 * Object results are compared on the union of keys (issue 21): a key the learner adds fails with its
 * name, a key the learner leaves out fails with its name, nested objects likewise, and key order
 * matters only where an exercise or case declares `keyOrder`, a mark that survives the trip from the
 * reference process and the frozen expectations.
 */
import { deserialize, serialize } from "node:v8";
import { describe, expect, it } from "vitest";
import * as tf from "../lib/tf.js";
import { initBackend } from "../lib/backend.js";
import { compareValues, encodeValue } from "../grader/engine/compare.js";
import { compareEncoded, type Encoded } from "../grader/engine/encoded.js";
import { fromJson, toJson } from "../grader/engine/frozen.js";
import { expectedOutput, runLesson, type Implementation } from "../grader/engine/run.js";
import { EXACT, type LessonGrader } from "../grader/engine/types.js";

await initBackend("cpu");

describe("object results: the union of keys", () => {
  it("an extra key fails and names the key", () => {
    const ref = { total: 10, active: 10 };
    const learner = { total: 10, experts: 0, active: 10 };
    expect(compareValues(learner, ref, EXACT)?.message).toBe("the result has a key `experts` the reference does not return");
  });

  it("a missing key fails and names the key", () => {
    expect(compareValues({ total: 10 }, { total: 10, active: 10 }, EXACT)?.message).toBe("the result is missing the key `active`");
  });

  it("an extra tensor entry of a state dict fails with its name", () => {
    const ref = { "layers.0.weight": tf.ones([2]) };
    const learner = { "layers.0.weight": tf.ones([2]), "module.layers.0.weight": tf.ones([2]) };
    expect(compareValues(learner, ref, EXACT)?.message).toBe("the result has a key `module.layers.0.weight` the reference does not return");
    tf.dispose([...Object.values(ref), ...Object.values(learner)]);
  });

  it("a wrong value is named first, an extra key follows as an 'also' line", () => {
    const m = compareValues({ total: 11, experts: 0 }, { total: 10 }, EXACT);
    expect(m?.message).toBe("`total` differs from the reference");
    expect(m?.details).toContain("also: the result has a key `experts` the reference does not return");
  });

  it("nested objects: extra and missing keys are named with their path", () => {
    expect(compareValues({ stats: { mean: 1, max: 2 } }, { stats: { mean: 1 } }, EXACT)?.message).toBe("`stats` has a key `max` the reference does not return");
    expect(compareValues({ stats: { mean: 1 } }, { stats: { mean: 1, max: 2 } }, EXACT)?.message).toBe("`stats` is missing the key `max`");
    expect(compareValues([{ a: 1 }, { a: 1, b: 2 }], [{ a: 1 }, { a: 1 }], EXACT)?.message).toBe("`[1]` has a key `b` the reference does not return");
  });

  it("a key whose value is undefined counts as absent, on either side", () => {
    expect(compareValues({ total: 10, experts: undefined }, { total: 10 }, EXACT)).toBeNull();
    expect(compareValues({ total: 10 }, { total: 10, experts: undefined }, EXACT)).toBeNull();
  });

  it("key order is ignored unless the expected value is marked ordered", () => {
    const got = encodeValue({ b: 2, a: 1 });
    const want = encodeValue({ a: 1, b: 2 });
    expect(compareEncoded(got, want, EXACT)).toBeNull();
    const ordered: Encoded = { ...(want as Extract<Encoded, { t: "object" }>), ordered: true };
    expect(compareEncoded(got, ordered, EXACT)?.message).toBe("the result has its keys in another order: key 1 is `b`, expected `a` (the order of the keys is part of the contract here)");
    expect(compareEncoded(want, ordered, EXACT)).toBeNull();
  });
});

/** A one-exercise lesson whose function returns a small state dict. */
const stateDicts = (keyOrder: { exercise?: boolean; caseOverride?: boolean }): LessonGrader => ({
  lesson: "lesson-17",
  exercises: [
    {
      name: "renamed",
      file: "state-dict.ts",
      tolerance: EXACT,
      keyOrder: keyOrder.exercise,
      call: (fn, x) => fn(x.n),
      cases: [
        { name: "flat", kind: "worked", inputs: () => ({ n: 1 }) },
        { name: "flat, override", kind: "edge", inputs: () => ({ n: 2 }), keyOrder: keyOrder.caseOverride },
      ],
    },
  ],
});

const reference: Implementation = { renamed: (n: number) => ({ embed: n, norm: { weight: n, bias: 0 } }) };
const reordered: Implementation = { renamed: (n: number) => ({ norm: { weight: n, bias: 0 }, embed: n }) };
const innerReordered: Implementation = { renamed: (n: number) => ({ embed: n, norm: { bias: 0, weight: n } }) };
const extra: Implementation = { renamed: (n: number) => ({ embed: n, norm: { weight: n, bias: 0 }, "module.embed": n }) };

describe("keyOrder: an opt-in of an exercise or a case", () => {
  const statuses = (g: LessonGrader, impl: Implementation) => runLesson(g, impl, reference).map((r) => `${r.case}: ${r.status}${r.message ? ` (${r.message})` : ""}`);

  it("without it, reordered keys pass and an extra key fails", () => {
    expect(statuses(stateDicts({}), reordered)).toEqual(["flat: passed", "flat, override: passed"]);
    expect(statuses(stateDicts({}), extra)).toEqual([
      "flat: failed (the result has a key `module.embed` the reference does not return)",
      "flat, override: failed (the result has a key `module.embed` the reference does not return)",
    ]);
  });

  it("on the exercise, every object's order is checked, nested ones included; a case can turn it off", () => {
    expect(statuses(stateDicts({ exercise: true, caseOverride: false }), reordered)).toEqual([
      "flat: failed (the result has its keys in another order: key 1 is `norm`, expected `embed` (the order of the keys is part of the contract here))",
      "flat, override: passed",
    ]);
    expect(statuses(stateDicts({ exercise: true }), innerReordered)[0]).toBe(
      "flat: failed (`norm` has its keys in another order: key 1 is `bias`, expected `weight` (the order of the keys is part of the contract here))",
    );
    expect(statuses(stateDicts({ exercise: true }), reference)).toEqual(["flat: passed", "flat, override: passed"]);
  });

  it("on a case alone, only that case checks the order", () => {
    expect(statuses(stateDicts({ caseOverride: true }), reordered).map((s) => s.split(" (")[0])).toEqual(["flat: passed", "flat, override: failed"]);
  });

  it("the mark travels with the expected value: through IPC serialisation and frozen expectations", () => {
    const g = stateDicts({ exercise: true });
    const ex = g.exercises[0];
    const want = expectedOutput(ex, ex.cases[0], reference);
    const got = expectedOutput({ ...ex, keyOrder: false }, ex.cases[0], reordered);
    if (want.status !== "ok" || got.status !== "ok") throw new Error("both sides should produce a value");
    for (const carried of [deserialize(serialize(want.value)) as Encoded, fromJson<Encoded>(toJson(want.value))]) {
      expect(compareEncoded(got.value, carried, EXACT)?.message).toMatch(/order of the keys is part of the contract/);
    }
  });
});

describe("Maps and Sets", () => {
  it("are reported as what they are, not as an empty object that equals any other", async () => {
    const { encodeValue } = await import("../grader/engine/compare.js");
    const { compareEncoded } = await import("../grader/engine/encoded.js");
    const { ELEMENTWISE } = await import("../grader/engine/types.js");
    const map = encodeValue(new Map([["a", 1]]));
    expect(map).toEqual({ t: "other", what: "a Map of 1 entries (return a plain object or an array)" });
    expect(encodeValue(new Set([1, 2]))).toEqual({ t: "other", what: "a Set of 2 values (return an array)" });
    expect(compareEncoded(map, encodeValue({}), ELEMENTWISE)).not.toBeNull();
  });
});

describe("long strings and id sequences (issue 22, item 6)", () => {
  it("a long string is reported by its first differing character, with context, not printed whole", async () => {
    const { compareEncoded } = await import("../grader/engine/encoded.js");
    const { EXACT } = await import("../grader/engine/types.js");
    const want = `${"<|im_start|>user\nhello<|im_end|>\n".repeat(40)}<|im_start|>assistant\n`;
    const got = want.replace(/assistant\n$/, "assistant");
    const m = compareEncoded({ t: "string", v: got }, { t: "string", v: want }, EXACT)!;
    expect(m.message).toBe(`the result differs from the expected text at character ${want.length - 1} (got ${got.length} characters, expected ${want.length})`);
    expect(m.details[0]).toContain('assistant\\n"');
    expect(m.message.length + m.details.join("").length).toBeLessThan(300);
  });

  it("an id sequence is reported by its first differing position with the ids around it, and no relative difference", async () => {
    const { compareEncoded } = await import("../grader/engine/encoded.js");
    const { ELEMENTWISE } = await import("../grader/engine/types.js");
    const ids = Array.from({ length: 2000 }, (_, i) => (i * 7) % 6400);
    const wrong = [...ids.slice(0, 1500), 99, ...ids.slice(1501)];
    const enc = (xs: number[]) => ({ t: "array" as const, items: xs.map((v) => ({ t: "number" as const, v })) });
    const m = compareEncoded(enc(wrong), enc(ids), ELEMENTWISE)!;
    expect(m.message).toBe("the result differs from the expected ids at position 1500");
    expect(m.details[0]).toBe(`expected: […, ${ids.slice(1495, 1500).join(", ")}, «${ids[1500]}», ${ids.slice(1501, 1506).join(", ")}, …]`);
    expect(m.details.join(" ")).not.toMatch(/rel diff|worst/);
    const tensor = (xs: number[]) => ({ t: "tensor" as const, shape: [xs.length], dtype: "int32", data: Int32Array.from(xs) });
    expect(compareEncoded(tensor(wrong), tensor(ids), ELEMENTWISE)?.message).toBe("the result differs from the expected ids at position 1500");
    expect(compareEncoded(enc(ids.slice(0, 1999)), enc(ids), ELEMENTWISE)?.message).toBe("the result differs from the expected ids at position 1999 (got 1999 ids, expected 2000)");
    expect(compareEncoded(enc(ids), enc(ids), ELEMENTWISE)).toBeNull();
  });
});
