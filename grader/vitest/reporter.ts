/**
 * The course's report for a plain vitest run of the grade project:
 *   npx vitest run --project grade lesson-23 --reporter=./grader/vitest/reporter.ts
 * prints, for each lesson graded, what `npm run grade lesson-23` prints (the learner's printed
 * output, one line a function with its failing cases and known mistakes, the totals, the next step),
 * from the grading the lesson's test file carried (suite.ts). Add `--reporter=default` beside it
 * for vitest's own lines as well.
 */
import type { Reporter, TestModule } from "vitest/node";
import { findLesson } from "../../lib/catalog.js";
import { formatGradedLesson, nextStepLine } from "../report.js";
import { gradedOf } from "./run.js";
import { localiseMistakes, say } from "../i18n.js";
import { zhMessage } from "../messages-zh.js";

export default class CourseReporter implements Reporter {
  async onTestRunEnd(modules: ReadonlyArray<TestModule>): Promise<void> {
    for (const m of modules) {
      const graded = gradedOf(m);
      if (!graded) continue;
      const lesson = findLesson(m.moduleId.split("/").at(-2) ?? "");
      const id = lesson?.id ?? m.moduleId;
      if (graded.run.fatal) {
        console.log(say(`could not grade ${id}: ${graded.run.fatal.message}\n`, `无法评分 ${id}：${zhMessage(graded.run.fatal.message)}\n`));
        continue;
      }
      const ms = m.diagnostic().duration;
      // The named mistakes in the learner's language (COURSE_LANG=zh); the same summaries in English.
      const summaries = await localiseMistakes(lesson?.id ?? id, graded.summaries);
      console.log(`${formatGradedLesson(graded.run, summaries, { title: lesson ? `${lesson.id} · ${lesson.title}` : id, verbose: false, ms, next: lesson ? nextStepLine(lesson) : undefined })}\n`);
    }
  }
}
