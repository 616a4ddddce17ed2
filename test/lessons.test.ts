/**
 * Lesson explainers follow the template, name their exercises, cite pinned sources, and show the
 * worked example's real numbers: every output number of each `worked` case, as the reference
 * computes it, appears in the lesson (floats with toFixed(4)).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as tf from "../lib/tf.js";
import { initBackend } from "../lib/backend.js";
import { findLesson } from "../lib/catalog.js";
import { tensorsIn } from "../grader/engine/compare.js";
import { loadGrader, loadImplementation } from "../grader/engine/load.js";
import { gradedLessons, paths } from "../grader/engine/paths.js";

await initBackend("cpu");

/** The template's sections, in order; "In MiniMind" may be "In AReaL". */
const SECTIONS = [/^## Where we are/m, /^## The idea/m, /^## Worked example/m, /^## In (MiniMind|AReaL)/m, /^## Common mistakes/m, /^## Exercise/m, /^## Check yourself/m, /^## Next/m];

/** How a worked-example number must be written in the lesson. */
function shownAs(x: number, dtype: string): string {
  if (dtype === "int32" || dtype === "bool") return String(x);
  const s = x.toFixed(4);
  return s === "-0.0000" ? "0.0000" : s;
}

/**
 * The leaves of a plain JS output (arrays, objects; not tensors): numbers (integers as written,
 * others as shownAs) and strings, each of which the lesson must show.
 */
function plainLeaves(v: unknown): string[] {
  if (typeof v === "number") return [Number.isInteger(v) ? String(v) : shownAs(v, "float32")];
  if (typeof v === "string") return [v];
  if (v === null || typeof v !== "object" || v instanceof tf.Tensor) return [];
  return (Array.isArray(v) ? v : Object.values(v)).flatMap(plainLeaves);
}

describe.each(gradedLessons())("%s explainer", (lesson) => {
  const info = findLesson(lesson)!;
  const file = join(paths.lessons, info.file);

  it(`exists as lessons/${info.file}`, () => expect(existsSync(file)).toBe(true));

  it("has the template's sections in order, math, and pinned citations", () => {
    const text = readFileSync(file, "utf8");
    const at = SECTIONS.map((re) => text.search(re));
    expect(at.every((i) => i >= 0), `missing sections: ${SECTIONS.filter((_, i) => at[i] < 0).join(", ")}`).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(text).toMatch(/\$\$[\s\S]+?\$\$/);
    expect(text).toMatch(/`[\w/.-]+\.py:\d+(-\d+)?`\s*@\s*(d65ef2c|4aef98d)/);
  });

  it("names every exercise, and shows every output number of its worked cases", async () => {
    // Typeset minus signs (U+2212) count as "-".
    const text = readFileSync(file, "utf8").replace(/\u2212/g, "-");
    const grader = await loadGrader(lesson);
    const ref = await loadImplementation(grader, join(paths.solutions, lesson));
    for (const ex of grader.exercises) {
      expect(text, ex.name).toContain(ex.name);
      for (const c of ex.cases.filter((k) => k.kind === "worked")) {
        const inputs = c.inputs();
        const out = (c.call ?? ex.call)(ref.impl[ex.name]!, inputs);
        const numbers = [...tensorsIn(out)].flatMap((t) => Array.from(t.dataSync() as ArrayLike<number>, (v) => shownAs(Number(v), t.dtype)));
        if (typeof out === "number") numbers.push(shownAs(out, "float32"));
        else numbers.push(...plainLeaves(out));
        expect(numbers.length, `${ex.name} / ${c.name}: no output to show`).toBeGreaterThan(0);
        const missing = numbers.length <= 64 ? numbers.filter((n) => !text.includes(n)) : [];
        expect(missing, `${ex.name} / ${c.name}: numbers (or text) the lesson does not show`).toEqual([]);
        tf.dispose([...tensorsIn(inputs), ...tensorsIn(out)]);
      }
    }
  });
});
