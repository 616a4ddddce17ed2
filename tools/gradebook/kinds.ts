/**
 * What kind of outcome a function had, in the words an instructor sorts by: the engine's verdict
 * (passed, failed, not implemented, error, timeout) with "error" told apart into syntax error,
 * refused import, missing file, missing export and runtime error; and where it happened (`file:line`).
 */
import type { FunctionSummary } from "../../grader/engine/summary.js";
import type { CaseResult } from "../../grader/engine/types.js";

export type Kind = "passed" | "failed" | "not implemented" | "syntax error" | "refused import" | "missing file" | "missing export" | "runtime error" | "timeout" | "not graded";

/** Every kind, in the order a report lists them. */
export const KINDS: readonly Kind[] = ["passed", "failed", "not implemented", "syntax error", "refused import", "missing file", "missing export", "runtime error", "timeout", "not graded"];

/** The kind of one case that did not pass with an error status. */
function errorKind(r: CaseResult): Kind {
  const m = r.message ?? "";
  if (/ is missing from the submission| is missing: restore it| is a symbolic link, which the gradebook does not follow/.test(m)) return "missing file";
  if (r.loadError) {
    // The bundler's refusal, with or without the line it names: "<file> imports …", "<file> could not be loaded: <file>:1:56: imports …".
    if (/^\S+ imports /.test(m) || /could not be loaded: \S+:\d+:\d+: imports /.test(m)) return "refused import";
    if (/Could not resolve/.test(m)) return "missing file";
    if (/ threw while loading: /.test(m)) return "runtime error";
    return "syntax error";
  }
  if (/ does not export a function named /.test(m)) return "missing export";
  return "runtime error";
}

/** A function's kind: its verdict, an error told apart by its first failing case. */
export function functionKind(s: FunctionSummary): Kind {
  switch (s.verdict) {
    case "passed":
      return "passed";
    case "failed":
      return "failed";
    case "not-implemented":
      return "not implemented";
    case "timeout":
      return "timeout";
    case "error":
      return errorKind(s.results.find((r) => r.status === "error") ?? s.results[0]);
  }
}

/** `file:line` of a function's first problem: the learner's stack frame, else the one a load message names. */
export function functionLocation(s: FunctionSummary): string | undefined {
  const bad = s.results.find((r) => r.status !== "passed" && r.status !== "not-implemented" && (r.location || r.message));
  if (!bad) return undefined;
  const from = (t: string | undefined) => t && /((?:[\w.@-]+\/)*[\w.@-]+\.(?:ts|js|mts|mjs)):(\d+)/.exec(t);
  const m = from(bad.location) || from(bad.message);
  return m ? `${m[1]}:${m[2]}` : undefined;
}

/** How many of a function's cases never ran (after a timeout or a crash of its process). */
export function notRun(s: FunctionSummary): number {
  return s.results.filter((r) => /^not run: /.test(r.message ?? "")).length;
}
