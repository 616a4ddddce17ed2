/**
 * Every optional input omitted at least once (issue 21). A wrong default (`eps ?? 1e-5` for
 * `1e-6`, a temperature that defaults to 0.7) shows only on a case that leaves the input out, so
 * for each graded function this module finds its optional inputs from the reference's signature
 * and reports those that no case of the lesson ever omits:
 *
 * - optional positional parameters: `eps?: number` or `eps = 1e-6` (a rest parameter is not one);
 * - optional keys of an options-object parameter: the `?` properties of the parameter's type
 *   (an interface or an object type, imported ones included; class instances such as tf.Tensor
 *   are not options objects).
 *
 * Signatures come from the TypeScript compiler API on solutions/<lesson>/*.ts. Omissions are seen by
 * running every case of the lesson, in this process, with the reference wrapped in a function that
 * records each call's arguments: a parameter is omitted by a call that passes fewer arguments or
 * `undefined` in its place (a case's `call` passes `x.eps`, which is undefined when the case leaves
 * it out), a key when the options object is omitted, lacks the key, or holds `undefined` there.
 * Trusted code only (it runs the reference): the course's own test and this command line,
 *
 *   node --import tsx grader/engine/optional-inputs.ts lesson-11 [lesson-12 …]   (none: every lesson)
 *
 * which prints one line per input never omitted and exits 1 when there is one.
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { initBackend } from "../../lib/backend.js";
import { loadGrader, loadImplementation } from "./load.js";
import { caseOutput } from "./outputs.js";
import { ROOT, gradedLessons, paths } from "./paths.js";
import type { AnyFn, LessonGrader } from "./types.js";

/** One optional input of a graded function, as its signature declares it. */
export interface OptionalInput {
  /** The export name ("attention"). */
  exercise: string;
  /** "parameter": an optional positional parameter; "option": an optional key of an options object. */
  kind: "parameter" | "option";
  /** The parameter's name, or the option's key. */
  name: string;
  /** The position of the parameter (for an option, of the options object holding it), from 0. */
  index: number;
  /** For an option: the name of the parameter that holds it ("opts"). */
  param?: string;
}

/** An optional input that no case of its lesson omits. */
export interface NeverOmitted extends OptionalInput {
  lesson: string;
}

/** "lesson-11 attention: parameter `eps` is never omitted by any case"; `ambiguous` adds the option's parameter ("option `eps` of `opts`"). */
export function formatNeverOmitted(f: NeverOmitted, ambiguous = false): string {
  const what = f.kind === "parameter" ? `parameter \`${f.name}\`` : `option \`${f.name}\`${ambiguous ? ` of \`${f.param}\`` : ""}`;
  return `${f.lesson} ${f.exercise}: ${what} is never omitted by any case`;
}

/** The report lines for a list of findings, in order; an option names its parameter when one function's findings span several options objects. */
export function formatAll(found: readonly NeverOmitted[]): string[] {
  return found.map((f) => {
    const params = new Set(found.filter((g) => g.lesson === f.lesson && g.exercise === f.exercise && g.kind === "option").map((g) => g.param));
    return formatNeverOmitted(f, params.size > 1);
  });
}

// ---------------------------------------------------------------- signatures

let program: ts.Program | undefined;

/** One program over every graded lesson's solution files, built once: the checker resolves imported option types. */
function solutionsProgram(): ts.Program {
  if (program) return program;
  const config = ts.readConfigFile(join(ROOT, "tsconfig.json"), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const files = ts.sys.readDirectory(paths.solutions, [".ts"], undefined, ["**/*.ts"]);
  program = ts.createProgram(files, { ...options, noEmit: true });
  return program;
}

/** Whether `type` is an options object: an object type (interface or literal), not an array, a function or a class instance. */
function isOptionsObject(checker: ts.TypeChecker, type: ts.Type): boolean {
  if (!(type.flags & ts.TypeFlags.Object)) return false;
  if (checker.isArrayType(type) || checker.isTupleType(type) || type.getCallSignatures().length > 0) return false;
  const symbol = type.getSymbol();
  return !symbol || !(symbol.flags & ts.SymbolFlags.Class);
}

/** The optional inputs of `name`, exported by `file` (an absolute path of a solution file). */
export function optionalInputsOf(file: string, name: string): OptionalInput[] {
  const prog = solutionsProgram();
  const checker = prog.getTypeChecker();
  const source = prog.getSourceFile(file);
  if (!source) throw new Error(`${file} is not among the solution files`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  const exported = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((s) => s.name === name);
  if (!exported) throw new Error(`${file} does not export ${name}`);
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const signature = checker.getTypeOfSymbolAtLocation(symbol, source).getCallSignatures()[0];
  if (!signature) return [];
  const out: OptionalInput[] = [];
  signature.getParameters().forEach((p, index) => {
    const decl = p.valueDeclaration;
    if (!decl || !ts.isParameter(decl) || decl.dotDotDotToken) return;
    const paramName = ts.isIdentifier(decl.name) ? decl.name.text : `argument ${index + 1}`;
    if (decl.questionToken || decl.initializer) out.push({ exercise: name, kind: "parameter", name: paramName, index });
    const type = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(p, decl));
    if (!isOptionsObject(checker, type)) return;
    for (const prop of type.getProperties()) {
      if (prop.flags & ts.SymbolFlags.Optional) out.push({ exercise: name, kind: "option", name: prop.name, index, param: paramName });
    }
  });
  return out;
}

// ---------------------------------------------------------------- omissions

/** Whether one call's arguments leave `input` out. */
function omits(args: readonly unknown[], input: OptionalInput): boolean {
  const arg = args[input.index];
  if (input.kind === "parameter") return arg === undefined;
  if (arg === undefined || arg === null) return true;
  if (typeof arg !== "object") return false;
  return !(input.name in arg) || (arg as Record<string, unknown>)[input.name] === undefined;
}

/**
 * The optional inputs of the lesson's graded functions that no case omits, in exercise and
 * parameter order. Runs every case of each function that has optional inputs, in this process,
 * with the reference from solutions/ (the backend must already be initialised).
 */
export async function neverOmitted(lesson: string, grader?: LessonGrader): Promise<NeverOmitted[]> {
  const g = grader ?? (await loadGrader(lesson));
  const dir = join(paths.solutions, lesson);
  const reference = await loadImplementation(g, dir);
  if (reference.loadErrors.size > 0) throw new Error([...reference.loadErrors.values()].join("\n"));
  const found: NeverOmitted[] = [];
  for (const ex of g.exercises) {
    const ref = reference.impl[ex.name];
    if (typeof ref !== "function") throw new Error(`the reference of ${lesson} does not export ${ex.name}`);
    let pending = optionalInputsOf(join(dir, ex.file), ex.name);
    if (pending.length === 0) continue;
    const recording: AnyFn = function (this: unknown, ...args: unknown[]) {
      pending = pending.filter((input) => !omits(args, input));
      return ref.apply(this, args);
    };
    for (const c of ex.cases) {
      if (pending.length === 0) break;
      caseOutput(ex, c, recording);
    }
    found.push(...pending.map((input) => ({ ...input, lesson })));
  }
  return found;
}

// ---------------------------------------------------------------- command line

async function main(args: string[]): Promise<number> {
  const known = gradedLessons();
  const unknown = args.filter((a) => !known.includes(a));
  if (unknown.length > 0) {
    console.error(`unknown lesson(s): ${unknown.join(", ")}; graded lessons: ${known.join(", ")}`);
    return 2;
  }
  await initBackend("cpu");
  let total = 0;
  for (const lesson of args.length > 0 ? args : known) {
    const start = performance.now();
    const found = await neverOmitted(lesson);
    const ms = Math.round(performance.now() - start);
    for (const line of formatAll(found)) console.log(line);
    if (found.length === 0) console.log(`${lesson}: every optional input is omitted by some case`);
    console.error(`${lesson}: checked in ${ms} ms`);
    total += found.length;
  }
  return total === 0 ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
