/**
 * Runs and reports (issue 22, items 16-19): what `npm run train`, `npm run capstone`, `npm run serve`,
 * `npm run doctor` and the site say and leave behind.
 * - 16: a reused capstone stage reports the wall time it took when it ran; stage lengths come from the
 *   numbers; the task SFT's chart is titled by its stage; every held-out evaluation is plotted; the
 *   banner prints the batch and length the run uses; a Ctrl-C before the first micro-batch is answered
 *   in words; `--steps -3` is a plain message.
 * - 17: the pretraining corpus is generated at first use and never overwritten; the weights file keeps
 *   the lowest held-out loss (--keep last: the last step, MiniMind's choice); doctor names the corpus.
 * - 18: `npm run serve` leaves no /tmp/minimind-serve-* folder, whenever it is stopped; figure captions
 *   sit below their image on the site.
 * - 19: the licences: LICENSE, LICENSE-LESSONS, package.json, the README, the site footer.
 * Training runs use the micro config, a few seconds each.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../grader/engine/paths.js";
import { renderReport, type CapstoneReport } from "../lib/capstone/report.js";
import { CAPSTONE_STAGES, stageLength } from "../lib/capstone/stages.js";
import { decodeSafetensors } from "../lib/model/safetensors.js";
import { describePretrainCorpus, ensurePretrainCorpus } from "../tools/data/ensure.js";
import { PRETRAIN, writePretrain } from "../tools/data/generate.js";
import { createMarkdown, renderMarkdown } from "../tools/site/markdown.js";
import { FOOTER, layout, STYLE } from "../tools/site/page.js";

const CORPUS = join(ROOT, "datasets", "tiny-corpus.txt");
// wasm: ten times faster than cpu here, and as deterministic from one run to the next (the byte-for-byte check below).
const env = (extra: Record<string, string> = {}) => ({ ...process.env, COURSE_BACKEND: "wasm", FORCE_COLOR: "0", ...extra });

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "course-runs-reports-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function train(args: string[]) {
  const r = spawnSync(process.execPath, ["--import", "tsx", "tools/train/cli.ts", ...args], { cwd: ROOT, env: env(), encoding: "utf8", timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Starts `args` and sends `signal` once its output matches `when`; resolves with the exit and the output. */
function signalledRun(command: string, args: string[], when: RegExp, signal: NodeJS.Signals, extraEnv: Record<string, string> = {}): Promise<{ code: number | null; signal: string | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", command, ...args], { cwd: ROOT, env: env(extraEnv) });
    let out = "";
    let sent = false;
    const onData = (d: Buffer) => {
      out += d.toString();
      if (!sent && when.test(out)) {
        sent = true;
        child.kill(signal);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    const guard = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("exit", (code, sig) => {
      clearTimeout(guard);
      resolve({ code, signal: sig, out });
    });
  });
}

const weightsOf = (file: string) => decodeSafetensors(readFileSync(file)).tensors;
const sameTensors = (a: ReturnType<typeof weightsOf>, b: ReturnType<typeof weightsOf>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([n, t]) => b[n] && Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength).equals(Buffer.from(b[n].data.buffer, b[n].data.byteOffset, b[n].data.byteLength)));

describe("16: npm run train says what it does", () => {
  it("--steps -3 needs a positive whole number (not util.parseArgs' 'ambiguous')", () => {
    const r = train(["pretrain", "--steps", "-3"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--steps must be an integer ≥ 1 \(a positive whole number\), got "-3"/);
    expect(r.stderr).not.toMatch(/ambiguous/);
  });

  it("prints the batch and length the run uses (SFT: 128 tokens), and a Ctrl-C before the first micro-batch says so and writes nothing", async () => {
    const out = join(work, "sft-ctrl-c");
    const data = join(work, "sft-small.jsonl");
    writeFileSync(data, readFileSync(join(ROOT, "datasets", "corpus", "sft.jsonl"), "utf8").split("\n").slice(0, 40).join("\n") + "\n");
    // Sent at the run's first line: it is still resolving functions, reading data, drawing its "before" samples.
    const r = await signalledRun("tools/train/cli.ts", ["sft", "--config", "micro", "--steps", "1000", "--use-reference", "all", "--data", data, "--out", out], /^npm run train -- sft: .*\n/m, "SIGINT");
    expect(r.code, r.out).toBe(130);
    expect(r.out).toMatch(/^Data: .*batches of 4 × 128 tokens an epoch/m);
    expect(r.out).not.toMatch(/× 16 tokens/);
    // Nothing trained yet, or (on a machine fast enough to start training first) a saved checkpoint: said either way.
    if (/Ctrl-C before the first micro-batch/.test(r.out)) {
      expect(r.out).toMatch(/nothing was trained and nothing written/);
      expect(existsSync(out)).toBe(false);
    } else expect(r.out).toMatch(/Ctrl-C: saved .*full_sft_16_resume\.safetensors at micro-batch \d+/);
  }, 120_000);

  it("an RL run answers a Ctrl-C while it starts (the \"before\" evaluation) in words, and writes nothing", async () => {
    const out = join(work, "grpo-ctrl-c");
    // Sent at the "Run:" line: the held-out "before" evaluation is running, the first step not begun.
    const r = await signalledRun("tools/train/cli.ts", ["grpo", "--config", "micro", "--steps", "1000", "--use-reference", "all", "--out", out], /^Run: .*\n/m, "SIGINT");
    expect(r.code, r.out).toBe(130);
    if (/Ctrl-C before the first step/.test(r.out)) {
      expect(r.out).toMatch(/nothing was trained and nothing written; run the same command again to start/);
      expect(existsSync(out)).toBe(false);
    } else expect(r.out).toMatch(/Ctrl-C: saved .*grpo_16_resume\.safetensors at step \d+/);
  }, 120_000);
});

describe("17: the weights file keeps the lowest held-out loss", () => {
  // At this rate the held-out loss of tiny-corpus.txt is lowest before the end (step 55 of 80 here,
  // 4.856, then 4.868 at step 80), so the best is not the last. At 0.05 it was lowest at step 55 too
  // until the wasm backend's eˣ changed in its last bit; then it fell to the end, 0.001 below step 75.
  const base = ["pretrain", "--config", "micro", "--steps", "80", "--learning-rate", "0.06", "--eval-every", "5", "--log-every", "100", "--save-every", "1000", "--use-reference", "all", "--data", CORPUS];
  type Run = { kept: { rule: string; step: number; heldOutLoss: number; lastStep: number; lastHeldOutLoss: number }; evaluations: Array<[number, number]>; heldOutLoss: { after: number }; name?: string };
  const report = (dir: string) => JSON.parse(readFileSync(join(dir, "run.json"), "utf8")) as Run;

  it("keeps the best evaluation's weights (the same bytes as a run stopped there with --keep last); --name titles the chart; every evaluation is plotted", () => {
    const best = join(work, "keep-best");
    const a = train([...base, "--out", best, "--name", "demo-run"]);
    expect(a.status, a.stderr).toBe(0);
    const run = report(best);
    const evaluated = run.evaluations.filter(([s]) => s > 0);
    expect(run.evaluations.map(([s]) => s)).toEqual(Array.from({ length: 17 }, (_, i) => 5 * i));
    const lowest = evaluated.reduce((b, p) => (p[1] < b[1] ? p : b));
    expect(run.kept).toMatchObject({ rule: "best", step: lowest[0], heldOutLoss: lowest[1], lastStep: 80 });
    expect(run.kept.step, "the held-out loss should rise before the end of this run").toBeLessThan(80);
    expect(run.heldOutLoss.after).toBe(lowest[1]);
    expect(run.name).toBe("demo-run");
    const svg = readFileSync(join(best, "loss.svg"), "utf8");
    expect(svg).toContain("demo-run: loss (pretrain, --config micro)");
    expect(svg).toContain("held-out loss (17 evaluations)");
    // Every evaluation is a dot on the held-out line (the training-loss line has none).
    expect(svg.match(/<circle /g)?.length).toBe(17);
    expect(svg).toContain(`kept: step ${run.kept.step}`);

    // The same schedule stopped at the kept step, keeping the last: the same weights, byte for byte.
    const stopped = join(work, "stopped-at-best");
    const b = train([...base, "--out", stopped, "--keep", "last", "--stop-after", String(lowest[0])]);
    expect(b.status, b.stderr).toBe(0);
    expect(readFileSync(join(stopped, "pretrain_16.safetensors")).equals(readFileSync(join(best, "pretrain_16.safetensors")))).toBe(true);
    // The resume file holds the last step (so --resume continues the schedule); the weights file differs from it when the best came earlier.
    const resumeWeights = weightsOf(join(best, "pretrain_16_resume.safetensors"));
    const kept = weightsOf(join(best, "pretrain_16.safetensors"));
    const lastWeights = Object.fromEntries(Object.keys(kept).map((n) => [n, resumeWeights[n]]));
    expect(sameTensors(kept, lastWeights)).toBe(false);
    expect(a.stdout).toMatch(new RegExp(`kept the weights of step ${run.kept.step}, the lowest held-out loss \\(\\d\\.\\d{3}\\); it rose to`));
  }, 120_000);

  it("--keep last keeps the last step's weights, as MiniMind does", () => {
    const dir = join(work, "keep-last");
    const r = train([...base, "--out", dir, "--keep", "last"]);
    expect(r.status, r.stderr).toBe(0);
    expect(report(dir).kept).toMatchObject({ rule: "last", step: 80, lastStep: 80 });
    const resumeWeights = weightsOf(join(dir, "pretrain_16_resume.safetensors"));
    const kept = weightsOf(join(dir, "pretrain_16.safetensors"));
    expect(sameTensors(kept, Object.fromEntries(Object.keys(kept).map((n) => [n, resumeWeights[n]])))).toBe(true);
    const bad = train([...base, "--out", join(work, "keep-bad"), "--keep", "first"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--keep must be best or last/);
  }, 120_000);
});

describe("17: the pretraining corpus appears where a learner needs it", () => {
  it("is generated at first use with progress (the bytes npm run data writes), and an existing file is never touched", async () => {
    const dir = join(work, "corpus");
    const lines: string[] = [];
    const first = await ensurePretrainCorpus({ dir, log: (l) => lines.push(l), tty: false });
    expect(first.generated).toBe(true);
    expect(lines[0]).toMatch(/is not there yet \(a fresh clone\): generating it from seed 1/);
    expect(lines.some((l) => /^ {2}(25|50|75)% /.test(l))).toBe(true);
    expect(lines[lines.length - 1]).toMatch(/wrote .*pretrain\.jsonl: [\d,]+ records, 6\.0 MB/);
    const again = join(work, "corpus-again");
    await writePretrain(again);
    expect(readFileSync(first.path).equals(readFileSync(join(again, PRETRAIN.file)))).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    expect(describePretrainCorpus(dir)).toMatchObject({ verdict: "ok", detail: expect.stringMatching(/reads .*pretrain\.jsonl \([\d,]+ records, 6\.0 MB, generated from seed 1\)/) });

    const own = join(work, "own-corpus");
    mkdirSync(own);
    writeFileSync(join(own, PRETRAIN.file), '{"text": "my own corpus"}\n');
    const kept = await ensurePretrainCorpus({ dir: own, log: () => undefined });
    expect(kept.generated).toBe(false);
    expect(readFileSync(join(own, PRETRAIN.file), "utf8")).toBe('{"text": "my own corpus"}\n');
    expect(describePretrainCorpus(own)).toMatchObject({ verdict: "warn", detail: expect.stringMatching(/reads .* as it is: 1 records/) });
    expect(describePretrainCorpus(join(work, "nothing-here"))).toMatchObject({ verdict: "ok", detail: expect.stringMatching(/not generated yet: the first npm run train -- pretrain/) });
  }, 60_000);

  it("npm run doctor has a line for the corpus; train and capstone generate it before they read it", async () => {
    const { runChecks } = await import("../tools/doctor/checks.js");
    expect(typeof runChecks).toBe("function");
    const { checkCorpus } = await import("../tools/doctor/checks.js");
    expect((await checkCorpus()).name).toBe("pretrain corpus");
    for (const cli of ["tools/train/cli.ts", "tools/capstone/cli.ts"]) expect(readFileSync(join(ROOT, cli), "utf8"), cli).toMatch(/await ensurePretrainCorpus\(\)/);
    expect(readFileSync(join(ROOT, "README.md"), "utf8")).toMatch(/npm run data/);
  });
});

describe("16: the capstone report", () => {
  it("says how long each stage runs from its numbers", () => {
    const task = CAPSTONE_STAGES.find((s) => s.name === "task-sft")!;
    expect(task.purpose).not.toMatch(/\d+-step/);
    expect(stageLength(task.args("quick", "/x", "/y"))).toBe("runs 10 steps");
    expect(stageLength(task.args("full", "/x", "/y"))).toBe("runs the first 200 steps of a 1200-step schedule");
    expect(stageLength([], { steps: 10, scheduleSteps: 10 })).toBe("ran 10 steps");
    expect(stageLength([], { steps: 300, scheduleSteps: 1200 })).toBe("ran the first 300 steps of a 1200-step schedule");
    expect(task.args("quick", "/x", "/y")).toEqual(expect.arrayContaining(["--name", "task-sft"]));
    // Every supervised stage of --quick evaluates the held-out loss more than twice.
    for (const s of CAPSTONE_STAGES.filter((x) => ["pretrain", "sft", "task-sft"].includes(x.name))) {
      const args = s.args("quick", "/x", "/y");
      const every = Number(args[args.indexOf("--eval-every") + 1]);
      const steps = Number(args[args.indexOf("--steps") + 1]);
      expect(steps / every, s.name).toBeGreaterThanOrEqual(3);
    }
  });

  it("after a reuse, reports the reused stages' wall times from their run folders and the time in all", async () => {
    const out = join(work, "capstone");
    // Real micro weights (the report draws samples from them), a finished run.json and the capstone's record, for each stage.
    const { MiniMindTS } = await import("../lib/model/model.js");
    const { PRESETS, presetConfig } = await import("../lib/train/settings.js");
    const { saveWeights } = await import("../lib/train/checkpoint.js");
    const { trainTokenizer } = await import("../lib/train/tokenizer.js");
    const tf = await import("../lib/tf.js");
    const config = presetConfig(PRESETS.micro, trainTokenizer().vocabSize, 512);
    const model = MiniMindTS.init(config, 1);
    const stored = Object.fromEntries(Object.entries(model.params).map(([n, v]) => [n, { shape: [...v.shape], data: Float32Array.from(v.dataSync() as Float32Array) }]));
    model.dispose();
    const walls: Record<string, number> = { pretrain: 13.2, sft: 22.1, "task-sft": 23.4, grpo: 4.4 };
    for (const stage of CAPSTONE_STAGES.filter((s) => !s.optional)) {
      const dir = join(out, stage.name);
      mkdirSync(dir, { recursive: true });
      saveWeights(join(dir, stage.weights(16)), stored, config);
      const steps = stage.name === "task-sft" ? 10 : 3;
      writeFileSync(join(dir, "run.json"), JSON.stringify({ stage: stage.name, steps, scheduleSteps: steps, trainSeconds: 1, functions: [] }));
      writeFileSync(join(dir, "capstone-stage.json"), JSON.stringify({ wallSeconds: walls[stage.name], finishedAt: "2026-01-01T00:00:00Z" }));
    }
    writeFileSync(
      join(out, "tokenizer.json"),
      JSON.stringify({ trainedOn: { bytes: 1, texts: 1 }, vocabSize: 400, merges: 141, seconds: 0.06, bytesPerToken: { yours: 1.9, course: 4.6 }, courseTokenizer: { name: "BPE", vocabSize: 2048 }, example: { text: "x", tokens: ["x"] }, functions: [] }),
    );
    const { runCapstone } = await import("../lib/capstone/run.js");
    const lines: string[] = [];
    expect(tf.getBackend()).toBeTruthy();
    const { report } = await runCapstone({ mode: "quick", outDir: out, with: [], fresh: false, useReference: ["all"], log: (l) => lines.push(l) });
    expect(lines.join("\n")).toMatch(/pretrain: reused .* \(13\.2 s when it ran\)/);
    expect(report.stages.map((s) => [s.name, s.status, s.wallSeconds])).toEqual([
      ["pretrain", "reused", 13.2],
      ["sft", "reused", 22.1],
      ["task-sft", "reused", 23.4],
      ["grpo", "reused", 4.4],
    ]);
    const html = readFileSync(join(out, "report.html"), "utf8");
    expect(html).toMatch(/<td>task-sft<\/td><td>reused<\/td><td>23\.4 \(when it ran\)<\/td>/);
    expect(html).toMatch(/s this run \(it reused stages that took 63\.2 s when they ran: [\d.]+ s in all\)/);
    expect(html).toMatch(/<b>task-sft<\/b> \(trainer\/train_full_sft\.py\) — [^<]*; ran 10 steps\./);
    expect(html).not.toMatch(/1200-step/);
  }, 120_000);

  it("renders a stage without a capstone record by its run's training time, marked as such", () => {
    const r: CapstoneReport = { mode: "full", config: "tiny", startedAt: "now", totalSeconds: 1, reusedSeconds: 600, backend: "wasm", stages: [{ name: "pretrain", purpose: "p", source: "s", status: "reused", dir: "/nowhere", wallSeconds: 600, wallFrom: "run.json", length: "ran 600 steps" }] };
    expect(renderReport(r)).toMatch(/600\.0 \(training alone, when it ran\)/);
  });
});

describe("18: npm run serve leaves no temporary folder", () => {
  // Whatever serve puts in TMPDIR (it cancels by IPC now; a --lora merge writes a file there) must be gone after it
  // stops; tsx's transform cache (tsx-<uid>) is tsx's own, kept on purpose.
  const serveDirs = (dir: string) => readdirSync(dir).filter((f) => !/^tsx-\d+$/.test(f));

  it("stopped while loading (SIGINT), while serving (SIGINT, SIGTERM)", async () => {
    const tmp = join(work, "serve-tmp");
    mkdirSync(tmp);
    const cases: Array<[RegExp, NodeJS.Signals]> = [
      [/^Loading /m, "SIGINT"],
      [/^Serving on /m, "SIGINT"],
      [/^Serving on /m, "SIGTERM"],
    ];
    for (const [when, signal] of cases) {
      const r = await signalledRun("tools/serve/cli.ts", ["--port", "0"], when, signal, { TMPDIR: tmp, COURSE_BACKEND: "wasm" });
      expect(r.signal, r.out).toBeNull(); // it exits itself (Node's default for a signal would leave the folder)
      expect(serveDirs(tmp), `${signal} at ${when}: ${r.out}`).toEqual([]);
    }
  }, 240_000);
});

describe("18: figure captions on the site", () => {
  it("an image with an italic caption line becomes a figure with the caption below the image", () => {
    const md = createMarkdown();
    const env = { source: "test.md", problems: [] as string[], headings: [], resolve: (href: string) => ({ href }) };
    const html = renderMarkdown(md, "# T\n\n![A chart](figures/x.svg)\n*The caption, below.*\n\n![Alone](figures/y.svg)\n\n![inline](z.svg) and text\n", env);
    expect(html).toContain('<figure>\n<img src="figures/x.svg" alt="A chart">\n<figcaption>The caption, below.</figcaption>\n</figure>');
    expect(html).toContain('<figure>\n<img src="figures/y.svg" alt="Alone">\n</figure>');
    expect(html).toMatch(/<p><img src="z.svg" alt="inline"> and text<\/p>/);
    expect(STYLE).toMatch(/main figure img \{ display: block; \}/);
    const lesson = renderMarkdown(md, readFileSync(join(ROOT, "lessons", "03-inference-end-to-end.md"), "utf8"), { ...env, problems: [], headings: [], source: "lessons/03" });
    expect(lesson).toMatch(/<img src="figures\/lesson-03-sampling\.svg"[^>]*>\n<figcaption>Lower temperature sharpens/);
  });
});

describe("19: the licences", () => {
  it("LICENSE (Apache-2.0, code) and LICENSE-LESSONS (CC BY 4.0, lessons), in full, named by package.json, the README, datasets/README.md and the site footer", () => {
    const code = readFileSync(join(ROOT, "LICENSE"), "utf8");
    expect(code).toMatch(/^\s+Apache License\n\s+Version 2\.0, January 2004\n/);
    expect(code).toContain("END OF TERMS AND CONDITIONS");
    expect(code).toContain("9. Accepting Warranty or Additional Liability.");
    const prose = readFileSync(join(ROOT, "LICENSE-LESSONS"), "utf8");
    expect(prose).toMatch(/^Attribution 4\.0 International\n/);
    expect(prose).toContain("Creative Commons Attribution 4.0 International Public License");
    expect(prose).toContain("Section 8 -- Interpretation.");
    expect(statSync(join(ROOT, "LICENSE-LESSONS")).size).toBeGreaterThan(18_000);
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { license?: string };
    expect(pkg.license).toBe("Apache-2.0 AND CC-BY-4.0");
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).toMatch(/## Licen[cs]e/);
    for (const s of ["LICENSE", "LICENSE-LESSONS", "Apache", "CC BY 4.0"]) expect(readme).toContain(s);
    expect(readFileSync(join(ROOT, "datasets", "README.md"), "utf8")).not.toMatch(/under the course repository's licence\./);
    const page = layout({ title: "t", body: "<p>b</p>" });
    expect(page).toContain(FOOTER);
    expect(FOOTER).toMatch(/CC BY 4\.0.*LICENSE-LESSONS.*Apache License 2\.0.*\(LICENSE\)/);
  });
});
