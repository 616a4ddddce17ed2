/**
 * Golden fixtures: inputs and outputs that grader/<lesson>/parity.py computed with PyTorch from the cited
 * MiniMind/AReaL lines, stored in grader/<lesson>/fixture.json. Grading the solutions against
 * them proves the references agree with the sources; grading a learner against them is one more
 * set of cases.
 */
import { existsSync, readFileSync } from "node:fs";
import * as tf from "../../lib/tf.js";
import { fixtureFile } from "./paths.js";
import type { CaseDef, Inputs, Tolerance } from "./types.js";

interface EncodedTensor {
  shape: number[];
  dtype: "float32" | "int32" | "bool";
  data: Array<number | boolean>;
}

interface FixtureCase {
  name: string;
  inputs: Record<string, unknown>;
  expected: unknown;
}

export interface FixtureFile {
  lesson: string;
  generator: string;
  source: string;
  torch: string;
  cases: Record<string, FixtureCase[]>;
}

export function fixturePath(lesson: string): string {
  return fixtureFile(lesson);
}

const cache = new Map<string, FixtureFile>();

export function readFixture(lesson: string): FixtureFile {
  const cached = cache.get(lesson);
  if (cached) return cached;
  const file = fixturePath(lesson);
  if (!existsSync(file)) throw new Error(`missing ${file}: run \`npm run fixtures\` (needs /usr/bin/python3 with torch)`);
  const parsed = JSON.parse(readFileSync(file, "utf8")) as FixtureFile;
  cache.set(lesson, parsed);
  return parsed;
}

function isEncodedTensor(v: unknown): v is EncodedTensor {
  return v !== null && typeof v === "object" && "shape" in v && "dtype" in v && "data" in v;
}

/** Turns every {shape, dtype, data} inside `v` into a tf.Tensor. */
export function decode(v: unknown): unknown {
  if (isEncodedTensor(v)) {
    const data = v.dtype === "bool" ? v.data.map((x) => (x ? 1 : 0)) : (v.data as number[]);
    return tf.tensor(data, v.shape, v.dtype);
  }
  if (Array.isArray(v)) return v.map(decode);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, decode(x)]));
  return v;
}

/** The fixture cases of one exercise. `tolerance` may depend on the case's name. */
export function fixtureCases(lesson: string, exercise: string, tolerance?: (name: string) => Tolerance | undefined): CaseDef[] {
  const cases = readFixture(lesson).cases[exercise];
  if (!cases) throw new Error(`grader/${lesson}/fixture.json has no cases for ${exercise}: rerun \`npm run fixtures\``);
  return cases.map((c) => ({
    name: `PyTorch fixture: ${c.name}`,
    kind: "fixture" as const,
    inputs: () => decode(c.inputs) as Inputs,
    expected: () => decode(c.expected),
    tolerance: tolerance?.(c.name),
  }));
}
