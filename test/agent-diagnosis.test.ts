/**
 * tools/rl/agent-diagnosis.ts: each way a calculator trajectory can go wrong gets its own verdict,
 * on the call (the question's numbers copied into it) and on the answer (the tool's result copied
 * out), and "right" agrees with the agent run's own test.
 */
import { describe, expect, it } from "vitest";
import { parseToolCalls } from "../solutions/lesson-26/tool-calls.js";
import { binaryExpression, diagnoseTrajectory } from "../tools/rl/agent-diagnosis.js";

const Q = "Use the calculator: what is 4212 - 810?";
const call = (expression: string) => `<tool_call>\n{"name": "calculate", "arguments": {"expression": "${expression}"}}\n</tool_call>`;
const diagnose = (turns: string[], unfinished = false) => diagnoseTrajectory(Q, "3402", turns, unfinished, parseToolCalls);

describe("binaryExpression", () => {
  it("reads a op b with or without spaces, * and × alike, and nothing else", () => {
    expect(binaryExpression(" 4212 - 810")).toEqual(["4212", "-", "810"]);
    expect(binaryExpression("8451*764")).toEqual(["8451", "×", "764"]);
    expect(binaryExpression("8451 × 764")).toEqual(["8451", "×", "764"]);
    expect(binaryExpression("(1+2)*3")).toBeUndefined();
    expect(binaryExpression("4212 -")).toBeUndefined();
  });
});

describe("diagnoseTrajectory", () => {
  it("a right call whose result is the answer is right on both counts", () => {
    const d = diagnose([call(" 4212 - 810"), "Answer:\n3402"]);
    expect(d).toMatchObject({ call: "right", answer: "right", expression: " 4212 - 810", toolResult: "3402", copiedResult: true, finalText: "Answer:\n3402" });
  });
  it("a right call whose result the answer does not repeat is a miscopy out of the tool", () => {
    expect(diagnose([call(" 4212 - 810"), "Answer:\n3412"])).toMatchObject({ call: "right", answer: "other", copiedResult: false });
  });
  it("names the part of the call that is not the question's", () => {
    expect(diagnose([call(" 4213 - 810"), "Answer:\n3403"])).toMatchObject({ call: "first number wrong", answer: "the tool's (wrong) result", copiedResult: true });
    expect(diagnose([call(" 4212 - 811"), "Answer:\n7"])).toMatchObject({ call: "second number wrong", answer: "other" });
    expect(diagnose([call(" 4213 - 811"), "Answer:\n3402"])).toMatchObject({ call: "both numbers wrong", answer: "right" });
    expect(diagnose([call(" 4212 + 810"), "Answer:\n5022"]).call).toBe("wrong operator");
    expect(diagnose([call("(4212 - 810)"), "Answer:\n3402"]).call).toBe("not a + - × expression");
  });
  it("tells no call from a call that does not parse, and an unfinished trajectory from a wrong answer", () => {
    expect(diagnose(["Answer:\n3402"])).toMatchObject({ call: "no call", answer: "right", expression: undefined, copiedResult: undefined });
    expect(diagnose(['<tool_call>\n{"name": "calculate", "arguments": {"expression": " 42\n</tool_call>', "Answer:\n1"])).toMatchObject({ call: "malformed", answer: "other" });
    expect(diagnose([call(" 4212 - 810"), call(" 4212 - 810"), call(" 4212 - 810")], true)).toMatchObject({ call: "right", answer: "unfinished", copiedResult: undefined, finalText: "" });
  });
});
