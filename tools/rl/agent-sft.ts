/**
 * Writes the agent SFT file the agent RL run starts from (lib/rl/agent-sft.ts): every task of
 * datasets/corpus/agent.jsonl (and --synthetic N more like them) as a conversation in MiniMind's
 * SFT format, a fraction of them answered through the calculator (tool call, tool result, answer),
 * the rest answered directly.
 *
 *   node --import tsx tools/rl/agent-sft.ts [--tool-fraction 0.5] [--synthetic 2500] [--seed 42] [--with-schemas] [--out runs/agent-sft/sft.jsonl]
 *
 * Lesson 26's measured start (every conversation through the calculator, 12,000 synthetic tasks):
 *   node --import tsx tools/rl/agent-sft.ts --tool-fraction 1 --synthetic 12000
 *   npm run train -- sft --data runs/agent-sft/sft.jsonl --from runs/pretrain-tiny/pretrain_128.safetensors --out runs/agent-sft \
 *     --max-seq-len 136 --batch-size 8 --learning-rate 0.003 --steps 1200
 *
 * agent-heldout.jsonl is never written: it is what the agent run measures tool use and accuracy on.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ROOT } from "../../grader/engine/paths.js";
import { agentSftConversations, syntheticAgentTasks } from "../../lib/rl/agent-sft.js";
import { AGENT_HELD_OUT, AGENT_TRAIN, loadAgentTasks } from "../../lib/rl/agent-run.js";
import { shown } from "../../lib/train/data.js";
import { TrainError } from "../../lib/train/errors.js";

try {
  const { values } = parseArgs({
    options: { "tool-fraction": { type: "string" }, synthetic: { type: "string" }, seed: { type: "string" }, "with-schemas": { type: "boolean" }, data: { type: "string" }, out: { type: "string" } },
  });
  const fraction = Number(values["tool-fraction"] ?? "0.5");
  if (!(fraction >= 0 && fraction <= 1)) throw new TrainError(`--tool-fraction must be a number in [0, 1], got ${JSON.stringify(values["tool-fraction"])}`, 2);
  const seed = Number(values.seed ?? "42");
  if (!Number.isInteger(seed) || seed < 0) throw new TrainError(`--seed must be an integer ≥ 0, got ${JSON.stringify(values.seed)}`, 2);
  const synthetic = Number(values.synthetic ?? "2500");
  if (!Number.isInteger(synthetic) || synthetic < 0) throw new TrainError(`--synthetic must be an integer ≥ 0, got ${JSON.stringify(values.synthetic)}`, 2);
  const data = resolve(values.data ?? AGENT_TRAIN);
  const out = resolve(values.out ?? join(ROOT, "runs", "agent-sft", "sft.jsonl"));
  const { tasks, skipped } = await loadAgentTasks(data);
  if (tasks.length === 0) throw new TrainError(`no agent tasks in ${shown(data)}`);
  // Synthetic tasks never repeat a held-out question: the agent run measures on those.
  const heldOut = new Set((await loadAgentTasks(AGENT_HELD_OUT)).tasks.map((t) => String(t.messages[t.messages.length - 1]?.content)));
  if (synthetic > 0) tasks.push(...syntheticAgentTasks(synthetic, seed + 1, tasks[0], heldOut));
  const built = agentSftConversations(tasks, { toolFraction: fraction, seed, withSchemas: values["with-schemas"] === true });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, built.lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  const notes = [skipped ? `${skipped} malformed lines skipped` : "", built.skipped ? `${built.skipped} tasks without an arithmetic question skipped` : ""].filter(Boolean);
  console.log(`Wrote ${built.lines.length} conversations (${tasks.length - synthetic} from ${shown(data)}, ${synthetic} synthetic) to ${shown(out)}: ${built.withTool} call the calculator (${((100 * built.withTool) / Math.max(built.lines.length, 1)).toFixed(1)}%), the rest answer directly${notes.length ? ` (${notes.join(", ")})` : ""}`);
} catch (err) {
  if (!(err instanceof TrainError) && !(err instanceof TypeError) && !(err instanceof SyntaxError)) throw err;
  console.error(`agent-sft: ${(err as Error).message}`);
  process.exitCode = 2;
}
