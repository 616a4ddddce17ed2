// This lesson's cases as vitest tests (grader/vitest/suite.ts): npm run grade lesson-15, or npx vitest --project grade lesson-15.
import { gradeSuite } from "../vitest/suite.js";

await gradeSuite(import.meta.url);
