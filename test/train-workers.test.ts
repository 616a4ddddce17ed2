/**
 * `npm run train -- pretrain --workers 2` (lib/train/workers.ts): two processes on the same global
 * batch follow the one-process loss curve, and a run stopped by Ctrl-C, then SIGKILLed, resumes to
 * the uninterrupted run's curve with no worker and no all-reduce folder left behind. Runs use the `micro` config on the
 * wasm backend (what training runs on, and fast enough here for 30 steps a run).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../grader/engine/paths.js";
import { loadResume } from "../lib/train/checkpoint.js";
import { allReduceFolders, gone, interruptedRun } from "./support/processes.js";

const STEPS = 30;
const CORPUS = join(ROOT, "datasets", "tiny-corpus.txt");
const base = (batch: number, workers: number) => ["pretrain", "--config", "micro", "--steps", String(STEPS), "--batch-size", String(batch), "--workers", String(workers), "--save-every", "5", "--eval-every", "1000", "--use-reference", "all", "--data", CORPUS];
const env = { ...process.env, COURSE_BACKEND: "wasm", FORCE_COLOR: "0" };
/**
 * Two workers vs one on the same 8 samples a step: the same gradient up to float rounding (each
 * rank sums its own rows first), which over 30 steps moved the loss by at most 3e-6 here (wasm,
 * measured); averaging the two ranks equally instead of by counted labels (MiniMind's all-reduce
 * mean; this corpus pads its rows) moved it by 1.5e-3.
 */
const TOLERANCE = 1e-4;

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "course-workers-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function train(args: string[]) {
  const r = spawnSync(process.execPath, ["--import", "tsx", "tools/train/cli.ts", ...args], { cwd: ROOT, env, encoding: "utf8", timeout: 240_000 });
  return { status: r.status, out: r.stdout + r.stderr };
}

/** The uninterrupted two-worker run the other runs are compared with (run once). */
function twoWorkerRun(): string {
  const dir = join(work, "two");
  if (!existsSync(dir)) {
    const r = train([...base(4, 2), "--out", dir]);
    expect(r.status, r.out).toBe(0);
    expect(r.out).toMatch(/Data parallel: 2 processes/);
  }
  return dir;
}

/** The per-step training losses a run's resume file records. */
function losses(dir: string): Array<[number, number]> {
  const file = readdirSync(dir).find((f) => f.endsWith("_resume.safetensors"));
  if (!file) throw new Error(`no resume file in ${dir}`);
  return loadResume(join(dir, file)).meta.losses;
}

const interrupted = (args: string[], atStep: number, signal: "SIGINT" | "SIGKILL") => interruptedRun(ROOT, env, args, atStep, signal);

describe("npm run train --workers 2", () => {
  it(`follows the one-process loss curve on the same global batch (${STEPS} steps, |Δloss| ≤ ${TOLERANCE})`, () => {
    const one = train([...base(8, 1), "--out", join(work, "one")]);
    expect(one.status, one.out).toBe(0);
    const [a, b] = [losses(join(work, "one")), losses(twoWorkerRun())];
    expect(a).toHaveLength(STEPS);
    expect(b.map((p) => p[0])).toEqual(a.map((p) => p[0]));
    const worst = Math.max(...a.map((p, i) => Math.abs(p[1] - b[i][1])));
    expect(worst, `largest loss difference over ${STEPS} steps`).toBeLessThanOrEqual(TOLERANCE);
    // The curve is a real one (the model learns), so agreeing with it means something.
    expect(a[STEPS - 1][1]).toBeLessThan(a[0][1] - 0.3);
  }, 300_000);

  it("stops on Ctrl-C and survives SIGKILL: each resume continues the curve, and no worker outlives rank 0", async () => {
    const dir = join(work, "interrupted");
    const args = [...base(4, 2), "--out", dir];
    const stopped = await interrupted(args, 7, "SIGINT");
    expect(stopped.code, stopped.out).toBe(130);
    expect(stopped.out).toMatch(/Ctrl-C: saved/);
    expect(stopped.workers.length).toBe(1);
    expect(await gone(stopped.workers), "the worker exits with rank 0").toBe(true);

    const killed = await interrupted([...args, "--resume", dir], 17, "SIGKILL");
    expect(killed.signal).toBe("SIGKILL");
    expect(killed.out).toMatch(/Resuming .* at micro-batch \d+/);
    expect(await gone(killed.workers), "the worker exits when rank 0 is killed").toBe(true);
    expect(allReduceFolders(killed.pid), "the worker removes the all-reduce folder rank 0 could not").toEqual([]);
    const saved = losses(dir).length;
    expect(saved).toBeGreaterThanOrEqual(15);
    expect(saved).toBeLessThan(STEPS);

    const finished = train([...args, "--resume", dir]);
    expect(finished.status, finished.out).toBe(0);
    const uninterrupted = losses(twoWorkerRun());
    const resumed = losses(dir);
    expect(resumed.map((p) => p[0])).toEqual(Array.from({ length: STEPS }, (_, i) => i + 1));
    expect(Math.max(...resumed.map((p, i) => Math.abs(p[1] - uninterrupted[i][1])))).toBeLessThanOrEqual(TOLERANCE);
  }, 300_000);
});
