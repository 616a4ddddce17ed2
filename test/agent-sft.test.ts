/**
 * The agent SFT writer (lib/rl/agent-sft.ts, tools/rl/agent-sft.ts): the share of conversations
 * that call the calculator is the one asked for, every line is a conversation the SFT stage reads
 * (lesson 5's sftSample labels the call and the answer, not the tool's result), the call parses
 * (lesson 26's parseToolCalls) into an expression the calculator evaluates to the task's answer,
 * and bad options get a clear message and exit 2.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../grader/engine/paths.js";
import { isConversationRecord } from "../lib/data/jsonl.js";
import { AGENT_TRAIN, loadAgentTasks } from "../lib/rl/agent-run.js";
import type { AgentTask } from "../lib/rl/agent-rollout.js";
import { agentSftConversations, finalAnswer, questionExpression, syntheticAgentTasks } from "../lib/rl/agent-sft.js";
import { calculate } from "../lib/rl/agent-tools.js";
import { trainTokenizer } from "../lib/train/tokenizer.js";
import { renderChat } from "../solutions/lesson-4/chat-template.js";
import { sftSample } from "../solutions/lesson-5/sft.js";
import { parseToolCalls } from "../solutions/lesson-26/tool-calls.js";

let tasks: AgentTask[];
let work: string;
beforeAll(async () => {
  tasks = (await loadAgentTasks(AGENT_TRAIN)).tasks;
  work = mkdtempSync(join(tmpdir(), "course-agent-sft-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const calls = (line: { conversations: Array<Record<string, unknown>> }) => line.conversations.filter((m) => m.tool_calls !== undefined).length;

describe("agentSftConversations", () => {
  it("sends the asked share of tasks through the calculator, reproducibly", () => {
    expect(tasks.length).toBe(500);
    for (const fraction of [0, 0.4, 1]) {
      const built = agentSftConversations(tasks, { toolFraction: fraction, seed: 42 });
      expect(built.lines.length).toBe(tasks.length);
      expect(built.lines.filter((l) => calls(l) > 0).length).toBe(built.withTool);
      expect(Math.abs(built.withTool / tasks.length - fraction)).toBeLessThan(0.06);
    }
    const again = agentSftConversations(tasks, { toolFraction: 0.4, seed: 42 });
    expect(again.lines).toEqual(agentSftConversations(tasks, { toolFraction: 0.4, seed: 42 }).lines);
    expect(again.lines).not.toEqual(agentSftConversations(tasks, { toolFraction: 0.4, seed: 7 }).lines);
    expect(() => agentSftConversations(tasks, { toolFraction: 1.5, seed: 1 })).toThrow(/\[0, 1\]/);
  });

  it("reads the question's arithmetic, leading space kept so the call copies the question's tokens", () => {
    expect(questionExpression("Use the calculator: what is 3507 - 761?")).toBe(" 3507 - 761");
    expect(questionExpression("what is 8958 × 132?")).toBe(" 8958 × 132");
    expect(questionExpression("hello")).toBeUndefined();
    const tok = trainTokenizer();
    const q = tok.encode("Use the calculator: what is 4212 - 810?");
    const e = tok.encode(questionExpression("what is 4212 - 810?")!);
    expect(q.slice(q.length - 1 - e.length, q.length - 1)).toEqual(e);
    // The answer's value is tokenised as the tool's response shows it ("\n3402\n").
    const response = tok.encode("<tool_response>\n3402\n</tool_response>");
    const answer = tok.encode(finalAnswer("3402"));
    expect(answer.slice(-3)).toEqual(response.slice(2, 5));
  });

  it("makes synthetic tasks like agent.jsonl's, never a held-out question, each answer exact", () => {
    const exclude = new Set(tasks.slice(0, 50).map((t) => String(t.messages[t.messages.length - 1].content)));
    const made = syntheticAgentTasks(300, 5, tasks[0], exclude);
    expect(made.length).toBe(300);
    for (const t of made) {
      const q = String(t.messages[t.messages.length - 1].content);
      expect(q).toMatch(/^Use the calculator: what is \d+ [-+×] \d+\?$/);
      expect(exclude.has(q)).toBe(false);
      expect(calculate(questionExpression(q)!)).toBe(Number(t.gt));
      expect(t.messages[0].role).toBe("system");
    }
    expect(new Set(made.map((t) => t.messages[1].content)).size).toBeGreaterThan(290);
  });

  it("writes conversations the SFT stage reads: the call and the answer labelled, the tool's result not", () => {
    const tok = trainTokenizer();
    const { lines } = agentSftConversations(tasks.slice(0, 40), { toolFraction: 0.5, seed: 3 });
    const withTool = lines.find((l) => calls(l) > 0)!;
    const direct = lines.find((l) => calls(l) === 0)!;
    for (const line of [withTool, direct]) {
      const parsed = JSON.parse(JSON.stringify(line));
      expect(isConversationRecord(parsed)).toBeUndefined();
      // The system message keeps its text, not the tools' schemas (AgentSettings.toolsInPrompt).
      expect(parsed.conversations[0]).toEqual({ role: "system", content: "You can use tools." });
    }
    const task = tasks.find((t) => withTool.conversations[1].content === t.messages[t.messages.length - 1].content)!;
    // random() = 0.99 keeps the empty think blocks (MiniMind's removal draws above 0.2 remove them): 0.1 removes them.
    for (const draw of [0.1, 0.99]) {
      const { inputIds, labels } = sftSample(JSON.parse(JSON.stringify(withTool.conversations)), tok, 160, () => draw);
      const labelled = tok.decode(inputIds.filter((_, i) => labels[i] !== -100));
      expect(labelled).toContain("<tool_call>");
      expect(labelled).toContain(finalAnswer(task.gt));
      expect(labelled).not.toContain("<tool_response>");
      const [call] = parseToolCalls(labelled.split("<|im_end|>")[0]);
      expect(call.name).toBe("calculate");
      expect(calculate(String(call.arguments.expression))).toBe(Number(task.gt));
      expect(inputIds.filter((id) => id !== tok.padId).length).toBeLessThanOrEqual(144);
    }
    const rendered = renderChat(JSON.parse(JSON.stringify(direct.conversations)));
    expect(rendered).not.toContain("<tool_call>");
    expect(rendered).not.toContain("<tools>");
  });
});

describe("tools/rl/agent-sft.ts", () => {
  const run = (args: string[]) => spawnSync(process.execPath, ["--import", "tsx", "tools/rl/agent-sft.ts", ...args], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
  it("writes the file and says how many call the tool", () => {
    const out = join(work, "sft.jsonl");
    const r = run(["--tool-fraction", "0.3", "--out", out]);
    expect(r.status, r.stderr).toBe(0);
    const lines = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const withTool = lines.filter((l) => calls(l) > 0).length;
    expect(r.stdout).toContain(`${withTool} call the calculator`);
    expect(withTool / lines.length).toBeGreaterThan(0.24);
    expect(withTool / lines.length).toBeLessThan(0.36);
  }, 60_000);
  it("refuses a fraction outside [0, 1] with exit 2 and no stack trace", () => {
    const r = run(["--tool-fraction", "2", "--out", join(work, "bad.jsonl")]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--tool-fraction must be a number in \[0, 1\]/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
