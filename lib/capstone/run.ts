/**
 * `npm run capstone`: the whole pipeline in one command (see lib/capstone/stages.ts), resumable stage
 * by stage. Each model stage is a run of `npm run train` (tools/train/cli.ts, a child process, its
 * output shown and kept in <stage>/train.log); a stage whose run.json and weights are already in the
 * output folder is reused, not rerun (--fresh reruns all). After every stage the fixed prompts are
 * generated from its weights and report.html is rewritten, so an interrupted run still has a report.
 */
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import * as tf from "../tf.js";
import { ROOT } from "../course/paths.js";
import { PRESETS } from "../train/settings.js";
import { STAGE_NAMES } from "../train/stages/index.js";
import { renderReport, type CapstoneReport, type StageOutcome } from "./report.js";
import { fixedPromptSamples } from "./samples.js";
import { CAPSTONE_STAGES, stageDir, stageLength, type Mode } from "./stages.js";
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

/**
 * What the capstone keeps beside a stage's run.json: the stage's wall time as the capstone measured
 * it (the run's start-up, data loading and samples included), so a later run that reuses the stage
 * reports how long it took when it ran.
 */
const STAGE_RECORD = "capstone-stage.json";

interface StageRecord {
  wallSeconds: number;
  finishedAt: string;
}

function readStageRecord(dir: string): StageRecord | undefined {
  try {
    const r = JSON.parse(readFileSync(join(dir, STAGE_RECORD), "utf8")) as StageRecord;
    return typeof r.wallSeconds === "number" ? r : undefined;
  } catch {
    return undefined;
  }
}

const show = (p: string) => {
  const r = relative(ROOT, p);
  return r.startsWith("..") ? p : r;
};

/** The running `npm run train` child, for a SIGTERM to pass on. */
let current: ReturnType<typeof spawn> | undefined;

/** Runs `npm run train` with `args`; its output goes to the console (indented) and to `logFile`. */
function runTrain(args: string[], logFile: string, log: (l: string) => void): Promise<number> {
  return new Promise((resolve) => {
    const file = createWriteStream(logFile);
    // The child is in this process's group: a Ctrl-C on the terminal reaches it too, and it saves and exits 130.
    const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "tools", "train", "cli.ts"), ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    current = child;
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
    child.on("close", (code, signal) => {
      current = undefined;
      if (pending) log(`    ${pending}`);
      file.end();
      resolve(code ?? (signal === "SIGINT" ? 130 : signal === "SIGTERM" ? 143 : 1));
    });
  });
}

/** Runs the capstone (see the module comment); returns the report it wrote. */
export async function runCapstone(opts: CapstoneOptions): Promise<{ report: CapstoneReport; file: string; failed: string[]; interrupted?: "SIGINT" | "SIGTERM" }> {
  const log = opts.log ?? ((l: string) => console.log(l));
  // Ctrl-C: the running stage saves its checkpoint (it got the same Ctrl-C), then the report is
  // written and the capstone stops; a second Ctrl-C leaves at once. SIGTERM is passed on to the stage.
  let interrupted: "SIGINT" | "SIGTERM" | undefined;
  const onSignal = (signal: "SIGINT" | "SIGTERM") => {
    if (interrupted) process.exit(signal === "SIGINT" ? 130 : 143);
    interrupted = signal;
    log(`${signal === "SIGINT" ? "Ctrl-C" : "SIGTERM"}: stopping after the current step (the stage saves its checkpoint); the report keeps what finished`);
    if (signal === "SIGTERM") current?.kill("SIGTERM");
  };
  const onInt = () => onSignal("SIGINT");
  const onTerm = () => onSignal("SIGTERM");
  process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  try {
    return await capstone(opts, log, () => interrupted);
  } finally {
    process.off("SIGINT", onInt);
    process.off("SIGTERM", onTerm);
  }
}

async function capstone(opts: CapstoneOptions, log: (l: string) => void, interrupted: () => "SIGINT" | "SIGTERM" | undefined): Promise<{ report: CapstoneReport; file: string; failed: string[]; interrupted?: "SIGINT" | "SIGTERM" }> {
  const configName = opts.mode === "quick" ? "micro" : "tiny";
  const hidden = PRESETS[configName].model.hiddenSize!;
  if (opts.fresh) rmSync(opts.outDir, { recursive: true, force: true });
  mkdirSync(opts.outDir, { recursive: true });
  const started = performance.now();
  const report: CapstoneReport = { mode: opts.mode, config: configName, startedAt: new Date().toISOString(), totalSeconds: 0, backend: tf.getBackend(), stages: [] };
  const file = join(opts.outDir, "report.html");
  const write = () => {
    report.totalSeconds = (performance.now() - started) / 1000;
    report.reusedSeconds = report.stages.reduce((t, s) => t + (s.status === "reused" ? (s.wallSeconds ?? 0) : 0), 0) + (report.tokenizer && report.tokenizerReused ? report.tokenizer.seconds : 0);
    writeFileSync(join(opts.outDir, "capstone.json"), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(file, renderReport(report));
  };

  // 1. Tokenizer (in this process: lesson 4's bpeTrain on a slice of the corpus).
  const tokFile = join(opts.outDir, "tokenizer.json");
  if (existsSync(tokFile)) {
    report.tokenizer = JSON.parse(readFileSync(tokFile, "utf8")) as TokenizerReport;
    report.tokenizerReused = true;
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
  const stopped = () => {
    const signal = interrupted();
    if (!signal) return undefined;
    const unfinished = report.stages.find((s) => s.status === "stopped");
    log(`${signal === "SIGINT" ? "Ctrl-C" : "SIGTERM"}: stopped${unfinished ? ` during ${unfinished.name} (${existsSync(unfinished.dir) && readdirSync(unfinished.dir).some((f) => f.endsWith("_resume.safetensors")) ? `its checkpoint is in ${show(unfinished.dir)}` : "before it saved anything"})` : ""}; npm run capstone${opts.mode === "quick" ? " -- --quick" : ""} again reuses every finished stage${unfinished ? ` and runs ${unfinished.name} again` : ""}`);
    write();
    log(`Wrote ${show(file)}`);
    return { report, file, failed: [], interrupted: signal };
  };
  if (interrupted()) return stopped()!;
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
    const stageArgs = stage.args(opts.mode, dir, from);
    if (existsSync(runJson) && existsSync(weights)) {
      outcome.status = "reused";
      // The wall time it took when it ran (its run folder keeps it), else its run's training time.
      const record = readStageRecord(dir);
      const run = JSON.parse(readFileSync(runJson, "utf8")) as Record<string, unknown>;
      outcome.wallSeconds = record?.wallSeconds ?? (typeof run.trainSeconds === "number" ? run.trainSeconds : undefined);
      outcome.wallFrom = record ? "capstone" : outcome.wallSeconds !== undefined ? "run.json" : undefined;
      log(`${stage.name}: reused ${show(dir)}${outcome.wallSeconds !== undefined ? ` (${outcome.wallSeconds.toFixed(1)} s when it ran${record ? "" : ", training alone"})` : ""}; delete it, or pass --fresh, to rerun`);
    } else {
      mkdirSync(dir, { recursive: true });
      rmSync(join(dir, STAGE_RECORD), { force: true });
      await stage.prepare?.(dir);
      const args = [...stageArgs, ...(opts.useReference.length ? ["--use-reference", opts.useReference.join(",")] : [])];
      const length = stageLength(stageArgs);
      log(`${stage.name}${length ? ` (${length})` : ""}: npm run train -- ${args.map((a) => show(a)).join(" ")}`);
      const t0 = performance.now();
      const code = await runTrain(args, join(dir, "train.log"), log);
      outcome.wallSeconds = (performance.now() - t0) / 1000;
      if (interrupted() && code !== 0) {
        outcome.status = "stopped";
        outcome.note = `stopped by ${interrupted() === "SIGINT" ? "Ctrl-C" : "SIGTERM"} (exit ${code}); it runs again on the next npm run capstone`;
        return stopped()!;
      }
      if (code !== 0 || !existsSync(weights)) {
        outcome.status = "failed";
        outcome.note = `exit code ${code}${existsSync(weights) ? "" : `, no ${stage.weights(hidden)}`}; see ${show(join(dir, "train.log"))}`;
        failed.push(stage.name);
        log(`${stage.name}: failed (${outcome.note})`);
        write();
        continue;
      }
    }
    if (outcome.status === "ran" && outcome.wallSeconds !== undefined) writeFileSync(join(dir, STAGE_RECORD), `${JSON.stringify({ wallSeconds: Number(outcome.wallSeconds.toFixed(2)), finishedAt: new Date().toISOString() } satisfies StageRecord, null, 2)}\n`);
    if (existsSync(runJson)) outcome.run = JSON.parse(readFileSync(runJson, "utf8")) as Record<string, unknown>;
    outcome.length = stageLength(stageArgs, outcome.run);
    weightsOf.set(stage.name, weights);
    outcome.samples = await fixedPromptSamples(weights, configName, opts.useReference);
    for (const s of outcome.samples) log(`  after ${stage.name}: ${JSON.stringify(s.prompt)} → ${JSON.stringify(s.text)}`);
    write();
    if (interrupted()) return stopped()!;
  }
  write();
  log(`Wrote ${show(file)} (${report.totalSeconds.toFixed(1)} s this run${(report.reusedSeconds ?? 0) > 0 ? `; the reused stages took ${(report.reusedSeconds ?? 0).toFixed(1)} s when they ran` : ""})`);
  return { report, file, failed };
}
