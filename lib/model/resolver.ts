/**
 * Chooses, for each piece of the model, the learner's function or the reference solution: the
 * learner's when `npm run grade` would pass it (every case of that function), the reference
 * otherwise, or always for the lessons named in `--use-reference` (so a learner can go on past a
 * lesson they have not finished). Grading runs in this process, on the cpu backend like
 * `npm run grade`; an exercise file that is still the untouched stub is not graded at all.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../tf.js";
import { loadGrader, loadImplementation } from "../../grader/engine/load.js";
import { paths } from "../../grader/engine/paths.js";
import { runLesson } from "../../grader/engine/run.js";
import { exercisesDir } from "../../tools/loop/locations.js";
import { findLesson } from "../catalog.js";
import { generateStub } from "../../tools/stubs/generate.js";
import { PIECE_HOMES, REFERENCE_PIECES, type ModelPieces, type PieceName } from "./pieces.js";

export interface PieceChoice {
  piece: PieceName;
  lesson: string;
  source: "exercises" | "solutions";
  /** Why, in a few words: "passes all 13 cases", "not started", "--use-reference", … */
  why: string;
}

export interface ResolveOptions {
  /** The learner's folder of lesson-NN/ (default exercises/, or COURSE_EXERCISES_DIR). */
  exercisesDir?: string;
  /** Lessons whose reference is used whatever the learner's state ("lesson-11"); "all" for every lesson. */
  useReference?: readonly string[];
}

export interface Resolved {
  pieces: ModelPieces;
  choices: PieceChoice[];
}

/** `--use-reference lesson-11,lesson-12` (or `=`, repeated, or `all`) out of a lab's arguments. */
export function parseUseReference(args: readonly string[]): string[] {
  const out: string[] = [];
  args.forEach((a, i) => {
    const value = a.startsWith("--use-reference=") ? a.slice("--use-reference=".length) : a === "--use-reference" ? args[i + 1] : undefined;
    if (value) out.push(...value.split(",").map((s) => s.trim()).filter((s) => s !== ""));
  });
  return out;
}

/** Runs `fn` with the cpu backend active (grading's tolerances assume it), then restores the backend. */
async function onCpu<T>(fn: () => T): Promise<T> {
  const previous = tf.getBackend();
  if (previous !== "cpu") await tf.setBackend("cpu");
  try {
    return fn();
  } finally {
    if (previous !== "cpu") await tf.setBackend(previous);
  }
}

/** The choices for one lesson's pieces. */
async function chooseForLesson(lesson: string, pieces: PieceName[], dir: string, forced: boolean): Promise<Array<PieceChoice & { fn?: unknown }>> {
  const reference = (why: string) => pieces.map((piece) => ({ piece, lesson, source: "solutions" as const, why }));
  if (forced) return reference("--use-reference");
  const files = [...new Set(pieces.map((p) => PIECE_HOMES[p].file))];
  const missing = files.find((f) => !existsSync(join(dir, lesson, f)));
  if (missing) return reference(`no ${lesson}/${missing}`);
  const untouched = files.every((f) => readFileSync(join(dir, lesson, f), "utf8") === generateStub(readFileSync(join(paths.solutions, lesson, f), "utf8"), lesson, f));
  if (untouched) return reference("not started");

  const grader = await loadGrader(lesson);
  const learner = await loadImplementation(grader, join(dir, lesson));
  const solutions = await loadImplementation(grader, join(paths.solutions, lesson));
  const results = await onCpu(() => runLesson(grader, learner.impl, solutions.impl, { only: pieces, loadErrors: learner.loadErrors }));
  return pieces.map((piece) => {
    const mine = results.filter((r) => r.exercise === piece);
    const failing = mine.filter((r) => r.status !== "passed").length;
    if (mine.length > 0 && failing === 0) return { piece, lesson, source: "exercises" as const, why: `passes all ${mine.length} cases`, fn: learner.impl[piece] };
    const status = mine.find((r) => r.status !== "passed")?.status ?? "not graded";
    return { piece, lesson, source: "solutions" as const, why: `${failing} of ${mine.length} cases not passed (first: ${status})` };
  });
}

/**
 * For every piece of the model, the learner's function when it passes its grader, else the
 * reference. Lessons are graded once each, in lesson order.
 */
export async function resolvePieces(opts: ResolveOptions = {}): Promise<Resolved> {
  const dir = opts.exercisesDir ?? exercisesDir();
  const forced = new Set((opts.useReference ?? []).map((l) => findLesson(l)?.id ?? l));
  const byLesson = new Map<string, PieceName[]>();
  for (const [piece, home] of Object.entries(PIECE_HOMES) as Array<[PieceName, (typeof PIECE_HOMES)[PieceName]]>) {
    byLesson.set(home.lesson, [...(byLesson.get(home.lesson) ?? []), piece]);
  }
  const pieces: Record<string, unknown> = { ...REFERENCE_PIECES };
  const choices: PieceChoice[] = [];
  const lessons = [...byLesson.keys()].sort((a, b) => Number(a.slice(7)) - Number(b.slice(7)));
  for (const lesson of lessons) {
    for (const { fn, ...choice } of await chooseForLesson(lesson, byLesson.get(lesson)!, dir, forced.has("all") || forced.has(lesson))) {
      if (fn) pieces[choice.piece] = fn;
      choices.push(choice);
    }
  }
  return { pieces: pieces as unknown as ModelPieces, choices };
}

/** One line per piece: "attention (lesson-11): yours, passes all 13 cases". */
export function describeChoices(choices: readonly PieceChoice[]): string[] {
  return choices.map((c) => `${c.piece} (${c.lesson}): ${c.source === "exercises" ? "yours" : "reference"}, ${c.why}`);
}
