/**
 * The course's own type check (`npm test` runs it before vitest): the whole project as
 * tsconfig.json describes it, except that exercises/ is read as the stubs generated from
 * solutions/, never as the learner's working copy. A learner's half-written exercise therefore
 * never fails the course's self-check, while the stubs themselves, and every lab or test that
 * imports an exercise file, are still type-checked against what the course ships.
 *
 * `npm run typecheck` (plain `tsc --noEmit` over tsconfig.json) stays the learner's command: it
 * checks their exercises as they are.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { generateStub } from "../lib/stubs.js";

/** exercises/<lesson>/<file> → its stub, for every solutions/<lesson>/<file>.ts under `root`. */
export function generatedStubs(root: string): Map<string, string> {
  const stubs = new Map<string, string>();
  const solutions = join(root, "solutions");
  if (!existsSync(solutions)) return stubs;
  for (const lesson of readdirSync(solutions).filter((d) => /^lesson-\d+$/.test(d))) {
    for (const file of readdirSync(join(solutions, lesson)).filter((f) => f.endsWith(".ts"))) {
      stubs.set(join(root, "exercises", lesson, file), generateStub(readFileSync(join(solutions, lesson, file), "utf8"), lesson, file));
    }
  }
  return stubs;
}

/** Type-checks the project at `root` with exercises/ replaced by the generated stubs; returns the diagnostics. */
export function selfcheckDiagnostics(root: string): readonly ts.Diagnostic[] {
  const exercises = resolve(root, "exercises");
  const underExercises = (f: string) => resolve(f).startsWith(exercises + sep);
  const config = ts.getParsedCommandLineOfConfigFile(join(root, "tsconfig.json"), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    },
  })!;
  const stubs = generatedStubs(root);
  const host = ts.createCompilerHost(config.options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (f) => stubs.has(resolve(f)) || (!underExercises(f) && fileExists.call(host, f));
  host.readFile = (f) => stubs.get(resolve(f)) ?? (underExercises(f) ? undefined : readFile.call(host, f));
  host.getSourceFile = (f, language, onError, shouldCreate) => {
    const stub = stubs.get(resolve(f));
    if (stub !== undefined) return ts.createSourceFile(f, stub, language);
    return underExercises(f) ? undefined : getSourceFile.call(host, f, language, onError, shouldCreate);
  };
  const rootNames = [...config.fileNames.filter((f) => !underExercises(f)), ...stubs.keys()];
  const program = ts.createProgram({ rootNames, options: config.options, host, projectReferences: config.projectReferences });
  return [...config.errors, ...ts.getPreEmitDiagnostics(program)];
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const root = resolve(process.argv[2] ?? join(new URL(".", import.meta.url).pathname, ".."));
  const diagnostics = selfcheckDiagnostics(root);
  if (diagnostics.length > 0) {
    const formatHost: ts.FormatDiagnosticsHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => "\n" };
    const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
    console.error(format(diagnostics, formatHost));
    console.error(`${diagnostics.length} type error(s) in the course (exercises/ checked as the stubs generated from solutions/; ${relative(process.cwd(), root) || "."}).`);
    process.exitCode = 1;
  }
}
