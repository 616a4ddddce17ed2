/**
 * `npm run capstone`: the whole pipeline in one command (see lib/capstone/stages.ts), resumable stage
 * by stage. Each model stage is a run of `npm run train` (tools/train/cli.ts, a child process, its
 * output shown and kept in <stage>/train.log); a stage whose run.json and weights are already in the
 * output folder is reused, not rerun (--fresh reruns all). After every stage the fixed prompts are
 * generated from its weights and report.html is rewritten, so an interrupted run still has a report.
 */
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import * as tf from "../tf.js";
import { ROOT } from "../../grader/engine/paths.js";
import { PRESETS } from "../train/settings.js";
import { STAGE_NAMES } from "../train/stages/index.js";
import { renderReport, type CapstoneReport, type StageOutcome } from "./report.js";
import { fixedPromptSamples } from "./samples.js";
import { CAPSTONE_STAGES, stageDir, type Mode } from "./stages.js";
import { runTokenizerStage, type TokenizerReport } from "./tokenizer-stage.js";

export interface CapstoneOptions {
  mode: Mode;
  outDir: string;
  /** Optional stages to add (dpo, agent). */
  with: string[];
  fresh: boolean;
  useReference: string[];
  log?: (line: string) => void;
}

const show = (p: string) => {
  const r = relative(ROOT, p);
  return r.startsWith("..") ? p : r;
};

/** Runs `npm run train` with `args`; its output goes to the console (indented) and to `logFile`. */
function runTrain(args: string[], logFile: string, log: (l: string) => void): Promise<number> {
  return new Promise((resolve) => {
    const file = createWriteStream(logFile);
    const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "tools", "train", "cli.ts"), ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let pending = "";
    const onData = (chunk: Buffer) => {
      file.write(chunk);
      pending += chunk.toString();
      const parts = pending.split("\n");
      pending = parts.pop() ?? "";
      for (const p of parts) log(`    ${p}`);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("close", (code) => {
      if (pending) log(`    ${pending}`);
      file.end();
      resolve(code ?? 1);
    });
  });
}

/** Runs the capstone (see the module comment); returns the report it wrote. */
export async function runCapstone(opts: CapstoneOptions): Promise<{ report: CapstoneReport; file: string; failed: string[] }> {
  const log = opts.log ?? ((l: string) => console.log(l));
  const configName = opts.mode === "quick" ? "micro" : "tiny";
  const hidden = PRESETS[configName].model.hiddenSize!;
  if (opts.fresh) rmSync(opts.outDir, { recursive: true, force: true });
  mkdirSync(opts.outDir, { recursive: true });
  const started = performance.now();
  const report: CapstoneReport = { mode: opts.mode, config: configName, startedAt: new Date().toISOString(), totalSeconds: 0, backend: tf.getBackend(), stages: [] };
  const file = join(opts.outDir, "report.html");
  const write = () => {
    report.totalSeconds = (performance.now() - started) / 1000;
    writeFileSync(join(opts.outDir, "capstone.json"), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(file, renderReport(report));
  };

  // 1. Tokenizer (in this process: lesson 4's bpeTrain on a slice of the corpus).
  const tokFile = join(opts.outDir, "tokenizer.json");
  if (existsSync(tokFile)) {
    report.tokenizer = JSON.parse(readFileSync(tokFile, "utf8")) as TokenizerReport;
    log(`tokenizer: reused ${show(tokFile)}`);
  } else {
    log("tokenizer: training a byte-level BPE with lesson 4's bpeTrain …");
    report.tokenizer = await runTokenizerStage(opts.mode, opts.useReference);
    writeFileSync(tokFile, `${JSON.stringify(report.tokenizer, null, 2)}\n`);
    log(`tokenizer: ${report.tokenizer.vocabSize} ids in ${report.tokenizer.seconds} s, ${report.tokenizer.bytesPerToken.yours} bytes/token (course tokenizer ${report.tokenizer.bytesPerToken.course})`);
  }
  write();

  // 2. The model stages, through npm run train's registry.
  const failed: string[] = [];
  const weightsOf = new Map<string, string>();
  for (const stage of CAPSTONE_STAGES) {
    if (stage.optional && !opts.with.includes(stage.name)) continue;
    const dir = stageDir(opts.outDir, stage.name);
    const outcome: StageOutcome = { name: stage.name, purpose: stage.purpose, source: stage.source, status: "ran", dir };
    report.stages.push(outcome);
    const weights = join(dir, stage.weights(hidden));
    const from = stage.from ? weightsOf.get(stage.from) : undefined;
    if (!STAGE_NAMES.includes(stage.train ?? stage.name)) {
      outcome.status = "unavailable";
      outcome.note = `npm run train has no ${stage.train ?? stage.name} stage yet`;
      log(`${stage.name}: skipped (${outcome.note})`);
      write();
      continue;
    }
    if (stage.from && !from) {
      outcome.status = "unavailable";
      outcome.note = `needs the ${stage.from} stage's weights`;
      log(`${stage.name}: skipped (${outcome.note})`);
      write();
      continue;
    }
    const runJson = join(dir, "run.json");
    if (existsSync(runJson) && existsSync(weights)) {
      outcome.status = "reused";
      log(`${stage.name}: reused ${show(dir)} (delete it, or pass --fresh, to rerun)`);
    } else {
      mkdirSync(dir, { recursive: true });
      await stage.prepare?.(dir);
      const args = [...stage.args(opts.mode, dir, from), ...(opts.useReference.length ? ["--use-reference", opts.useReference.join(",")] : [])];
      log(`${stage.name}: npm run train -- ${args.map((a) => show(a)).join(" ")}`);
      const t0 = performance.now();
      const code = await runTrain(args, join(dir, "train.log"), log);
      outcome.wallSeconds = (performance.now() - t0) / 1000;
      if (code !== 0 || !existsSync(weights)) {
        outcome.status = "failed";
        outcome.note = `exit code ${code}${existsSync(weights) ? "" : `, no ${stage.weights(hidden)}`}; see ${show(join(dir, "train.log"))}`;
        failed.push(stage.name);
        log(`${stage.name}: failed (${outcome.note})`);
        write();
        continue;
      }
    }
    if (existsSync(runJson)) outcome.run = JSON.parse(readFileSync(runJson, "utf8")) as Record<string, unknown>;
    weightsOf.set(stage.name, weights);
    outcome.samples = await fixedPromptSamples(weights, configName, opts.useReference);
    for (const s of outcome.samples) log(`  after ${stage.name}: ${JSON.stringify(s.prompt)} → ${JSON.stringify(s.text)}`);
    write();
  }
  write();
  log(`Wrote ${show(file)} (${report.totalSeconds.toFixed(1)} s)`);
  return { report, file, failed };
}
