/**
 * The stub generator: markers become NotImplementedError throws, private helpers disappear, and
 * syncing never overwrites a learner's file without --force and a backup.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT } from "../grader/engine/paths.js";
import { MarkerError, generateStub } from "../lib/stubs.js";
import { syncStubs, type StubStatus } from "../tools/stubs/sync.js";
import { BACKUPS_DIR } from "../tools/workspace.js";

const SOLUTION = `import * as tf from "../../lib/tf.js";

// BEGIN SOLUTION
function helper(x: number): number {
  return x + 1;
}
// END SOLUTION

/** Adds one. */
export function addOne(x: number): number {
  // BEGIN SOLUTION
  return helper(x);
  // END SOLUTION
}
`;

describe("generateStub", () => {
  it("replaces a function's marked body with a NotImplementedError naming the lesson and function", () => {
    const stub = generateStub(SOLUTION, "lesson-7", "add.ts");
    expect(stub).toContain(`  throw new NotImplementedError("lesson-7", "addOne");`);
    expect(stub).toContain(`import { NotImplementedError } from "../../lib/errors.js";`);
    expect(stub).toContain("/** Adds one. */");
    expect(stub).not.toMatch(/function helper|BEGIN SOLUTION|END SOLUTION/);
  });

  it("adds the import after the file's doc comment when the solution imports nothing", () => {
    const stub = generateStub("/** Sums. */\nexport function sum(a: number[]): number {\n  // BEGIN SOLUTION\n  return a.reduce((x, y) => x + y, 0);\n  // END SOLUTION\n}\n", "lesson-7", "sum.ts");
    expect(stub.split("\n").slice(0, 2)).toEqual(["/** Sums. */", `import { NotImplementedError } from "../../lib/errors.js";`]);
  });

  it("rejects unbalanced or nested markers with the file and line", () => {
    expect(() => generateStub("import x;\n// BEGIN SOLUTION\n", "lesson-7", "a.ts")).toThrow(MarkerError);
    expect(() => generateStub("import x;\n// END SOLUTION\n", "lesson-7", "a.ts")).toThrow(/a\.ts:2: END SOLUTION without a BEGIN/);
    expect(() => generateStub("import x;\nexport function f() {\n  // BEGIN SOLUTION\n  // BEGIN SOLUTION\n", "lesson-7", "a.ts")).toThrow(/nested/);
  });
});

describe("syncStubs", () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  function learnerFile(text: string): StubStatus {
    const dir = mkdtempSync(join(tmpdir(), "stubs-"));
    dirs.push(dir);
    const exercisePath = join(dir, "ppo.ts");
    writeFileSync(exercisePath, text);
    return { lesson: "lesson-23", file: "ppo.ts", solutionPath: "", exercisePath, stub: "the stub\n", state: "learner-edited" };
  }

  it("keeps a learner's edited file unless forced", () => {
    const s = learnerFile("my work\n");
    expect(syncStubs([s], false)[0].action).toBe("skipped");
    expect(readFileSync(s.exercisePath, "utf8")).toBe("my work\n");
  });

  it("with --force, saves the learner's file under .backups/ before regenerating", () => {
    const s = learnerFile("my work\n");
    const [outcome] = syncStubs([s], true);
    expect(outcome.action).toBe("written");
    expect(readFileSync(s.exercisePath, "utf8")).toBe("the stub\n");
    expect(outcome.backup && existsSync(outcome.backup)).toBe(true);
    expect(readFileSync(outcome.backup!, "utf8")).toBe("my work\n");
    // Remove this run's .backups/<timestamp>/ folder, and .backups/ itself when nothing else is there.
    rmSync(join(BACKUPS_DIR, relative(BACKUPS_DIR, outcome.backup!).split(sep)[0]), { recursive: true, force: true });
    if (readdirSync(BACKUPS_DIR).length === 0) rmSync(BACKUPS_DIR, { recursive: true, force: true });
  });

  it("writes a missing stub", () => {
    const s = learnerFile("");
    rmSync(s.exercisePath);
    expect(syncStubs([{ ...s, state: "missing" }], false)[0].action).toBe("written");
    expect(readFileSync(s.exercisePath, "utf8")).toBe("the stub\n");
  });
});

/**
 * Stubs carry contracts, not recipes (docs/AUTHORING.md): the doc comment of every exported
 * function in solutions/ (which the stub copies) states shapes, meaning and edge cases in a few
 * lines; the step-by-step method belongs in grader/lesson-NN/hints.ts. The `Align with:` citation and anything
 * after it are not counted. Before the rebalance the longest comment body was 19 lines / 1080
 * characters (lesson 13's moeFeedForward); after it, 9 lines / 589 characters.
 */
describe("stub doc comments", () => {
  const MAX_LINES = 10;
  const MAX_CHARS = 650;

  function exportedFunctionDocs(): Array<{ where: string; doc: string | null }> {
    const found: Array<{ where: string; doc: string | null }> = [];
    const solutions = join(ROOT, "solutions");
    for (const lesson of readdirSync(solutions).filter((d) => d.startsWith("lesson-"))) {
      for (const file of readdirSync(join(solutions, lesson)).filter((f) => f.endsWith(".ts"))) {
        const text = readFileSync(join(solutions, lesson, file), "utf8");
        for (const m of text.matchAll(/^export (?:async )?function\s+(\w+)/gm)) {
          const before = text.slice(0, m.index).trimEnd();
          const doc = before.endsWith("*/") ? before.slice(before.lastIndexOf("/**")) : null;
          found.push({ where: `solutions/${lesson}/${file}: ${m[1]}`, doc });
        }
      }
    }
    return found;
  }

  it("finds the exported functions of every lesson", () => {
    expect(exportedFunctionDocs().length).toBeGreaterThan(30);
  });

  it(`every exported function has a doc comment of at most ${MAX_LINES} lines and ${MAX_CHARS} characters before its citation`, () => {
    const bad: string[] = [];
    for (const { where, doc } of exportedFunctionDocs()) {
      if (doc === null) {
        bad.push(`${where}: no doc comment`);
        continue;
      }
      const lines = doc.split("\n");
      const citation = lines.findIndex((l) => /Align with:/.test(l));
      const body = (citation < 0 ? lines : lines.slice(0, citation)).join("\n");
      const n = body.split("\n").length;
      if (n > MAX_LINES || body.length > MAX_CHARS) {
        bad.push(`${where}: ${n} lines, ${body.length} characters (move the recipe to grader/lesson-NN/hints.ts)`);
      }
    }
    expect(bad).toEqual([]);
  });
});
