// This lesson's cases as vitest tests (grader/vitest/suite.ts): npm run grade lesson-34, or npx vitest --project grade lesson-34.
import { gradeSuite } from "../vitest/suite.js";

await gradeSuite(import.meta.url);
