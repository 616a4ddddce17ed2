/**
 * `npm run train`: crash safety (SIGKILL at random moments and inside saves, then a bit-exact
 * resume), bad input (clear message, nothing changed), no tensor leak over 50 steps, and MiniMind's
 * own PyTorch model loading the exported weights. Runs use the `micro` config on the cpu backend,
 * a few steps each, so the file stays fast.
 */
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as tf from "../lib/tf.js";
import { ROOT } from "../grader/engine/paths.js";
import { Rng } from "../lib/random.js";
import { loadResume } from "../lib/train/checkpoint.js";

const STEPS = 10;
const CORPUS = join(ROOT, "datasets", "tiny-corpus.txt");
const BASE = ["pretrain", "--config", "micro", "--steps", String(STEPS), "--save-every", "1", "--accumulation-steps", "3", "--use-reference", "all", "--data", CORPUS];
const env = (extra: Record<string, string> = {}) => ({ ...process.env, COURSE_BACKEND: "cpu", FORCE_COLOR: "0", ...extra });

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "course-train-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function train(args: string[], extraEnv: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ["--import", "tsx", "tools/train/cli.ts", ...args], { cwd: ROOT, env: env(extraEnv), encoding: "utf8", timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The uninterrupted run every other test compares with or starts from. */
function referenceRun(): string {
  const dir = join(work, "uninterrupted");
  if (!existsSync(join(dir, "pretrain_16.safetensors"))) {
    const r = train([...BASE, "--out", dir]);
    expect(r.status, r.stderr).toBe(0);
  }
  return dir;
}

/** Starts a training child and SIGKILLs it when `when` resolves; resolves with its exit status and output. */
function killedRun(args: string[], dir: string, mode: "random" | "in-save", rng: Rng): Promise<{ code: number | null; signal: string | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "tools/train/cli.ts", ...args], { cwd: ROOT, env: env({ COURSE_TRAIN_SAVE_PAUSE_MS: "40" }) });
    let out = "";
    let armed = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      if (armed) return;
      armed = true;
      if (mode === "random") timer = setTimeout(() => child.kill("SIGKILL"), rng.int(0, 250));
      else
        timer = setInterval(() => {
          if (readdirSync(dir).some((f) => f.endsWith(".tmp"))) child.kill("SIGKILL");
        }, 3);
    };
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (/^step \d+\//m.test(out)) arm();
    });
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      clearInterval(timer);
      resolve({ code, signal, out });
    });
  });
}

describe("npm run train", () => {
  it(
    "survives SIGKILL at random moments and inside saves: the checkpoint always loads, the run continues from its step, and the final weights are bit-exact",
    async () => {
      const uninterrupted = referenceRun();
      const dir = join(work, "killed");
      mkdirSync(dir, { recursive: true });
      const rng = new Rng(11);
      const modes: Array<"random" | "in-save"> = ["random", "in-save", "random", "in-save"];
      let savedStep: number | undefined;
      let kills = 0;
      let killedInSave = 0;
      for (const mode of modes) {
        const args = savedStep === undefined ? [...BASE, "--out", dir] : ["pretrain", "--resume", dir];
        const r = await killedRun(args, dir, mode, rng);
        if (savedStep !== undefined) expect(r.out).toContain(`at micro-batch ${savedStep} `);
        if (r.code === 0) break; // finished before the kill landed
        expect(r.signal).toBe("SIGKILL");
        kills++;
        if (readdirSync(dir).some((f) => f.endsWith(".tmp"))) killedInSave++;
        const resumeFile = join(dir, "pretrain_16_resume.safetensors");
        if (!existsSync(resumeFile)) continue; // killed before the first save: start again
        const state = loadResume(resumeFile); // throws if a kill left it half-written
        expect(state.meta.step).toBeGreaterThanOrEqual(savedStep ?? 0);
        savedStep = state.meta.step;
      }
      expect(kills).toBeGreaterThanOrEqual(2);
      expect(killedInSave).toBeGreaterThanOrEqual(1);
      const last = train(savedStep === undefined ? [...BASE, "--out", dir] : ["pretrain", "--resume", dir]);
      expect(last.status, last.stderr).toBe(0);
      if (savedStep !== undefined) expect(last.stdout).toContain(`at micro-batch ${savedStep} `);
      const a = readFileSync(join(uninterrupted, "pretrain_16.safetensors"));
      const b = readFileSync(join(dir, "pretrain_16.safetensors"));
      expect(b.equals(a)).toBe(true);
    },
    240_000,
  );

  it("--stop-after ends early on the full run's schedule (run.json, weights) and --resume finishes it bit for bit", () => {
    const uninterrupted = referenceRun();
    const dir = join(work, "stop-after");
    const first = train([...BASE, "--out", dir, "--stop-after", "4"]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/stopped after 4 of the schedule's 10 \(--stop-after\)/);
    const report = JSON.parse(readFileSync(join(dir, "run.json"), "utf8")) as { steps: number; scheduleSteps: number };
    expect([report.steps, report.scheduleSteps]).toEqual([4, 10]);
    expect(loadResume(join(dir, "pretrain_16_resume.safetensors")).meta.step).toBe(4);
    const rest = train(["pretrain", "--resume", dir]);
    expect(rest.status, rest.stderr).toBe(0);
    expect(readFileSync(join(dir, "pretrain_16.safetensors")).equals(readFileSync(join(uninterrupted, "pretrain_16.safetensors")))).toBe(true);
    const late = train([...BASE, "--out", join(work, "stop-late"), "--stop-after", "11"]);
    expect(late.status).toBe(2);
    expect(late.stderr).toMatch(/--stop-after 11 is past --steps 10/);
  }, 120_000);

  it("refuses bad input with a clear message and changes nothing", () => {
    const done = referenceRun();
    const unknown = train(["pretrian"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown stage "pretrian": have pretrain, sft/);
    expect(unknown.stderr).not.toMatch(/\bat .*\.ts:\d+/);

    const empty = join(work, "empty");
    mkdirSync(empty, { recursive: true });
    const missing = train(["pretrain", "--resume", empty]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/no pretrain checkpoint there/);
    expect(readdirSync(empty)).toEqual([]);

    const corruptDir = join(work, "corrupt");
    mkdirSync(corruptDir, { recursive: true });
    const full = readFileSync(join(done, "pretrain_16_resume.safetensors"));
    const truncated = full.subarray(0, full.length >> 1);
    writeFileSync(join(corruptDir, "pretrain_16_resume.safetensors"), truncated);
    const corrupt = train(["pretrain", "--resume", corruptDir]);
    expect(corrupt.status).toBe(1);
    expect(corrupt.stderr).toMatch(/is corrupt or truncated/);
    expect(readFileSync(join(corruptDir, "pretrain_16_resume.safetensors")).equals(truncated)).toBe(true);
    expect(readdirSync(corruptDir)).toEqual(["pretrain_16_resume.safetensors"]);

    const mismatchDir = join(work, "mismatch");
    mkdirSync(mismatchDir, { recursive: true });
    copyFileSync(join(done, "pretrain_16_resume.safetensors"), join(mismatchDir, "pretrain_16_resume.safetensors"));
    const mismatch = train(["pretrain", "--resume", mismatchDir, "--config", "tiny"]);
    expect(mismatch.status).toBe(1);
    expect(mismatch.stderr).toMatch(/does not match --config tiny: model\.embed_tokens\.weight is \[2048, 16\] there, \[2048, 128\] in --config tiny/);
    expect(readdirSync(mismatchDir)).toEqual(["pretrain_16_resume.safetensors"]);

    const badSteps = train(["pretrain", "--steps", "0"]);
    expect(badSteps.status).toBe(2);
    expect(badSteps.stderr).toMatch(/--steps must be an integer ≥ 1/);
  }, 120_000);

  it("skips and counts malformed data lines", () => {
    const data = join(work, "data.jsonl");
    const good = (t: string) => JSON.stringify({ text: t });
    writeFileSync(data, [good("The cat sat."), "{not json", good("A dog ran home."), JSON.stringify({ txt: "x" }), good("Rain fell all day."), good("The sun rose.")].join("\n"));
    const r = train(["pretrain", "--config", "micro", "--steps", "2", "--use-reference", "all", "--data", data, "--out", join(work, "data-run")]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/skipped 2 malformed lines: \S*data\.jsonl:2: skipped \([^)]*\); \S*data\.jsonl:4: skipped \(not an object with a string "text"\)/);
  }, 60_000);

  it("keeps the number of tensors constant over 50 training steps", async () => {
    // wasm, the backend training runs on (and ten times faster than cpu here); cpu again afterwards.
    await import("@tensorflow/tfjs-backend-wasm");
    expect(await tf.setBackend("wasm")).toBe(true);
    const { runStage } = await import("../lib/train/run.js");
    const stage = (await import("../lib/train/stages/pretrain.js")).default;
    const counts: number[] = [];
    const log = console.log;
    console.log = () => undefined;
    try {
      const r = await runStage({ stage, configName: "micro", steps: 50, outDir: join(work, "leak"), useReference: ["all"], tty: false, dataPath: CORPUS, overrides: { saveEvery: 25, evalEvery: 1000 }, onStep: () => counts.push(tf.memory().numTensors) });
      expect(r.exitCode).toBe(0);
    } finally {
      console.log = log;
      await tf.setBackend("cpu");
    }
    expect(counts).toHaveLength(50);
    expect(new Set(counts.slice(1)).size, `tensors after each step: ${counts.join(", ")}`).toBe(1);
  }, 120_000);
});

const MINIMIND_COMMIT = "d65ef2c00ebc6082f9df11541e1b191655eddb00";
const PYTHON = process.env.COURSE_PYTHON ?? "/usr/bin/python3";

/** MiniMind's model file at the pinned commit: $MINIMIND_DIR, a cached copy, or a download; undefined with why. */
async function minimindModelFile(): Promise<{ file?: string; why?: string }> {
  if (process.env.MINIMIND_DIR) {
    const f = join(process.env.MINIMIND_DIR, "model", "model_minimind.py");
    return existsSync(f) ? { file: f } : { why: `MINIMIND_DIR has no model/model_minimind.py` };
  }
  const cached = join(ROOT, "node_modules", ".cache", `minimind-${MINIMIND_COMMIT.slice(0, 7)}`, "model_minimind.py");
  if (existsSync(cached)) return { file: cached };
  try {
    const res = await fetch(`https://raw.githubusercontent.com/jingyaogong/minimind/${MINIMIND_COMMIT}/model/model_minimind.py`, { signal: AbortSignal.timeout(10_000) });
    if (!res.ok) return { why: `downloading MiniMind's model file gave HTTP ${res.status}` };
    mkdirSync(join(cached, ".."), { recursive: true });
    writeFileSync(cached, await res.text());
    return { file: cached };
  } catch (err) {
    return { why: `MiniMind's model file could not be downloaded (${(err as Error).message}); set MINIMIND_DIR to a checkout at ${MINIMIND_COMMIT.slice(0, 7)}` };
  }
}

/** The four names model_minimind.py imports from transformers, as small stand-ins (the math is all in MiniMind's file). */
const TRANSFORMERS_SHIM: Record<string, string> = {
  "__init__.py": [
    "import torch",
    "class PretrainedConfig:",
    "    def __init__(self, **kwargs):",
    "        for k, v in kwargs.items(): setattr(self, k, v)",
    "class PreTrainedModel(torch.nn.Module):",
    "    def __init__(self, config, *args, **kwargs):",
    "        super().__init__()",
    "        self.config = config",
    "    def post_init(self): pass",
    "class GenerationMixin: pass",
    "",
  ].join("\n"),
  "activations.py": "import torch\nACT2FN = {'silu': torch.nn.SiLU()}\n",
  "modeling_outputs.py": "class MoeCausalLMOutputWithPast(dict):\n    def __getattr__(self, k): return self[k]\n",
};

describe("MiniMind loads the exported weights", () => {
  it("MiniMindForCausalLM (PyTorch, by MiniMind's parameter names) gives the same logits", async (ctx) => {
    if (spawnSync(PYTHON, ["-c", "import torch"]).status !== 0) return ctx.skip(`no PyTorch at ${PYTHON} (apt-get install -y python3-torch)`);
    const source = await minimindModelFile();
    if (!source.file) return ctx.skip(source.why);
    const shim = join(work, "shim", "transformers");
    mkdirSync(shim, { recursive: true });
    for (const [f, text] of Object.entries(TRANSFORMERS_SHIM)) writeFileSync(join(shim, f), text);

    // A trained micro model, moved away from its initialisation so every parameter matters.
    const dir = referenceRun();
    const weights = join(dir, "pretrain_16.safetensors");
    const ids = [
      [1, 792, 841, 640, 49, 1003, 77, 300, 12, 5],
      [1, 42, 1500, 2047, 36, 640, 841, 99, 400, 2],
    ];
    await tf.setBackend("cpu");
    const { loadModel } = await import("../lib/model/checkpoint.js");
    const model = loadModel(weights);
    const ours = tf.tidy(() => model.forward(tf.tensor2d(ids, undefined, "int32")).logits.dataSync() as Float32Array);
    model.dispose();

    const r = spawnSync(PYTHON, [join(ROOT, "tools", "train", "minimind_logits.py"), source.file, join(work, "shim"), weights, JSON.stringify(ids)], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const theirs = JSON.parse(r.stdout.trim().split("\n").pop()!) as { missing: string[]; unexpected: string[]; shape: number[]; logits: number[] };
    expect(theirs.unexpected).toEqual([]);
    expect(theirs.missing).toEqual(["lm_head.weight"]); // tied: it is model.embed_tokens.weight
    expect(theirs.shape).toEqual([2, 10, 2048]);
    let worst = 0;
    theirs.logits.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - ours[i]) / (1e-4 + Math.abs(v)))));
    expect(worst, "max |ours − MiniMind| / (1e-4 + |MiniMind|)").toBeLessThan(1e-3);
  }, 120_000);
});
