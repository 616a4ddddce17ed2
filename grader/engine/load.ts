/**
 * Loads the pieces a grading run needs: the lesson's cases, an implementation folder
 * (exercises/, solutions/ or a stub folder) and the lesson's known mutants.
 */
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import type { Implementation, KnownMutant } from "./run.js";
import type { LessonGrader, MutantDef } from "./types.js";
import { ROOT, casesFile, mutantFiles } from "./paths.js";

export async function loadGrader(lesson: string): Promise<LessonGrader> {
  const mod = (await import(pathToFileURL(casesFile(lesson)).href)) as { default: LessonGrader };
  return mod.default;
}

/** The files a lesson's exercises live in ("ppo.ts"), each once. */
export function exerciseFiles(grader: LessonGrader): string[] {
  return [...new Set(grader.exercises.map((e) => e.file))];
}

export interface LoadedImplementation {
  impl: Implementation;
  /** file → why it could not be loaded, phrased for the learner. */
  loadErrors: Map<string, string>;
}

/** Imports every exercise file of the lesson from `dir` (e.g. exercises/lesson-23). */
export async function loadImplementation(grader: LessonGrader, dir: string): Promise<LoadedImplementation> {
  const impl: Implementation = {};
  const loadErrors = new Map<string, string>();
  for (const file of exerciseFiles(grader)) {
    const full = join(dir, file);
    const shown = relative(ROOT, full);
    if (!existsSync(full)) {
      loadErrors.set(file, `${shown} is missing: restore it with \`npm run reset ${grader.lesson}\` or \`git checkout -- ${shown}\``);
      continue;
    }
    try {
      Object.assign(impl, await import(pathToFileURL(full).href));
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      loadErrors.set(file, `${shown} could not be loaded: ${msg.split("\n").slice(0, 3).join(" ")}`);
    }
  }
  return { impl, loadErrors };
}

export interface LoadedMutant extends KnownMutant {
  /** `<exercise>-<name>`, e.g. "maskedGae-no-lambda": unique within the lesson. */
  id: string;
}

/** Every mutant of a lesson (grader/<lesson>/mutants*.ts, in file and list order): its MutantInfo and its replacement function. */
export async function loadMutants(lesson: string): Promise<LoadedMutant[]> {
  const out: LoadedMutant[] = [];
  for (const file of mutantFiles(lesson)) {
    const mod = (await import(pathToFileURL(file).href)) as { mutants?: MutantDef[] };
    if (!Array.isArray(mod.mutants)) throw new Error(`${relative(ROOT, file)} must export a list \`mutants\``);
    for (const { exercise, name, mistake, fn } of mod.mutants) out.push({ id: `${exercise}-${name}`, info: { exercise, mistake }, fn });
  }
  return out;
}
