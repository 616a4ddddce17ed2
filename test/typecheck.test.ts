/**
 * The course's self-check type check (tools/selfcheck-types.ts, the first step of `npm test`) does
 * not depend on the learner's working copy (issue 15, item 13): on a temporary project, a broken
 * exercise file fails `tsc` over tsconfig.json (the learner's `npm run typecheck`) but not the
 * self-check, which reads exercises/ as the stubs generated from solutions/ and still catches a
 * stub that does not type-check.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../grader/engine/paths.js";
import { selfcheckDiagnostics } from "../tools/selfcheck-types.js";

const PROJECT = mkdtempSync(join(tmpdir(), "course-typecheck-"));
afterAll(() => rmSync(PROJECT, { recursive: true, force: true }));

function put(path: string, text: string): void {
  mkdirSync(dirname(join(PROJECT, path)), { recursive: true });
  writeFileSync(join(PROJECT, path), text);
}

const SOLUTION = `/** Doubles x. */
export function double(x: number): number {
  // BEGIN SOLUTION
  return 2 * x;
  // END SOLUTION
}
`;

copyFileSync(join(ROOT, "tsconfig.json"), join(PROJECT, "tsconfig.json"));
symlinkSync(join(ROOT, "node_modules"), join(PROJECT, "node_modules"));
writeFileSync(join(PROJECT, "package.json"), JSON.stringify({ type: "module" }));
put("lib/errors.ts", `export class NotImplementedError extends Error {\n  constructor(lesson: string, exercise: string) {\n    super(\`\${lesson} \${exercise}\`);\n  }\n}\n`);
// A lab that imports the exercise directly, as some labs do: it must type-check against the stub.
put("labs/lesson-1/main.ts", `import { double } from "../../exercises/lesson-1/double.js";\nexport const four: number = double(2);\n`);
put("solutions/lesson-1/double.ts", SOLUTION);
// The learner's working copy, half-way: a type error, a changed signature, and a scratch file.
put("exercises/lesson-1/double.ts", `export function double(x: string): string {\n  const n: number = x;\n  return n;\n}\n`);
put("exercises/lesson-1/scratch.ts", `const oops: number = "not a number";\n`);

function tsc(): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", join(PROJECT, "tsconfig.json")], { cwd: PROJECT, encoding: "utf8" });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

const messages = (ds: readonly ts.Diagnostic[]) => ds.map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);

describe("the self-check's type check", () => {
  it("reports the learner's errors through tsconfig.json (npm run typecheck)", () => {
    const r = tsc();
    expect(r.code).not.toBe(0);
    expect(r.out).toContain("exercises/lesson-1/double.ts");
    expect(r.out).toContain("exercises/lesson-1/scratch.ts");
  });

  it("ignores the learner's working copy: the broken exercise does not fail it", () => {
    expect(messages(selfcheckDiagnostics(PROJECT))).toEqual([]);
  });

  it("still type-checks the stubs, and what imports them", () => {
    put("labs/lesson-1/main.ts", `import { double } from "../../exercises/lesson-1/double.js";\nexport const four: string = double(2);\n`);
    const lab = messages(selfcheckDiagnostics(PROJECT));
    expect(lab.join("\n")).toMatch(/labs\/lesson-1\/main\.ts: Type 'number' is not assignable to type 'string'/);
    put("labs/lesson-1/main.ts", `import { double } from "../../exercises/lesson-1/double.js";\nexport const four: number = double(2);\n`);
    // A solution whose stub breaks (an unmarked function using a helper the stub leaves out).
    put("solutions/lesson-1/triple.ts", `// BEGIN SOLUTION\nfunction helper(x: number): number {\n  return 3 * x;\n}\n// END SOLUTION\n\nexport function triple(x: number): number {\n  return helper(x);\n}\n`);
    const stub = messages(selfcheckDiagnostics(PROJECT));
    rmSync(join(PROJECT, "solutions/lesson-1/triple.ts"));
    expect(stub.join("\n")).toMatch(/exercises\/lesson-1\/triple\.ts: Cannot find name 'helper'/);
  });

  it("is what npm test runs first; npm run typecheck stays the learner's tsc", () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts.test).toMatch(/^node --import tsx tools\/selfcheck-types\.ts && /);
    expect(scripts.test).not.toMatch(/\btsc\b/);
    expect(scripts.typecheck).toBe("tsc --noEmit");
  });
});
