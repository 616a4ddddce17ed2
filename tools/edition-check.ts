/**
 * `npm test` of a student edition (its package.json points there): every graded lesson has
 * frozen expectations or a published reference, and grading the untouched stubs gives "not
 * implemented" on every case with nothing fatal: the edition installs and grades as it should.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { gradeIsolated } from "../grader/engine/isolate.js";
import { gradedLessons, paths } from "../grader/engine/paths.js";

let failures = 0;
for (const lesson of gradedLessons()) {
  const frozen = existsSync(join(paths.expected, `${lesson}.json`));
  const published = existsSync(join(paths.solutions, lesson));
  if (!frozen && !published) {
    console.log(`✗ ${lesson}: neither frozen expectations nor a published reference`);
    failures++;
    continue;
  }
  const stubs = join(paths.pristineStubs, lesson);
  if (!existsSync(stubs) || readdirSync(stubs).length === 0) {
    console.log(`✗ ${lesson}: no pristine stubs in stubs/${lesson}`);
    failures++;
    continue;
  }
  const run = await gradeIsolated({ lesson, implDir: stubs, hints: false }, { caseTimeoutMs: 20_000 });
  const odd = run.results.filter((r) => r.status !== "not-implemented");
  if (run.fatal || run.results.length === 0 || odd.length > 0) {
    console.log(`✗ ${lesson}: ${run.fatal?.message ?? `${odd.length} case(s) of the stubs did not report "not implemented": ${odd[0]?.case ?? ""} ${odd[0]?.message ?? ""}`}`);
    failures++;
  } else console.log(`✓ ${lesson}: ${run.results.length} cases, ${frozen && !published ? "frozen expectations" : "published reference"}`);
}
process.exitCode = failures === 0 ? 0 : 1;
