/**
 * capstone/report.html: one self-contained page (inline SVG, no scripts) with every section the
 * capstone promises: the pipeline, parameter counts, timings, whose functions ran, each stage's
 * curves, samples at the fixed prompts after each stage, and the final accuracies.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { TokenizerReport } from "./tokenizer-stage.js";

/** What the capstone knows about one stage after running (or skipping) it. */
export interface StageOutcome {
  name: string;
  purpose: string;
  source: string;
  /** "stopped": a Ctrl-C or SIGTERM ended it; the next capstone runs it again. */
  status: "ran" | "reused" | "unavailable" | "failed" | "stopped";
  /** Why a stage did not run, or how it failed. */
  note?: string;
  dir: string;
  /** Wall time of the stage's run; for a reused stage, of the run that made it (see wallFrom). */
  wallSeconds?: number;
  /**
   * Where a reused stage's wall time comes from: "capstone", the time the capstone measured when it
   * ran the stage (kept in the stage's folder), or "run.json", the run's training time alone.
   */
  wallFrom?: "capstone" | "run.json";
  /** How long it ran, from its numbers ("ran 10 steps", "ran the first 300 steps of a 1200-step schedule"). */
  length?: string;
  /** The stage's run.json, when it has one. */
  run?: Record<string, unknown>;
  samples?: Array<{ prompt: string; text: string }>;
}

export interface CapstoneReport {
  mode: string;
  config: string;
  startedAt: string;
  /** Wall time of this invocation. */
  totalSeconds: number;
  /** What the reused stages (and a reused tokenizer) took when they ran. */
  reusedSeconds?: number;
  backend: string;
  tokenizer?: TokenizerReport;
  tokenizerReused?: boolean;
  stages: StageOutcome[];
}

/** The report's sections, by id, in order (the CI test checks each is present). */
export const SECTIONS = ["pipeline", "parameters", "timings", "functions", "curves", "samples", "accuracies"] as const;

const esc = (s: unknown) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const pct = (x: unknown) => (typeof x === "number" ? `${(x * 100).toFixed(1)}%` : "–");

/** The held-out measures a stage's run.json reports, as "before → after" rows (RL: accuracy; agent: tool use). */
function accuracies(run: Record<string, unknown>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const acc = run.accuracy as { before?: number; after?: number } | undefined;
  if (typeof acc?.before === "number" && typeof acc.after === "number") out.push(["held-out exact match", `${pct(acc.before)} → ${pct(acc.after)}`]);
  const held = run.heldOut as { before?: Record<string, number>; after?: Record<string, number> } | undefined;
  for (const key of ["toolCallRate", "accuracy"]) {
    if (typeof held?.before?.[key] === "number" && typeof held.after?.[key] === "number") out.push([key === "accuracy" ? "held-out accuracy (agent)" : "held-out tool-call rate", `${pct(held.before[key])} → ${pct(held.after[key])}`]);
  }
  const loss = run.heldOutLoss as { before?: number; after?: number } | undefined;
  const kept = run.kept as { rule?: string; step?: number; lastStep?: number; lastHeldOutLoss?: number } | undefined;
  const keptNote = kept?.rule === "best" && typeof kept.step === "number" && kept.step !== kept.lastStep ? ` (kept step ${kept.step}, the lowest; step ${kept.lastStep}: ${kept.lastHeldOutLoss?.toFixed(3)})` : "";
  if (typeof loss?.before === "number" && typeof loss.after === "number") out.push(["held-out loss", `${loss.before.toFixed(3)} → ${loss.after.toFixed(3)}${keptNote}`]);
  return out;
}

/** Functions of every stage: name → lesson, and whose ran in which stage. */
function functionTable(r: CapstoneReport): string {
  const rows = new Map<string, { lesson: string; whose: Map<string, string> }>();
  const add = (stage: string, fns: unknown) => {
    for (const f of (fns as Array<{ lesson: string; name: string; whose?: string; source?: string }>) ?? []) {
      const key = f.name;
      if (!rows.has(key)) rows.set(key, { lesson: f.lesson, whose: new Map() });
      rows.get(key)!.whose.set(stage, f.whose ?? (f.source === "exercises" ? "yours" : "reference"));
    }
  };
  if (r.tokenizer) add("tokenizer", r.tokenizer.functions);
  for (const s of r.stages) add(s.name, s.run?.functions);
  const stages = ["tokenizer", ...r.stages.map((s) => s.name)];
  const body = [...rows.entries()]
    .sort((a, b) => Number(a[1].lesson.slice(7)) - Number(b[1].lesson.slice(7)))
    .map(([name, { lesson, whose }]) => `<tr><td>${esc(lesson)}</td><td><code>${esc(name)}</code></td>${stages.map((s) => `<td class="${whose.get(s) ?? ""}">${esc(whose.get(s) ?? "")}</td>`).join("")}</tr>`)
    .join("\n");
  const yours = [...rows.values()].filter((v) => [...v.whose.values()].includes("yours")).length;
  return `<p>${yours} of ${rows.size} lesson functions that ran were yours (they pass grading); the others were the reference. Finish a lesson (<code>npm run grade lesson-NN</code>) and rerun with <code>--fresh</code> to watch your code train the model.</p>
<table><tr><th>lesson</th><th>function</th>${stages.map((s) => `<th>${esc(s)}</th>`).join("")}</tr>
${body}</table>`;
}

/** The HTML page. */
export function renderReport(r: CapstoneReport): string {
  const ran = r.stages.filter((s) => s.run);
  const reused = r.reusedSeconds ?? 0;
  const wall = (s: StageOutcome) =>
    s.wallSeconds === undefined ? "–" : `${s.wallSeconds.toFixed(1)}${s.status === "reused" ? (s.wallFrom === "run.json" ? " (training alone, when it ran)" : " (when it ran)") : ""}`;
  const pipeline = `<ol>${r.tokenizer ? `<li><b>tokenizer</b> — byte-level BPE with lesson 4's <code>bpeTrain</code> (trainer/train_tokenizer.py): ${r.tokenizer.vocabSize} ids in ${r.tokenizer.seconds} s; the model stages use ${esc(r.tokenizer.courseTokenizer.name)} (${r.tokenizer.courseTokenizer.vocabSize} ids)</li>` : ""}
${r.stages.map((s) => `<li><b>${esc(s.name)}</b> (${esc(s.source)}) — ${esc(s.purpose)}${s.length ? `; ${esc(s.length)}` : ""}. <i>${esc(s.status)}${s.note ? `: ${esc(s.note)}` : ""}</i></li>`).join("\n")}</ol>`;
  let lastCount: number | undefined;
  const params = `<table><tr><th>stage</th><th>parameters</th><th>model</th></tr>${ran
    .map((s) => {
      const m = (s.run!.model ?? {}) as Record<string, unknown>;
      const own = typeof s.run!.parameters === "number" ? (s.run!.parameters as number) : undefined;
      lastCount = own ?? lastCount;
      const shown = own !== undefined ? own.toLocaleString("en-US") : lastCount !== undefined ? `${lastCount.toLocaleString("en-US")} (the same model as the stage before)` : "–";
      return `<tr><td>${esc(s.name)}</td><td>${shown}</td><td>hidden ${esc(m.hiddenSize ?? "?")}, ${esc(m.numHiddenLayers ?? "?")} layers, vocab ${esc(m.vocabSize ?? "?")}</td></tr>`;
    })
    .join("")}</table>`;
  const timings = `<table><tr><th>stage</th><th>status</th><th>wall time (s)</th><th>training time (s)</th><th>steps</th></tr>${r.tokenizer ? `<tr><td>tokenizer</td><td>${r.tokenizerReused ? "reused" : "ran"}</td><td>${r.tokenizer.seconds}</td><td>–</td><td>${r.tokenizer.merges} merges</td></tr>` : ""}${r.stages
    .map((s) => `<tr><td>${esc(s.name)}</td><td>${esc(s.status)}</td><td>${wall(s)}</td><td>${esc(s.run?.trainSeconds ?? s.run?.wallSeconds ?? "–")}</td><td>${esc(s.run?.steps ?? "–")}</td></tr>`)
    .join("")}<tr><td><b>this run</b></td><td></td><td>${r.totalSeconds.toFixed(1)}</td><td></td><td></td></tr>${reused > 0 ? `<tr><td><b>in all</b></td><td>with the reused stages' own times</td><td>${(r.totalSeconds + reused).toFixed(1)}</td><td></td><td></td></tr>` : ""}</table>`;
  const curves = ran
    .map((s) => {
      const svgs = ["loss.svg", "reward.svg", "kl.svg", "accuracy.svg", "agent.svg"].filter((f) => existsSync(join(s.dir, f)));
      return `<h3>${esc(s.name)}</h3>${svgs.length ? svgs.map((f) => `<figure>${readFileSync(join(s.dir, f), "utf8").replace(/^<\?xml[^>]*>\s*/, "")}<figcaption>${esc(s.name)}/${esc(f)}</figcaption></figure>`).join("") : "<p>(no curve written)</p>"}`;
    })
    .join("\n");
  const prompts = [...new Set(r.stages.flatMap((s) => s.samples?.map((x) => x.prompt) ?? []))];
  const withSamples = r.stages.filter((s) => s.samples);
  const samples = `<table><tr><th>prompt</th>${withSamples.map((s) => `<th>after ${esc(s.name)}</th>`).join("")}</tr>${prompts
    .map((p) => `<tr><td><code>${esc(p)}</code></td>${withSamples.map((s) => `<td><pre>${esc(s.samples!.find((x) => x.prompt === p)?.text ?? "")}</pre></td>`).join("")}</tr>`)
    .join("")}</table>`;
  const acc = ran.flatMap((s) => accuracies(s.run!).map(([k, v]) => `<tr><td>${esc(s.name)}</td><td>${esc(k)}</td><td>${esc(v)}</td></tr>`));
  const accuracy = `<table><tr><th>stage</th><th>measure</th><th>before → after</th></tr>${acc.join("") || '<tr><td colspan="3">no stage reported an accuracy</td></tr>'}</table>`;
  const tok = r.tokenizer
    ? `<p>Your BPE (trained on ${r.tokenizer.trainedOn.bytes.toLocaleString("en-US")} bytes): ${r.tokenizer.bytesPerToken.yours} bytes per token on held-out text; the course tokenizer: ${r.tokenizer.bytesPerToken.course}. "${esc(r.tokenizer.example.text)}" → ${r.tokenizer.example.tokens.map((t) => `<code>${esc(t)}</code>`).join(" ")}</p>`
    : "";
  const section = (id: string, title: string, body: string) => `<section id="${id}"><h2>${title}</h2>${body}</section>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Capstone report (${esc(r.mode)})</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top;text-align:left}pre{margin:0;white-space:pre-wrap;max-width:28em}td.yours{background:#dff5df}td.reference{color:#666}figure{display:inline-block;margin:0.5em}svg{max-width:100%;height:auto}</style></head>
<body><h1>Capstone: tokenizer → pretrain → SFT → RL</h1>
<p>Mode <b>${esc(r.mode)}</b>, config <b>${esc(r.config)}</b>, ${esc(r.backend)} backend, started ${esc(r.startedAt)}, ${r.totalSeconds.toFixed(1)} s this run${reused > 0 ? ` (it reused stages that took ${reused.toFixed(1)} s when they ran: ${(r.totalSeconds + reused).toFixed(1)} s in all)` : ""}.</p>
${section("pipeline", "Pipeline", pipeline + tok)}
${section("parameters", "Parameter counts", params)}
${section("timings", "Timings", timings)}
${section("functions", "Whose functions ran", functionTable(r))}
${section("curves", "Curves", curves || "<p>(no stage ran)</p>")}
${section("samples", "Samples at fixed prompts after each stage", samples)}
${section("accuracies", "Final accuracies", accuracy)}
</body></html>
`;
}
