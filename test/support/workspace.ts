/**
 * Throw-away learner workspaces for tests: a folder beside exercises/ (so `../../lib/…` imports
 * resolve) holding one lesson file, removed after the test file.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll } from "vitest";
import { ROOT } from "../../grader/engine/paths.js";

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A new workspace folder with `lesson/file` holding `body` after a TensorFlow.js import; returns the folder. */
export function workspace(body: string, lesson = "lesson-23", file = "ppo.ts"): string {
  const dir = mkdtempSync(join(ROOT, ".integrity-"));
  made.push(dir);
  mkdirSync(join(dir, lesson));
  writeFileSync(join(dir, lesson, file), `import * as tf from "../../lib/tf.js";\n${body}\n`);
  return dir;
}

/** A scratch folder (removed after the test file). */
export function scratch(): string {
  const dir = mkdtempSync(join(ROOT, ".integrity-"));
  made.push(dir);
  return dir;
}
