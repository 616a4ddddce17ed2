/**
 * The agent SFT conversations the agent RL run starts from (tools/rl/agent-sft.ts writes them): each
 * task of datasets/corpus/agent.jsonl becomes one conversation in MiniMind's SFT format
 * (dataset/lm_dataset.py:65-86 reads `tool_calls` as a JSON string and `tool` messages), either
 *
 *   system, user, assistant tool call (`calculate` with the question's expression), tool result,
 *   assistant final answer                                    — a fraction `toolFraction` of them —
 *   system, user, assistant final answer given directly       — the rest.
 *
 * Both kinds state the exact answer, so the SFT model learns to answer either way; a 0.7 M-parameter
 * model's direct answers to 3-4 digit arithmetic are mostly wrong, its calls mostly right. RL with
 * MiniMind's trajectory reward then has something to choose between (lessons/26-tool-use-agentic-rl.md).
 *
 * Both the call and the answer are written so that what the model copies has the same tokens
 * where it is copied from: the expression keeps the question's leading space (" 4212 - 810", the
 * tokens of "what is 4212 - 810"), and the answer puts the value on its own line, as the tool's
 * response does ("Answer:\n3402"); "The answer is 3402" would re-split the digits (" 340" "2").
 *
 * The tools' JSON schemas are not written into the system message unless `withSchemas`: MiniMind's
 * template renders them as a block of ≈ 400 course tokens (a prompt of 446 against 45), beyond what a model pretrained on 64
 * positions can attend over, and 4× the compute of the rest of the conversation. The agent run
 * renders its prompts the same way (AgentSettings.toolsInPrompt).
 */
import { Rng } from "../random.js";
import type { AgentMessage, AgentTask } from "./agent-rollout.js";
import { CALCULATOR_TOOL, executeTool } from "./agent-tools.js";

/** One conversation as lesson 5's `sftSample` reads it (`tool_calls` a JSON string, as MiniMind stores it). */
export interface AgentSftLine {
  conversations: AgentMessage[];
}

export interface AgentSftOptions {
  /** The share of tasks answered through the calculator, in [0, 1]. */
  toolFraction: number;
  /** Seed of the draw that picks which tasks call the tool. */
  seed: number;
  /** Keep the system message's `tools` (MiniMind's schema block in the prompt). */
  withSchemas?: boolean;
}

/** The arithmetic of a task's question with the space before it ("what is 3507 - 761?" → " 3507 - 761"), or undefined. */
export function questionExpression(question: string): string | undefined {
  const m = /(\s?\d+(?:\.\d+)?\s*[-+×*/÷−]\s*\d+(?:\.\d+)?)/.exec(question);
  return m?.[1];
}

/** The final answer both kinds of conversation end with. */
export const finalAnswer = (gt: string): string => `Answer:\n${gt}`;

/**
 * `count` more tasks like agent.jsonl's (tools/data/generate.ts's agentRecord: a in 101-9999, b in
 * 11-999, + − ×), none of whose questions is in `exclude` (pass the held-out questions), with the
 * system message of `like`. Seeded; more distinct numbers for the SFT to learn copying rather than
 * memorise 500 expressions.
 */
export function syntheticAgentTasks(count: number, seed: number, like: AgentTask, exclude: ReadonlySet<string>): AgentTask[] {
  const rng = new Rng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rng.next() * (hi - lo + 1));
  const out: AgentTask[] = [];
  const system = like.messages.find((m) => m.role === "system");
  while (out.length < count) {
    const a = int(101, 9999);
    const b = int(11, 999);
    const op = (["+", "-", "×"] as const)[int(0, 2)];
    const question = `Use the calculator: what is ${a} ${op} ${b}?`;
    if (exclude.has(question)) continue;
    const value = op === "+" ? a + b : op === "-" ? a - b : a * b;
    out.push({ messages: [...(system ? [{ ...system }] : []), { role: "user", content: question }], tools: like.tools, gt: String(value) });
  }
  return out;
}

/**
 * The SFT conversations of `tasks` (see the module comment), in the tasks' order; a task whose
 * question has no arithmetic expression is skipped and counted. Throws on a fraction outside [0, 1].
 */
export function agentSftConversations(tasks: readonly AgentTask[], opts: AgentSftOptions): { lines: AgentSftLine[]; withTool: number; skipped: number } {
  if (!(opts.toolFraction >= 0 && opts.toolFraction <= 1)) throw new RangeError(`the tool fraction must be in [0, 1], got ${opts.toolFraction}`);
  const rng = new Rng(opts.seed);
  const lines: AgentSftLine[] = [];
  let withTool = 0;
  let skipped = 0;
  for (const task of tasks) {
    const question = String(task.messages[task.messages.length - 1]?.content ?? "");
    const expression = questionExpression(question);
    const callTool = rng.next() < opts.toolFraction;
    if (expression === undefined) {
      skipped++;
      continue;
    }
    const head = task.messages.map((m) => {
      if (m.role !== "system" || opts.withSchemas) return { ...m };
      const { tools: _tools, ...rest } = m;
      return rest as AgentMessage;
    });
    const tail: AgentMessage[] = callTool
      ? [
          { role: "assistant", content: "", tool_calls: JSON.stringify([{ name: CALCULATOR_TOOL.function.name, arguments: { expression } }]) },
          { role: "tool", content: executeTool(CALCULATOR_TOOL.function.name, { expression }) },
          { role: "assistant", content: finalAnswer(task.gt) },
        ]
      : [{ role: "assistant", content: finalAnswer(task.gt) }];
    if (callTool) withTool++;
    lines.push({ conversations: [...head, ...tail] });
  }
  return { lines, withTool, skipped };
}
