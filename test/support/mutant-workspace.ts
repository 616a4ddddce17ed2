/**
 * Learner workspaces whose functions are the course's known mistakes, so that the isolated grader
 * (and `npm run grade` on vitest) can grade a mutant exactly as it grades a learner's file.
 *
 * A mutant is a function in grader/lesson-NN/mutants*.ts, built from variants that import the
 * grader, lib/ and the lesson's reference: a learner file may import none of those (the sandbox
 * refuses them). So each exercise file of the workspace is an esbuild bundle of a small entry that
 * picks the mutants: everything inlined except TensorFlow.js (one instance, the learner process's
 * own). Functions given no mutant throw their NotImplementedError, as a stub does.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { loadGrader, loadMutants, type LoadedMutant } from "../../grader/engine/load.js";
import { mutantFiles, ROOT } from "../../grader/engine/paths.js";

/** Round `k` of a lesson: each function's k-th mutant (in list order), where it has one. */
export async function mutantRound(lesson: string, k: number): Promise<Map<string, LoadedMutant>> {
  const byExercise = new Map<string, LoadedMutant[]>();
  for (const m of await loadMutants(lesson)) byExercise.set(m.info.exercise, [...(byExercise.get(m.info.exercise) ?? []), m]);
  const round = new Map<string, LoadedMutant>();
  for (const [exercise, ms] of byExercise) if (ms[k]) round.set(exercise, ms[k]);
  return round;
}

/** The most mutants any function of `lesson` has (the number of rounds that cover them all). */
export async function mutantRounds(lesson: string): Promise<number> {
  const counts = new Map<string, number>();
  for (const m of await loadMutants(lesson)) counts.set(m.info.exercise, (counts.get(m.info.exercise) ?? 0) + 1);
  return Math.max(0, ...counts.values());
}

/**
 * Writes `workspace/<lesson>/<file>.ts` for every exercise file of `lesson`: the functions of
 * `round` are their mutants, the others throw NotImplementedError.
 */
export async function writeMutantLesson(workspace: string, lesson: string, round: ReadonlyMap<string, LoadedMutant>): Promise<void> {
  const grader = await loadGrader(lesson);
  const files = new Map<string, string[]>();
  for (const ex of grader.exercises) files.set(ex.file, [...(files.get(ex.file) ?? []), ex.name]);
  mkdirSync(join(workspace, lesson), { recursive: true });
  const lists = mutantFiles(lesson);
  for (const [file, names] of files) {
    const entry = [
      `import { NotImplementedError } from ${JSON.stringify(join(ROOT, "lib", "errors.ts"))};`,
      ...lists.map((f, i) => `import { mutants as list${i} } from ${JSON.stringify(f)};`),
      `const all = [${lists.map((_, i) => `...list${i}`).join(", ")}];`,
      `const pick = (id) => all.find((m) => m.exercise + "-" + m.name === id).fn;`,
      ...names.map((n) =>
        round.has(n)
          ? `export const ${n} = pick(${JSON.stringify(round.get(n)!.id)});`
          : `export function ${n}() { throw new NotImplementedError(${JSON.stringify(lesson)}, ${JSON.stringify(n)}); }`,
      ),
    ].join("\n");
    const out = await build({ stdin: { contents: entry, resolveDir: ROOT, loader: "js" }, bundle: true, format: "esm", platform: "node", target: "node20", write: false, external: ["@tensorflow/*"], logLevel: "silent" });
    writeFileSync(join(workspace, lesson, file), `// @ts-nocheck\n// Known mistakes of ${lesson}, bundled (test/support/mutant-workspace.ts).\n${out.outputFiles[0].text}`);
  }
}
