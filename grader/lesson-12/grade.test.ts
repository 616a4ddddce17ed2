// This lesson's cases as vitest tests (grader/vitest/suite.ts): npm run grade lesson-12, or npx vitest --project grade lesson-12.
import { gradeSuite } from "../vitest/suite.js";

await gradeSuite(import.meta.url);
