/**
 * The grader without vitest, for the grade bench only: the engine's isolated run of one lesson
 * (tools/loop/grading.ts) and the same lesson report `npm run grade` prints, as the course graded
 * before the grade project existed. `node --import tsx tools/bench/grade-direct.ts lesson-23`
 */
import { gradeLesson } from "../loop/grading.js";
import { formatLessonReport } from "../../grader/report.js";

const lesson = process.argv[2] ?? "lesson-23";
const { summaries } = await gradeLesson(lesson, { caseTimeoutMs: 10_000 });
console.log(formatLessonReport(lesson, summaries, { verbose: false, verboseCommand: "", calls: new Map() }));
