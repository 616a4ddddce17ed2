/**
 * A lesson's grading as vitest tests: `lesson-23 › maskedGae › <case>`, one test per planned case.
 *
 * Vitest runs only the judging side. At collection the lesson's grading starts through the one
 * engine (tools/loop/grading.ts → grader/engine/isolate.ts), which makes the plan in the reference
 * process (or reads frozen expectations) without running any learner code; the tests are defined
 * from that plan. The learner's code is bundled and started in its sandboxed process only when a
 * test of the file is about to run (so `vitest list` runs none of it; `npm run grade`, which always
 * runs the tests, sets COURSE_GRADE_AT_ONCE=1 to start it beside the plan), every case is judged
 * in the engine exactly as before, and each test then reports its case's verdict. The progress record is
 * written by the engine once every planned case has reported, never from a partial run.
 *
 * Settings come from the environment, so that `npm run grade` and a plain `npx vitest --project
 * grade` grade the same way: COURSE_GRADE_SOLUTIONS=1 (grade solutions/), COURSE_GRADE_ONLY (one
 * function), COURSE_GRADE_TIMEOUT_MS (the per-case limit, 10 s by default), COURSE_EXERCISES_DIR.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, it, type RunnerTestCase } from "vitest";
import { gradeLesson, type Graded } from "../../tools/loop/grading.js";
import { lessonExercisesDir } from "../../tools/loop/locations.js";
import type { LessonPlan } from "../engine/isolate.js";
import { paths, ROOT } from "../engine/paths.js";
import { caseKey } from "../engine/protocol.js";
import type { CaseResult } from "../engine/types.js";
import { caseFailure } from "./failure.js";
import { serializeGraded, type GradedJson } from "./graded-json.js";

declare module "vitest" {
  interface TaskMeta {
    /** The case's verdict, as the engine made it. */
    courseCase?: CaseResult;
    /** On the file: the whole grading (serializeGraded), set by the last test that runs. */
    courseGraded?: GradedJson;
  }
}

/** What the environment asks for (see the module comment). */
export interface SuiteSettings {
  solutions: boolean;
  only?: string;
  caseTimeoutMs: number;
}

export function suiteSettings(env: NodeJS.ProcessEnv = process.env): SuiteSettings {
  const ms = Number(env.COURSE_GRADE_TIMEOUT_MS ?? 10_000);
  return { solutions: env.COURSE_GRADE_SOLUTIONS === "1", only: env.COURSE_GRADE_ONLY || undefined, caseTimeoutMs: ms > 0 ? ms : 10_000 };
}

/** The test timeout: the engine stops every case itself (per-case limit, load limit, diagnosis limit), so vitest never needs to. */
const NO_VITEST_TIMEOUT = 2 ** 31 - 1;

/**
 * Defines the tests of the lesson whose folder holds `testFileUrl` (grader/lesson-NN/grade.test.ts).
 * Awaited at the test file's top level: the plan must be known before the tests are defined.
 */
export async function gradeSuite(testFileUrl: string): Promise<void> {
  endWithParent();
  const lesson = basename(dirname(fileURLToPath(testFileUrl)));
  const settings = suiteSettings();
  let open!: () => void;
  const begin = process.env.COURSE_GRADE_AT_ONCE === "1" ? undefined : new Promise<void>((r) => (open = r));
  let planned!: (p: LessonPlan) => void;
  const plan = new Promise<LessonPlan>((r) => (planned = r));
  const grading: Promise<Graded> = Promise.resolve()
    .then(() => gradeLesson(lesson, { solutions: settings.solutions, only: settings.only, caseTimeoutMs: settings.caseTimeoutMs, onPlan: planned, begin }))
    .then(
      (g) => {
        // Refused before any plan was made (an unsupported Node, a folder that is solutions/): the plan is that refusal.
        planned({ fatal: g.run.fatal ?? { message: "the grading made no plan", usage: false } });
        return g;
      },
      (err: unknown) => {
        const fatal = { message: err instanceof Error ? err.message : String(err), usage: true };
        planned({ fatal });
        return { run: { backend: "", results: [], fatal, printed: "" }, summaries: [] } satisfies Graded;
      },
    );
  const results = grading.then((g) => new Map(g.run.results.map((r) => [caseKey(r.exercise, r.case), r])));
  const implDir = settings.solutions ? join(paths.solutions, lesson) : lessonExercisesDir(lesson);

  const p = await plan;
  if (begin) beforeAll(() => open());
  describe(lesson, () => {
    if ("fatal" in p) {
      it("grading", async ({ task }) => {
        await attachGrading(task, grading);
        throw caseFailure({ message: `could not grade ${lesson}: ${p.fatal.message}` });
      });
      return;
    }
    const byExercise = new Map<string, typeof p.cases>();
    for (const c of p.cases) byExercise.set(c.exercise, [...(byExercise.get(c.exercise) ?? []), c]);
    for (const [exercise, cases] of byExercise) {
      describe(exercise, () => {
        for (const c of cases) {
          it(c.case, { timeout: NO_VITEST_TIMEOUT }, async ({ task }) => {
            const r = (await results).get(caseKey(exercise, c.case));
            await attachGrading(task, grading);
            if (!r) throw caseFailure({ message: (await grading).run.fatal?.message ?? "this case reported no result" });
            task.meta.courseCase = r;
            if (r.status !== "passed") throw caseFailure(r, definitionOf(join(implDir, c.file), exercise));
          });
        }
      });
    }
  });
}

/** The last test of the file that runs carries the whole grading to the reporters (file meta). */
async function attachGrading(task: RunnerTestCase, grading: Promise<Graded>): Promise<void> {
  if (task !== lastToRun(task)) return;
  task.file.meta.courseGraded = serializeGraded(await grading);
}

/** The last test of the file that vitest will run (filters mark the others "skip" before any runs). */
function lastToRun(task: RunnerTestCase): RunnerTestCase | undefined {
  let last: RunnerTestCase | undefined;
  const walk = (tasks: ReadonlyArray<RunnerTestCase["file"]["tasks"][number]>) => {
    for (const t of tasks) {
      if (t.type === "suite") walk(t.tasks);
      else if (t.type === "test" && t.mode === "run") last = t;
    }
  };
  walk(task.file.tasks);
  return last;
}

/** Where `name` is defined in `file` (absolute path, line, column), for a failure that is no exception. */
function definitionOf(file: string, name: string): { file: string; line: number; column: number } | undefined {
  if (!existsSync(file)) return undefined;
  const lines = readFileSync(file, "utf8").split("\n");
  const line = lines.findIndex((l) => new RegExp(`^export\\s+(async\\s+)?function\\s*\\*?\\s*${name}\\b`).test(l));
  return line < 0 ? undefined : { file: resolve(ROOT, file), line: line + 1, column: lines[line].indexOf(name) + 1 };
}

/**
 * The grading processes die with this vitest worker (they are started with a parent-death signal);
 * the worker must die with vitest, so that a killed `npm run grade` leaves nothing running. Vitest's
 * own handling does not on every Node (on 24 a forked worker outlived its killed parent), so: leave
 * when the channel to vitest closes, or when this process is handed to another parent.
 */
function endWithParent(): void {
  if (!process.connected) return;
  const parent = process.ppid;
  process.once("disconnect", () => process.exit(1));
  setInterval(() => {
    if (process.ppid !== parent) process.exit(1);
  }, 500).unref();
}
