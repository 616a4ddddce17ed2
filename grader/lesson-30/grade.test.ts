// This lesson's cases as vitest tests (grader/vitest/suite.ts): npm run grade lesson-30, or npx vitest --project grade lesson-30.
import { gradeSuite } from "../vitest/suite.js";

await gradeSuite(import.meta.url);
