/**
 * A case that did not pass, as the Error a vitest test fails with: the report's words for it (the
 * status, the message, the numbers behind it, the known mistake it matches, its inputs) and a stack
 * whose one frame is the learner's code, so that vitest's reporters, its JSON and JUnit output and
 * the VS Code extension point at the learner's `file:line`. For an exception that is where it was
 * thrown; for a wrong value, the function's definition.
 */
import { resolve } from "node:path";
import { ROOT } from "../engine/paths.js";
import type { CaseResult, CaseStatus } from "../engine/types.js";
import { zh } from "../i18n.js";
import { localiseCase } from "../messages-zh.js";

const STATUS_WORDS: Record<Exclude<CaseStatus, "passed">, string> = {
  failed: "wrong result",
  "not-implemented": "not implemented yet",
  error: "threw an error",
  timeout: "timed out",
};

/** STATUS_WORDS in Chinese (i18n.ts: COURSE_LANG=zh). */
const STATUS_WORDS_ZH: Record<Exclude<CaseStatus, "passed">, string> = {
  failed: "结果错误",
  "not-implemented": "尚未实现",
  error: "抛出异常",
  timeout: "超时",
};

/** The Error for `r` (a case result, or just a message for a lesson that could not be graded). */
export function caseFailure(result: Partial<CaseResult> & { message?: string }, definition?: { file: string; line: number; column: number }): Error {
  // In Chinese the engine's English message and details are translated here (messages-zh.ts).
  const r = localiseCase(result);
  const lines = zh() ? failureLinesZh(r) : failureLines(r);
  const err = new Error(lines.join("\n"));
  err.name = "CaseFailure";
  const at = r.location ? parseLocation(r.location) : definition;
  err.stack = `${err.name}: ${err.message}${at ? `\n    at ${r.exercise ?? "<lesson>"} (${at.file}:${at.line}:${at.column})` : ""}`;
  return err;
}

function failureLines(r: Partial<CaseResult> & { message?: string }): string[] {
  const head = r.status && r.status !== "passed" ? `${STATUS_WORDS[r.status]}: ${r.message ?? ""}` : (r.message ?? "failed");
  const lines = [head, ...(r.details ?? []).map((d) => `  ${d}`)];
  if (r.mistake) lines.push(`  looks like a known mistake: ${r.mistake}`);
  if (r.inputs?.length) lines.push("  inputs:", ...r.inputs.map((i) => `    ${i}`));
  return lines;
}

/** failureLines in Chinese. */
function failureLinesZh(r: Partial<CaseResult> & { message?: string }): string[] {
  const head = r.status && r.status !== "passed" ? `${STATUS_WORDS_ZH[r.status]}：${r.message ?? ""}` : (r.message ?? "未通过");
  const lines = [head, ...(r.details ?? []).map((d) => `  ${d}`)];
  if (r.mistake) lines.push(`  看起来是一个已知错误：${r.mistake}`);
  if (r.inputs?.length) lines.push("  输入：", ...r.inputs.map((i) => `    ${i}`));
  return lines;
}

/** "exercises/lesson-23/ppo.ts:42:13" (relative to the course root) as an absolute file, line and column. */
export function parseLocation(location: string): { file: string; line: number; column: number } | undefined {
  const m = /^(.+?):(\d+):(\d+)$/.exec(location.trim());
  return m ? { file: resolve(ROOT, m[1]), line: Number(m[2]), column: Number(m[3]) } : undefined;
}
