/**
 * The checks of `npm run doctor`: one line each, OK / WARN / MISSING, with how to fix what is not
 * OK. Essential checks decide the exit code; optional ones (a GPU backend, chromium, PyTorch) only
 * say what they would add.
 */
import { spawnSync } from "node:child_process";
import { existsSync, statfsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import semver from "semver";
import { ROOT, paths } from "../../grader/engine/paths.js";

export type Verdict = "ok" | "warn" | "missing";

export interface Check {
  name: string;
  verdict: Verdict;
  detail: string;
  /** What to do when not OK. */
  fix?: string;
  /** Without it the course cannot run (exit 1). */
  essential: boolean;
}

const require = createRequire(import.meta.url);

/** Node's version against package.json's engines field. */
export function checkNode(): Check {
  const wanted = (require(join(ROOT, "package.json")) as { engines: { node: string } }).engines.node;
  const ok = semver.satisfies(process.version, wanted);
  return { name: "Node.js", essential: true, verdict: ok ? "ok" : "missing", detail: `${process.version} (the course needs ${wanted})`, fix: ok ? undefined : "install Node 20.19 or newer (https://nodejs.org, or nvm install 20)" };
}

/** The npm dependencies the course runs on. */
export function checkPackages(): Check {
  const needed = ["@tensorflow/tfjs", "@tensorflow/tfjs-backend-wasm", "tsx", "fastify"];
  const missing = needed.filter((p) => {
    try {
      require.resolve(`${p}/package.json`);
      return false;
    } catch {
      return true;
    }
  });
  return { name: "npm packages", essential: true, verdict: missing.length === 0 ? "ok" : "missing", detail: missing.length === 0 ? `${needed.join(", ")} installed` : `not installed: ${missing.join(", ")}`, fix: "npm install" };
}

/** GFLOP/s of an n×n×n matMul on the current backend (median of 3 after a warm-up). */
async function timedMatmul(tf: typeof import("../../lib/tf.js"), n: number): Promise<number> {
  const a = tf.randomNormal([n, n]);
  const b = tf.randomNormal([n, n]);
  const once = async () => {
    const t0 = performance.now();
    const c = tf.matMul(a, b);
    await c.data();
    c.dispose();
    return performance.now() - t0;
  };
  await once();
  const times = [await once(), await once(), await once()].sort((x, y) => x - y);
  tf.dispose([a, b]);
  return (2 * n ** 3) / (times[1] / 1000) / 1e9;
}

/** Each TensorFlow.js backend: does it start, and how fast is a matMul there. */
export async function checkBackends(): Promise<Check[]> {
  const tf = await import("../../lib/tf.js");
  const { registerWasmKernels } = await import("../../lib/wasm-kernels.js");
  const out: Check[] = [];
  const attempt = async (name: string, n: number, setup: () => Promise<void>, essential: boolean, fix: string, note: string) => {
    try {
      await setup();
      const ok = await tf.setBackend(name);
      await tf.ready();
      if (!ok || tf.getBackend() !== name) throw new Error(`setBackend("${name}") left TensorFlow.js on ${tf.getBackend()}`);
      const gflops = await timedMatmul(tf, n);
      out.push({ name: `backend ${name}`, essential, verdict: "ok", detail: `${n}×${n} matMul: ${gflops.toFixed(gflops < 10 ? 2 : 1)} GFLOP/s${note ? ` (${note})` : ""}` });
    } catch (err) {
      out.push({ name: `backend ${name}`, essential, verdict: essential ? "missing" : "warn", detail: (err as Error).message.split("\n")[0], fix });
    }
  };
  await attempt("cpu", 256, async () => {}, true, "npm install (the cpu backend is part of @tensorflow/tfjs)", "grading uses it");
  await attempt("wasm", 512, async () => {
    await import("@tensorflow/tfjs-backend-wasm");
    registerWasmKernels();
  }, true, "npm install; the wasm backend needs WebAssembly SIMD (Node 20 has it)", "labs and training: COURSE_BACKEND=wasm");
  const node = ["@tensorflow/tfjs-node-gpu", "@tensorflow/tfjs-node"].find((p) => {
    try {
      require.resolve(p);
      return true;
    } catch {
      return false;
    }
  });
  if (!node) {
    out.push({
      name: "backend tensorflow",
      essential: false,
      verdict: "warn",
      detail: "not installed (optional: libtensorflow on CPU or a CUDA GPU)",
      fix: "with a CUDA GPU, the driver, CUDA and cuDNN versions tfjs-node-gpu names: npm install --no-save @tensorflow/tfjs-node-gpu@4.22.0 (README, Backends)",
    });
  } else {
    await attempt("tensorflow", 1024, async () => {
      await import(node);
    }, false, `${node} is installed but does not start: check its libtensorflow download and CUDA versions`, node);
  }
  return out;
}

/** Debian's chromium, for the site and chat-page browser tests. */
export function checkChromium(): Check {
  const path = process.env.COURSE_CHROMIUM ?? "/usr/bin/chromium";
  if (!existsSync(path)) return { name: "chromium", essential: false, verdict: "warn", detail: `none at ${path}: the browser tests (site, chat page) are skipped`, fix: "apt-get install -y chromium (or set COURSE_CHROMIUM)" };
  const v = spawnSync(path, ["--version"], { encoding: "utf8", timeout: 20_000 });
  return v.status === 0
    ? { name: "chromium", essential: false, verdict: "ok", detail: `${v.stdout.trim()} (${path})` }
    : { name: "chromium", essential: false, verdict: "warn", detail: `${path} does not run: ${(v.stderr || String(v.error)).split("\n")[0]}`, fix: "apt-get install --reinstall -y chromium" };
}

/** Python with PyTorch, for regenerating fixtures and the export test (optional). */
export function checkTorch(): Check {
  const python = process.env.COURSE_PYTHON ?? "/usr/bin/python3";
  if (!existsSync(python)) return { name: "python3 + torch", essential: false, verdict: "warn", detail: `no ${python}: fixtures cannot be regenerated (the committed ones are used)`, fix: "apt-get install -y python3-torch (or set COURSE_PYTHON)" };
  const r = spawnSync(python, ["-c", "import torch; print(torch.__version__)"], { encoding: "utf8", timeout: 60_000 });
  return r.status === 0
    ? { name: "python3 + torch", essential: false, verdict: "ok", detail: `torch ${r.stdout.trim()} (${python}): npm run fixtures, the export test` }
    : { name: "python3 + torch", essential: false, verdict: "warn", detail: `${python} has no torch: fixtures cannot be regenerated (the committed ones are used)`, fix: "apt-get install -y python3-torch" };
}

/** Free disk space where the course lives. */
export function checkDisk(): Check {
  const s = statfsSync(ROOT);
  const free = (s.bavail * s.bsize) / 1024 ** 3;
  const verdict: Verdict = free >= 2 ? "ok" : free >= 0.5 ? "warn" : "missing";
  return { name: "disk space", essential: true, verdict, detail: `${free.toFixed(1)} GB free (checkpoints and runs need a few hundred MB)`, fix: verdict === "ok" ? undefined : "free some space: labs/*/out/ and runs/ hold regenerable outputs" };
}

/** Which pretraining corpus `npm run train -- pretrain` (and the capstone) will read (tools/data/ensure.ts). */
export async function checkCorpus(): Promise<Check> {
  const { describePretrainCorpus } = await import("../data/ensure.js");
  return { name: "pretrain corpus", essential: false, ...describePretrainCorpus() };
}

/** Whether exercises/ still matches the generated stubs, lesson by lesson. */
export async function checkExercises(): Promise<Check> {
  if (!existsSync(paths.solutions)) return { name: "exercises", essential: false, verdict: "ok", detail: "student edition (no solutions/): nothing to compare the stubs with" };
  const { stubStatuses } = await import("../stubs/sync.js");
  const statuses = stubStatuses();
  const by = (state: string) => [...new Set(statuses.filter((s) => s.state === state).map((s) => s.lesson))];
  const edited = [...new Set([...by("learner-edited"), ...by("diverged")])];
  const missing = by("missing");
  const stale = by("stale");
  const lessons = new Set(statuses.map((s) => s.lesson)).size;
  const parts = [`${lessons} lessons`, edited.length > 0 ? `your work in ${edited.length} (${edited.slice(0, 6).join(", ")}${edited.length > 6 ? ", …" : ""})` : "all untouched stubs"];
  if (missing.length > 0 || stale.length > 0) {
    return {
      name: "exercises",
      essential: false,
      verdict: "warn",
      detail: [...parts, missing.length > 0 ? `stubs missing in ${missing.join(", ")}` : "", stale.length > 0 ? `outdated stubs in ${stale.join(", ")}` : ""].filter((p) => p).join("; "),
      fix: "npm run stubs (writes missing and outdated stubs; never overwrites your edits)",
    };
  }
  return { name: "exercises", essential: false, verdict: "ok", detail: parts.join("; ") };
}

/** Every check, in the order they are printed. */
export async function runChecks(): Promise<Check[]> {
  return [checkNode(), checkPackages(), ...(await checkBackends()), checkDisk(), await checkCorpus(), checkChromium(), checkTorch(), await checkExercises()];
}
