/**
 * The names of a lesson's graded functions, read from its files without loading them (the command
 * line checks `npm run grade lesson-23 maskedgae` before any process starts), and the nearest name
 * to a mistyped one.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { callsIn } from "./calls.js";
import { paths } from "./engine/paths.js";

/** Exported function names of the lesson's reference files (or, without them, its stubs), sorted as found. */
export function lessonFunctionNames(lesson: string): string[] {
  const dir = [join(paths.solutions, lesson), join(paths.exercises, lesson)].find((d) => existsSync(d));
  if (!dir) return [];
  const names: string[] = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith(".ts")).sort()) {
    for (const m of readFileSync(join(dir, f), "utf8").matchAll(/^export function (\w+)/gm)) names.push(m[1]);
  }
  return names;
}

/** Edit distance between two strings, ignoring case. */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[y.length];
}

/** The name closest to `typed` when it is close enough to be a typo (or a case slip); else undefined. */
export function nearestName(typed: string, names: readonly string[]): string | undefined {
  const ranked = names.map((n) => ({ n, d: distance(typed, n) })).sort((a, b) => a.d - b.d);
  const best = ranked[0];
  return best && best.d <= Math.max(2, Math.floor(best.n.length / 3)) ? best.n : undefined;
}

/** callsIn (calls.ts) over the .ts files of the lesson folder `implDir`; files that cannot be read are left out. */
export function lessonCalls(implDir: string, names: readonly string[]): Map<string, string[]> {
  if (!existsSync(implDir)) return new Map();
  const texts: string[] = [];
  for (const f of readdirSync(implDir).filter((x) => x.endsWith(".ts"))) {
    try {
      texts.push(readFileSync(join(implDir, f), "utf8"));
    } catch {
      continue;
    }
  }
  return callsIn(texts, names);
}
