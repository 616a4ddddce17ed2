/**
 * Where an agent model's held-out answers go wrong (tools/rl/agent-diagnosis.ts): one greedy and one
 * sampled trajectory per task, as the agent run evaluates (lib/rl/agent-run.ts's settings), counted
 * by the verdict on the call (the copy of the question's numbers) and on the answer (the copy of the
 * tool's result), with the first few transcripts.
 *
 *   node --import tsx tools/rl/agent-eval.ts WEIGHTS [--data FILE] [--tasks 100] [--transcripts 20] [--temperature 0.8]
 *     [--validation N [--exclude SFT.jsonl]] [--json OUT.json] [--use-reference lesson-N,…|all]
 *
 * --data picks the tasks (default datasets/corpus/agent-heldout.jsonl, its first --tasks). --validation N
 * measures instead on N fresh tasks drawn like the SFT's synthetic ones (seed 7), none of them a
 * held-out, agent.jsonl or --exclude question: a split for choosing between runs without looking at
 * the held-out numbers.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { initBackend } from "../../lib/backend.js";
import { MiniMindTS } from "../../lib/model/model.js";
import type { MiniMindConfig } from "../../lib/model/config.js";
import { resolveRun, runningPieces } from "../../lib/model/pieces.js";
import { decodeSafetensors } from "../../lib/model/safetensors.js";
import { describeRun } from "../../lib/resolver.js";
import { agentRollouts, type AgentFunctions, type AgentTask, type AgentTrajectoryResult } from "../../lib/rl/agent-rollout.js";
import { AGENT_DEFAULTS, AGENT_HELD_OUT, AGENT_TRAIN, loadAgentTasks } from "../../lib/rl/agent-run.js";
import { syntheticAgentTasks } from "../../lib/rl/agent-sft.js";
import { loadWeights } from "../../lib/train/checkpoint.js";
import { shown } from "../../lib/train/data.js";
import { TrainError } from "../../lib/train/errors.js";
import { trainTokenizer } from "../../lib/train/tokenizer.js";
import * as tf from "../../lib/tf.js";
import { parseOptions, runCommand, UsageError } from "../loop/cli-support.js";
import { diagnoseTrajectory, type AgentDiagnosis } from "./agent-diagnosis.js";

const USAGE = `usage: node --import tsx tools/rl/agent-eval.ts WEIGHTS [--data FILE] [--tasks N] [--transcripts N] [--temperature T]
       [--validation N [--exclude SFT.jsonl]] [--json OUT.json] [--use-reference lesson-N,…|all]`;

const HOMES: Record<keyof AgentFunctions, string> = { renderChat: "lesson-4", perTokenLogps: "lesson-25", parseToolCalls: "lesson-26", agentLossMask: "lesson-26" };

const question = (t: AgentTask) => String(t.messages[t.messages.length - 1]?.content ?? "");

/** The user questions of an SFT file's conversations (lines that do not parse are skipped). */
function sftQuestions(path: string): string[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .flatMap((l) => {
      try {
        const conv = (JSON.parse(l) as { conversations?: Array<{ role: string; content: string }> }).conversations ?? [];
        return conv.filter((m) => m.role === "user").map((m) => String(m.content));
      } catch {
        return [];
      }
    });
}

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} must be a whole number ≥ 0, got ${JSON.stringify(raw)}`);
  return n;
}

/** Counts of each call × answer verdict, and the rates the agent run reports. */
function tally(trajs: AgentTrajectoryResult[], diagnoses: AgentDiagnosis[]) {
  const n = Math.max(trajs.length, 1);
  const cells: Record<string, number> = {};
  for (const d of diagnoses) cells[`${d.call} | ${d.answer}`] = (cells[`${d.call} | ${d.answer}`] ?? 0) + 1;
  return {
    accuracy: trajs.filter((t) => t.correct).length / n,
    toolCallRate: trajs.filter((t) => t.calculatorCalls > 0).length / n,
    parseFailureRate: trajs.filter((t) => t.parseFailures > 0).length / n,
    rightCalls: diagnoses.filter((d) => d.call === "right").length / n,
    rightAfterRightCall: diagnoses.filter((d) => d.call === "right" && d.answer === "right").length / Math.max(diagnoses.filter((d) => d.call === "right").length, 1),
    toolResultCopied: diagnoses.filter((d) => d.copiedResult === true).length / Math.max(diagnoses.filter((d) => d.copiedResult !== undefined).length, 1),
    cells: Object.fromEntries(Object.entries(cells).sort((a, b) => b[1] - a[1])),
  };
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    argv,
    {
      data: { type: "string" },
      tasks: { type: "string" },
      transcripts: { type: "string" },
      temperature: { type: "string" },
      validation: { type: "string" },
      exclude: { type: "string" },
      json: { type: "string" },
      "use-reference": { type: "string", multiple: true },
    },
    { positionals: true },
  );
  if (positionals.length !== 1) throw new UsageError("one weights file, please");
  const weightsFile = resolve(positionals[0]);
  const count = positive("tasks", values.tasks, AGENT_DEFAULTS.evalTasks);
  const shownCount = positive("transcripts", values.transcripts, 20);
  const validation = positive("validation", values.validation, 0);
  const temperature = values.temperature === undefined ? AGENT_DEFAULTS.temperature : Number(values.temperature);
  if (!(temperature > 0)) throw new UsageError(`--temperature must be a positive number, got ${JSON.stringify(values.temperature)}`);
  try {
    if (!existsSync(weightsFile)) throw new TrainError(`${shown(weightsFile)}: no such weights file`);
    const meta = decodeSafetensors(new Uint8Array(readFileSync(weightsFile))).metadata.config;
    if (!meta) throw new TrainError(`${shown(weightsFile)} has no model config in its metadata (not a course weights file)`);
    const config = JSON.parse(meta) as MiniMindConfig;
    let tasks: AgentTask[];
    let source: string;
    if (validation > 0) {
      const exclude = new Set([...(await loadAgentTasks(AGENT_HELD_OUT)).tasks.map(question), ...(await loadAgentTasks(AGENT_TRAIN)).tasks.map(question), ...(values.exclude ? sftQuestions(resolve(values.exclude)) : [])]);
      const like = (await loadAgentTasks(AGENT_TRAIN)).tasks[0];
      tasks = syntheticAgentTasks(validation, 7, like, exclude);
      source = `${validation} validation tasks (synthetic, seed 7, none held out, in agent.jsonl${values.exclude ? ` or in ${shown(resolve(values.exclude))}` : ""})`;
    } else {
      const data = resolve(values.data ?? AGENT_HELD_OUT);
      tasks = (await loadAgentTasks(data, count)).tasks;
      source = `${shown(data)} (first ${tasks.length})`;
    }
    if (tasks.length === 0) throw new TrainError(`no agent tasks in ${source}`);
    await initBackend("wasm");
    const useReference = (values["use-reference"] ?? []).flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) => v !== "");
    const { fns, pieces, choices } = await resolveRun<AgentFunctions>(runningPieces(config), HOMES, { useReference });
    for (const line of describeRun(choices)) console.log(line);
    const tok = trainTokenizer();
    const weights = loadWeights(weightsFile, config, "its own config");
    const tensors = Object.fromEntries(Object.entries(weights).map(([k, t]) => [k, tf.tensor(t.data, t.shape, "float32")]));
    const model = new MiniMindTS(config, tensors, { pieces });
    const settings = { ...AGENT_DEFAULTS, temperature, numGenerations: 1 };
    const runs = { greedy: agentRollouts(model, tok, fns, tasks, { ...settings, seed: 1, greedy: true }), sampled: agentRollouts(model, tok, fns, tasks, { ...settings, seed: 2 }) };
    const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
    const report: Record<string, unknown> = { weights: shown(weightsFile), tasks: source, temperature };
    console.log(`${shown(weightsFile)} on ${source}:`);
    for (const [mode, trajs] of Object.entries(runs)) {
      const diagnoses = trajs.map((t) => diagnoseTrajectory(question(t.task), t.task.gt, t.turnOutputs, t.unfinished, fns.parseToolCalls));
      const t = tally(trajs, diagnoses);
      console.log(`\n${mode}${mode === "sampled" ? ` (T=${temperature})` : ""}: accuracy ${pct(t.accuracy)}, tool calls ${pct(t.toolCallRate)}, malformed ${pct(t.parseFailureRate)}; calls with the question's numbers and operator ${pct(t.rightCalls)}, right answers after a right call ${pct(t.rightAfterRightCall)}, answers that repeat the tool's result ${pct(t.toolResultCopied)}`);
      console.log("  call | answer: count");
      for (const [cell, n] of Object.entries(t.cells)) console.log(`  ${cell}: ${n}`);
      const transcripts = trajs.slice(0, shownCount).map((tr, i) => ({ question: question(tr.task), gt: tr.task.gt, call: diagnoses[i].call, answer: diagnoses[i].answer, expression: diagnoses[i].expression, toolResult: diagnoses[i].toolResult, finalText: diagnoses[i].finalText }));
      if (mode === "sampled")
        for (const x of transcripts) console.log(`  ${JSON.stringify(x.question)} gt ${x.gt}: call ${JSON.stringify(x.expression ?? null)} → ${x.toolResult ?? "-"}; final ${JSON.stringify(x.finalText)} [${x.call} | ${x.answer}]`);
      report[mode] = { ...t, transcripts };
    }
    model.dispose();
    if (values.json) writeFileSync(resolve(values.json), `${JSON.stringify(report, null, 2)}\n`);
    return 0;
  } catch (err) {
    if (err instanceof TrainError) {
      console.error(`agent-eval: ${err.message}`);
      return err.exitCode;
    }
    throw err;
  }
}

await runCommand(USAGE, () => main(process.argv.slice(2)), { lessonFunctions: true });
