/**
 * Processes of a data-parallel training run, as the tests that kill one see them (Linux /proc):
 * a run stopped by a signal, its workers, whether they are gone, and the all-reduce folders
 * (lib/train/workers.ts) its rank 0 left.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";

/**
 * PIDs of the gradient workers (lib/train/worker-main.ts) whose parent is `pid`. Only those: a
 * run started through tsx with a cold transform cache also has esbuild's service as a child
 * (measured: the first run after a source file changed).
 */
export function workersOf(pid: number): number[] {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        const parent = Number(readFileSync(`/proc/${d}/stat`, "utf8").split(") ")[1].split(" ")[1]);
        return parent === pid && readFileSync(`/proc/${d}/cmdline`, "utf8").includes("worker-main.ts");
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The all-reduce folders (AllReduceFiles) of the run whose rank 0 is `pid`. */
export const allReduceFolders = (pid: number) => (existsSync("/dev/shm") ? readdirSync("/dev/shm") : readdirSync(tmpdir())).filter((f) => f.startsWith(`course-allreduce-${pid}-`));

/** True while `pid` runs (a zombie counts as ended). */
const alive = (pid: number) => existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].startsWith("Z");

/** Waits up to `ms` for every one of `pids` to end; false if one still runs then. */
export async function gone(pids: number[], ms = 20_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!pids.some(alive)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** How a run stopped by `interruptedRun` ended, with its workers' PIDs as they were when the signal was sent. */
export interface InterruptedRun {
  code: number | null;
  signal: string | null;
  pid: number;
  workers: number[];
  out: string;
}

/**
 * Starts `npm run train -- <args>` (tools/train/cli.ts in `cwd`, with `env`) and sends `signal`
 * to it, not to its workers, once it has logged step `atStep` (a `step N/` line); resolves when it exits.
 */
export function interruptedRun(cwd: string, env: NodeJS.ProcessEnv, args: string[], atStep: number, signal: "SIGINT" | "SIGKILL"): Promise<InterruptedRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "tools/train/cli.ts", ...args], { cwd, env });
    let out = "";
    let workers: number[] = [];
    let sent = false;
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const steps = [...out.matchAll(/^step (\d+)\//gm)].map((m) => Number(m[1]));
      if (!sent && steps.some((s) => s >= atStep)) {
        sent = true;
        workers = workersOf(child.pid!);
        child.kill(signal);
      }
    });
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", (code, sig) => resolve({ code, signal: sig, pid: child.pid!, workers, out }));
  });
}
