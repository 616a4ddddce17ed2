/**
 * The multi-turn rollout of the agent runs (MiniMind's rollout_single / rollout_batch,
 * trainer/train_agent.py:98-180): render the conversation with the tools (lesson 4's `renderChat`),
 * generate, read the tool calls (lesson 26's `parseToolCalls`), execute them (lib/rl/agent-tools.ts),
 * append the tool messages, and generate again, up to `maxTurns` generations. Each trajectory is
 * packed for training by lesson 26's `agentLossMask` (observation tokens: mask 0, old log-prob 0).
 *
 * Generation is batched over every trajectory still running, with lib/rl/rollout.ts's
 * `sampleCompletions` (lesson 12's KV-cache `generate`); the old log-probs of each turn come from one
 * scoring pass of the sampling policy (lesson 25's `perTokenLogps`), as MiniMind's engine does.
 */
import * as tf from "../tf.js";
import type { MiniMindTS } from "../model/model.js";
import type { TextTokenizer } from "../tokenizer.js";
import { executeTool, statesNumber } from "./agent-tools.js";
import { sampleCompletions, sequenceLogps, type RolloutFunctions } from "./rollout.js";

/** A chat message as lesson 4's `renderChat` takes it. */
export interface AgentMessage {
  role: string;
  content: string;
  [key: string]: unknown;
}

/** One task: the conversation before the assistant's turn, its tools and the exact answer. */
export interface AgentTask {
  messages: AgentMessage[];
  tools: unknown[];
  gt: string;
}

interface ToolCallRequest {
  name: string;
  arguments: Record<string, unknown>;
}
interface AgentTurn {
  ids: number[];
  logps: number[];
  observation: number[];
}
interface Packed {
  inputIds: number[];
  mask: number[];
  oldLogps: number[];
  promptLen: number;
}

/** The lesson functions a rollout runs, resolved by the caller (lib/resolver.ts). */
export interface AgentFunctions extends Pick<RolloutFunctions, "perTokenLogps"> {
  renderChat: (messages: AgentMessage[], options?: { addGenerationPrompt?: boolean; tools?: unknown[] | null }) => string;
  parseToolCalls: (text: string) => ToolCallRequest[];
  agentLossMask: (promptIds: number[], turns: AgentTurn[], padId: number, eosId: number, maxTotalLen: number) => Packed;
}

export interface AgentRolloutOptions {
  /** Trajectories per task (MiniMind's num_generations). */
  numGenerations: number;
  /** Generations per trajectory (MiniMind: 3). */
  maxTurns: number;
  /** New tokens per generation (max_gen_len). */
  maxNewTokens: number;
  /** Packed rows keep their last maxTotalLen ids (max_total_len). */
  maxTotalLen: number;
  temperature: number;
  seed: number;
  greedy?: boolean;
  /** Render the tools' JSON schemas into the system turn (MiniMind's template); false leaves them out of the prompt. Default true. */
  toolsInPrompt?: boolean;
}

/** One finished trajectory. */
export interface AgentTrajectoryResult {
  task: AgentTask;
  /** The text of each generation (special tokens dropped). */
  turnOutputs: string[];
  /** The last allowed generation still called a tool. */
  unfinished: boolean;
  /** Tool calls made, over all turns, and how many named the calculator with an expression. */
  calls: number;
  calculatorCalls: number;
  /** Generations that opened more `<tool_call>` blocks than parseToolCalls could read (malformed calls). */
  parseFailures: number;
  /** The final answer states the exact value (and the trajectory finished). */
  correct: boolean;
  /** The trajectory packed for training (lesson 26's agentLossMask). */
  packed: Packed;
  /** The whole conversation as rendered at the end (for samples and reports). */
  transcript: string;
}

interface State {
  task: AgentTask;
  messages: AgentMessage[];
  promptIds: number[];
  contextIds: number[];
  contextText: string;
  turns: AgentTurn[];
  turnOutputs: string[];
  calls: number;
  calculatorCalls: number;
  parseFailures: number;
  unfinished: boolean;
  done: boolean;
}

/** Runs `numGenerations` trajectories of every task (see the module comment); rows i·G … i·G + G − 1 are task i's. */
export function agentRollouts(model: MiniMindTS, tok: TextTokenizer, fns: AgentFunctions, tasks: readonly AgentTask[], opts: AgentRolloutOptions): AgentTrajectoryResult[] {
  const decode = (ids: number[]) => tok.decode(ids, { skipSpecialTokens: true });
  const shownTools = (task: AgentTask) => (opts.toolsInPrompt === false ? null : task.tools);
  const states: State[] = tasks.flatMap((task) =>
    Array.from({ length: opts.numGenerations }, () => {
      const messages = task.messages.map((m) => ({ ...m }));
      const contextText = fns.renderChat(messages, { addGenerationPrompt: true, tools: shownTools(task) });
      const promptIds = tok.encode(contextText);
      return { task, messages, promptIds, contextIds: [...promptIds], contextText, turns: [], turnOutputs: [], calls: 0, calculatorCalls: 0, parseFailures: 0, unfinished: false, done: false };
    }),
  );
  for (let turn = 0; turn < opts.maxTurns; turn++) {
    const active = states.filter((s) => !s.done);
    if (active.length === 0) break;
    const sampled = sampleCompletions(model, active.map((s) => s.contextIds), decode, {
      numGenerations: 1,
      maxNewTokens: opts.maxNewTokens,
      temperature: opts.temperature,
      seed: opts.seed * 101 + turn,
      eosId: tok.eosId,
      padId: tok.padId,
      greedy: opts.greedy,
    });
    const logps = turnLogps(model, fns, sampled.padded, sampled.completion, sampled.padMask);
    active.forEach((s, b) => {
      const real = sampled.padMask[b].reduce((a, x) => a + x, 0);
      const ids = sampled.completion[b].slice(0, real);
      const text = sampled.texts[b];
      s.turnOutputs.push(text);
      const t: AgentTurn = { ids, logps: logps[b].slice(0, real), observation: [] };
      s.turns.push(t);
      const calls = fns.parseToolCalls(text);
      if (text.split("<tool_call>").length - 1 > calls.length) s.parseFailures++;
      if (calls.length === 0) {
        s.done = true;
        return;
      }
      s.calls += calls.length;
      s.unfinished = turn === opts.maxTurns - 1;
      const before = s.contextText + text;
      s.messages.push({ role: "assistant", content: text });
      for (const c of calls) {
        if (c.name === "calculate" && typeof c.arguments.expression === "string") s.calculatorCalls++;
        s.messages.push({ role: "tool", content: executeTool(c.name, c.arguments) });
      }
      const observed = fns.renderChat(s.messages, { addGenerationPrompt: !s.unfinished, tools: shownTools(s.task) });
      // MiniMind slices the re-tokenized conversation at the current length (148-149); slicing the
      // text first keeps the tokens of the model's own turn as they were sampled.
      t.observation = observed.startsWith(before) ? tok.encode(observed.slice(before.length)) : tok.encode(observed).slice(s.promptIds.length + s.turns.reduce((n, x) => n + x.ids.length, 0));
      s.contextIds = [...s.contextIds, ...ids.filter((id) => id !== tok.eosId && id !== tok.padId), ...t.observation];
      s.contextText = observed;
      if (s.unfinished) s.done = true;
    });
  }
  return states.map((s) => {
    const final = s.turnOutputs[s.turnOutputs.length - 1] ?? "";
    return {
      task: s.task,
      turnOutputs: s.turnOutputs,
      unfinished: s.unfinished,
      calls: s.calls,
      calculatorCalls: s.calculatorCalls,
      parseFailures: s.parseFailures,
      correct: !s.unfinished && statesNumber(final.split("</tool_call>").pop() ?? "", s.task.gt),
      packed: fns.agentLossMask(s.promptIds, s.turns, tok.padId, tok.eosId, opts.maxTotalLen),
      transcript: s.contextText + (s.unfinished ? "" : final),
    };
  });
}

/** Log-probs of each row's sampled tokens under the sampling policy: [B][R] (0 on padding). */
function turnLogps(model: MiniMindTS, fns: Pick<RolloutFunctions, "perTokenLogps">, padded: { ids: number[][]; mask: number[][]; length: number }, completion: number[][], padMask: number[][]): number[][] {
  const B = completion.length;
  const R = completion[0].length;
  const seq = tf.tensor2d(padded.ids.map((p, b) => [...p, ...completion[b]]).flat(), [B, padded.length + R], "int32");
  const att = tf.tensor2d(padded.mask.map((m, b) => [...m, ...padMask[b]]).flat(), [B, padded.length + R], "float32");
  const lp = sequenceLogps(model, fns, seq, att, R);
  const out = lp.arraySync() as number[][];
  tf.dispose([seq, att, lp]);
  return out;
}
