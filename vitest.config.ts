import { defineConfig } from "vitest/config";

/**
 * Two projects. `course` is the course's self-check (`npm test`). `grade` is the grader: one test
 * file per lesson (grader/lesson-NN/grade.test.ts), one test per case, judging the learner's
 * exercises, which run in their own sandboxed process (grader/vitest/suite.ts); `npm run grade
 * lesson-NN` runs it with the course's report, `npx vitest --project grade lesson-NN` with vitest's.
 */
export default defineConfig({
  test: {
    // The tests read the course's English output: a Chinese locale on the machine must not change it.
    env: { COURSE_LANG: "en" },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Grading runs TensorFlow.js on the cpu backend; two cores are shared by every file.
    fileParallelism: true,
    maxWorkers: 2,
    // The learner's files are bundled by the grader, not imported by vitest: a save in them reruns
    // the grade tests in watch mode (vitest's own two triggers kept).
    forceRerunTriggers: ["**/package.json/**", "**/{vitest,vite}.config.*/**", `${process.env.COURSE_EXERCISES_DIR ?? "exercises"}/**/*.ts`],
    projects: [
      { extends: true, test: { name: "course", include: ["test/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "grade",
          include: ["grader/lesson-*/grade.test.ts"],
          // The engine's modules transformed once, kept on disk: a grading starts in a second, not three.
          experimental: { fsModuleCache: true },
        },
      },
    ],
  },
});
