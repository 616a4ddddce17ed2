/**
 * Why an agent trajectory is wrong, on the two copies a calculator trajectory needs: the copy of the
 * question's numbers into the call, and the copy of the tool's result into the answer. Each
 * trajectory gets one verdict on its call (none, unparseable, right, or which part is wrong) and one
 * on its answer (right, the tool's result when that is not the right value, something else,
 * unfinished). tools/rl/agent-eval.ts counts them over the held-out tasks.
 */
import { questionExpression } from "../../lib/rl/agent-sft.js";
import { executeTool, statesNumber } from "../../lib/rl/agent-tools.js";

/** The verdict on a trajectory's first calculator call. */
export type CallVerdict = "no call" | "malformed" | "right" | "wrong operator" | "first number wrong" | "second number wrong" | "both numbers wrong" | "not a + - × expression";

/** The verdict on its final answer. */
export type AnswerVerdict = "right" | "the tool's (wrong) result" | "other" | "unfinished";

export interface AgentDiagnosis {
  call: CallVerdict;
  answer: AnswerVerdict;
  /** The first calculator call's expression as the model wrote it, and what the calculator returned. */
  expression?: string;
  toolResult?: string;
  /** The final text states the tool's result (undefined without a call or when unfinished). */
  copiedResult?: boolean;
  /** The final text: the last generation after its last `</tool_call>`. */
  finalText: string;
}

const OPERATORS: Record<string, string> = { "+": "+", "-": "-", "−": "-", "×": "×", "*": "×" };

/** `[a, op, b]` of a binary expression (" 4212 - 810" → ["4212", "-", "810"]; * and × the same), or undefined. */
export function binaryExpression(expression: string): [string, string, string] | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([-+−×*])\s*(\d+(?:\.\d+)?)\s*$/.exec(expression);
  return m ? [m[1], OPERATORS[m[2]], m[3]] : undefined;
}

/** The call verdict of `expression` against the expression of `question`. */
function callVerdict(question: string, expression: string): CallVerdict {
  const wanted = binaryExpression(questionExpression(question) ?? "");
  const got = binaryExpression(expression);
  if (!got || !wanted) return "not a + - × expression";
  const aWrong = got[0] !== wanted[0];
  const bWrong = got[2] !== wanted[2];
  if (aWrong && bWrong) return "both numbers wrong";
  if (aWrong) return "first number wrong";
  if (bWrong) return "second number wrong";
  return got[1] === wanted[1] ? "right" : "wrong operator";
}

/**
 * Both verdicts for a trajectory on `question` (exact answer `gt`): `turnOutputs` are its
 * generations, `unfinished` whether the last allowed generation still called a tool, and
 * `parseToolCalls` lesson 26's parser. The answer is "right" by the agent run's own test (the final
 * text states `gt`, lib/rl/agent-tools.ts's statesNumber).
 */
export function diagnoseTrajectory(
  question: string,
  gt: string,
  turnOutputs: readonly string[],
  unfinished: boolean,
  parseToolCalls: (text: string) => Array<{ name: string; arguments: Record<string, unknown> }>,
): AgentDiagnosis {
  const last = turnOutputs[turnOutputs.length - 1] ?? "";
  const finalText = last.split("</tool_call>").pop() ?? "";
  const first = turnOutputs.flatMap((t) => parseToolCalls(t)).find((c) => c.name === "calculate" && typeof c.arguments.expression === "string");
  const malformed = turnOutputs.some((t) => t.split("<tool_call>").length - 1 > parseToolCalls(t).length);
  const expression = first === undefined ? undefined : String(first.arguments.expression);
  const toolResult = expression === undefined ? undefined : executeTool("calculate", { expression });
  const call: CallVerdict = expression !== undefined ? callVerdict(question, expression) : malformed ? "malformed" : "no call";
  const answer: AnswerVerdict = unfinished
    ? "unfinished"
    : statesNumber(finalText, gt)
      ? "right"
      : toolResult !== undefined && statesNumber(finalText, toolResult)
        ? "the tool's (wrong) result"
        : "other";
  const copiedResult = toolResult === undefined || unfinished ? undefined : statesNumber(finalText, toolResult);
  return { call, answer, expression, toolResult, copiedResult, finalText };
}
