/**
 * The gradebook against submissions that attack it and against being stopped (issue 20):
 *
 * - without an OS sandbox it refuses to grade, unless --trusted;
 * - a submission that SIGKILLs processes it should not see (processes this test started, its own
 *   parent) reaches none of them, and an honest learner of the same run gets its verdicts;
 * - SIGUSR1 opens no inspector in the gradebook or its workers;
 * - SIGTERM of the gradebook ends every process beneath it and removes its staged copies, leaving
 *   the rows it finished; a killed worker's lesson is "not graded", its processes killed and its
 *   staged copy removed; after SIGKILL of the whole gradebook, the next run removes the stale copy,
 *   and nothing else.
 *
 * Signals go only to processes this test started: the gradebook CLI it spawns, that CLI's
 * descendants (found by `ps --ppid`), and `sleep` processes of its own. Each process is identified
 * by pid and start time, so a recycled pid is never taken for it.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../grader/engine/paths.js";
import { osSandbox } from "../grader/engine/sandbox.js";
import { generateStub } from "../lib/stubs.js";

const REFERENCE = readFileSync(join(ROOT, "solutions", "lesson-23", "ppo.ts"), "utf8");
const STUB = generateStub(REFERENCE, "lesson-23", "ppo.ts");
/** A lesson file whose import never ends: its learner process spins until it is killed. */
const HANG = `${REFERENCE}\nfor (;;) {}\n`;
const BUILD = join(ROOT, ".grader-build");
const SANDBOX = osSandbox().available;
const TRUSTED = SANDBOX ? [] : ["--trusted"];
const linux = process.platform === "linux";

const base = mkdtempSync(join(tmpdir(), "gradebook-sandbox-test-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

interface Row {
  learner: string;
  function: string;
  status: string;
  reason: string;
}

/** A submissions folder under this test's temp folder: learner → text of its lesson-23/ppo.ts. */
function submissions(name: string, learners: Record<string, string>): string {
  const folder = join(base, name);
  for (const [learner, text] of Object.entries(learners)) {
    mkdirSync(join(folder, learner, "lesson-23"), { recursive: true });
    writeFileSync(join(folder, learner, "lesson-23", "ppo.ts"), text);
  }
  return folder;
}

interface Cli {
  child: ChildProcess;
  pid: number;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

function startCli(args: string[], env: NodeJS.ProcessEnv = {}): Cli {
  const child = spawn(process.execPath, ["--import", "tsx", "tools/gradebook/cli.ts", ...args], { cwd: ROOT, env: { ...process.env, FORCE_COLOR: "0", ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, pid: child.pid!, stderr: () => stderr, exited };
}

/** The executable file `command` names on this PATH (never a shell builtin), or undefined. */
function which(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(":").filter(Boolean)) {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return join(dir, command);
    } catch {
      // not here
    }
  }
  return undefined;
}

/** A process as this test knows it: pid, start time (clock ticks since boot) and command line. */
interface Proc {
  pid: number;
  start: string;
  args: string;
}

/** State, CPU time used (clock ticks) and start time of a pid, from /proc/<pid>/stat; undefined when there is no such process. */
function stat(pid: number): { state: string; cpu: number; start: string } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0], cpu: Number(fields[11]) + Number(fields[12]), start: fields[19] };
  } catch {
    return undefined;
  }
}

/** Every descendant of `pid` (children by `ps --ppid`, theirs, …). */
function descendants(pid: number): Proc[] {
  let out = "";
  try {
    out = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(pid)], { encoding: "utf8" });
  } catch {
    return []; // ps exits 1 when there is none
  }
  const children = out
    .split("\n")
    .map((l) => /^\s*(\d+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), args: m[2], start: stat(Number(m[1]))?.start ?? "" }))
    .filter((p) => p.start !== "");
  return [...children, ...children.flatMap((c) => descendants(c.pid))];
}

/** Whether the very process `p` still runs (a zombie, or a new process with its pid, does not). */
function alive(p: Proc): boolean {
  const s = stat(p.pid);
  return s !== undefined && s.start === p.start && s.state !== "Z";
}

/** Polls `f` until it gives a value; `what` (said when it never does) may be worked out then. */
async function waitFor<T>(what: string | (() => string), f: () => T | undefined | false, ms = 45_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${typeof what === "string" ? what : what()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The staged copies (`.grader-build/gradebook-<pid>-<n>`) of the gradebook with this pid. */
function stagedOf(pid: number): string[] {
  return existsSync(BUILD) ? readdirSync(BUILD).filter((e) => e.startsWith(`gradebook-${pid}-`)) : [];
}

/** A learner's process (the engine's bundle running, in namespaces or not) among `procs`. */
const isLearnerProcess = (p: Proc) => /\.grader-build\/\d+-\d+-\d+\/entry\.m?js/.test(p.args) && !p.args.startsWith("unshare");
const isWorker = (p: Proc) => p.args.includes("tools/gradebook/worker.ts");

/**
 * Waits until the gradebook `cli` is grading: a staged copy, a worker and a learner process exist.
 * With `spinning`, until that learner process has used 3 s of CPU: it is in HANG's endless loop
 * (loading takes far less), deaf to its IPC channel, so it would outlive a killed parent.
 */
async function grading(cli: Cli, { spinning = false } = {}): Promise<Proc[]> {
  return waitFor(() => `the gradebook to start a learner process${spinning ? " that spins" : ""} (stderr so far: ${cli.stderr()})`, () => {
    if (cli.child.exitCode !== null) throw new Error(`the gradebook ended (exit ${cli.child.exitCode}) before it was grading: ${cli.stderr()}`);
    const tree = descendants(cli.pid);
    const learner = tree.find(isLearnerProcess);
    const ready = learner !== undefined && (!spinning || (stat(learner.pid)?.cpu ?? 0) >= 300);
    return stagedOf(cli.pid).length > 0 && tree.some(isWorker) && ready ? tree : undefined;
  });
}

function rowsOf(file: string): Row[] {
  return parse(readFileSync(file, "utf8"), { columns: true }) as Row[];
}

/** Sockets in LISTEN state that process `pid` holds (an open inspector would be one). */
function listening(pid: number): number {
  const inodes = new Set<string>();
  for (const f of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    try {
      for (const line of readFileSync(f, "utf8").split("\n").slice(1)) {
        const c = line.trim().split(/\s+/);
        if (c[3] === "0A") inodes.add(c[9]);
      }
    } catch {
      // no IPv6
    }
  }
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m && inodes.has(m[1])) n++;
    } catch {
      // closed meanwhile
    }
  }
  return n;
}

/** Kills what is left of `procs` (this test's own processes), if a test failed half-way. */
function killLeft(procs: Proc[]): void {
  for (const p of procs) if (alive(p)) process.kill(p.pid, "SIGKILL");
}

describe("the gradebook without an OS sandbox", () => {
  it("refuses to grade, with one line saying why, unless --trusted; with it, grades and says so", async () => {
    const folder = submissions("no-sandbox", { stub: STUB });
    const out = join(base, "no-sandbox-out");
    const refused = await startCli([folder, "--out", out], { COURSE_OS_SANDBOX: "off" }).exited;
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr.trim()).toBe(
      "the gradebook runs each submission in an OS sandbox (its own PID, network and IPC namespaces), and none is available here: COURSE_OS_SANDBOX=off. Pass --trusted to grade anyway if you trust every submission.",
    );
    expect(existsSync(out)).toBe(false);

    const trusted = await startCli([folder, "--out", out, "--trusted"], { COURSE_OS_SANDBOX: "off" }).exited;
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stderr.split("\n").filter((l) => /no OS sandbox/.test(l))).toEqual([
      "--trusted: no OS sandbox here (COURSE_OS_SANDBOX=off), so each submission runs under Node's permission model only and can see and signal the other processes of your user",
    ]);
    for (const r of rowsOf(join(out, "gradebook.csv"))) expect(r.status).toBe("not-implemented");
    const json = JSON.parse(readFileSync(join(out, "gradebook.json"), "utf8")) as { sandbox: string };
    expect(json.sandbox).toBe("none (COURSE_OS_SANDBOX=off): graded with --trusted");
  }, 60_000);
});

describe.skipIf(!linux)("the gradebook when a submission or a person sends signals", () => {
  it.skipIf(!SANDBOX)("a submission that SIGKILLs other processes reaches none of them; an honest learner of the same run is graded", async () => {
    const sleeps = [spawn("sleep", ["30"]), spawn("sleep", ["30"])];
    try {
      const targets = sleeps.map((s) => s.pid!);
      const attack = `import { readdirSync } from "node:fs";
for (const pid of [${targets.join(", ")}, process.ppid]) {
  try { process.kill(pid, "SIGKILL"); console.log("sent SIGKILL to " + pid); } catch (err) { console.log("could not signal " + pid + ": " + (err as Error).message); }
}
try { console.log("sees /proc: " + readdirSync("/proc").filter((e) => /^\\d+$/.test(e)).join(" ")); } catch (err) { console.log("cannot read /proc: " + (err as Error).message); }
${REFERENCE}`;
      const folder = submissions("attack", { attacker: attack, honest: REFERENCE });
      const out = join(base, "attack-out");
      const r = await startCli([folder, "--out", out, "--jobs", "2", "--timeout", "20"]).exited;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(sleeps.map((s) => [s.exitCode, s.signalCode])).toEqual([
        [null, null],
        [null, null],
      ]);
      for (const s of sleeps) expect(() => process.kill(s.pid!, 0)).not.toThrow();
      expect(r.code, r.stderr).toBe(0);
      const rows = rowsOf(join(out, "gradebook.csv"));
      const honest = rows.filter((x) => x.learner === "honest");
      expect(honest).toHaveLength(5);
      for (const x of honest) expect(x.status, x.reason).toBe("passed");
      expect(rows.filter((x) => x.learner === "attacker")).toHaveLength(5);
    } finally {
      for (const s of sleeps) s.kill("SIGKILL");
    }
  }, 90_000);

  it("SIGUSR1 opens no inspector; SIGTERM ends every process beneath the gradebook, removes its staged copies and leaves the rows it finished", async () => {
    const folder = submissions("sigterm", { "a-quick": STUB, "b-hang": HANG });
    const out = join(base, "sigterm-out");
    const cli = startCli([folder, "--out", out, "--jobs", "2", "--timeout", "60", "--wall", "120", ...TRUSTED]);
    let tree: Proc[] = [];
    try {
      const partial = join(out, "gradebook.partial.csv");
      await waitFor("a-quick's rows in the partial gradebook", () => existsSync(partial) && rowsOf(partial).some((x) => x.learner === "a-quick"));
      tree = await grading(cli, { spinning: true });
      const worker = tree.find(isWorker)!;
      // SIGUSR1 would open Node's inspector (a way into the judging process): the gradebook and its worker keep it shut.
      process.kill(cli.pid, "SIGUSR1");
      process.kill(worker.pid, "SIGUSR1");
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(alive(worker)).toBe(true);
      expect([listening(cli.pid), listening(worker.pid)]).toEqual([0, 0]);
      expect(cli.stderr()).not.toMatch(/Debugger listening|inspector/i);

      tree = descendants(cli.pid);
      process.kill(cli.pid, "SIGTERM");
      const r = await cli.exited;
      expect(r.code, r.stderr).toBe(143);
      expect(r.stderr).toMatch(/stopped by SIGTERM: 1 of 2 lesson\(s\) were graded, their rows are in .*gradebook\.partial\.csv/);
      expect(stagedOf(cli.pid)).toEqual([]);
      await waitFor(() => `the processes beneath the gradebook to end: ${tree.filter(alive).map((p) => p.args).join("; ")}`, () => !tree.some(alive), 10_000);
      const rows = rowsOf(partial);
      expect(rows.map((x) => x.learner)).toEqual(Array(5).fill("a-quick"));
      expect(existsSync(join(out, "gradebook.csv"))).toBe(false);
    } finally {
      killLeft([...tree, ...descendants(cli.pid)]);
      cli.child.kill("SIGKILL");
    }
  }, 90_000);

  it("a worker killed with SIGKILL: its lesson is not graded, with a plain reason, its processes end and its staged copy goes; the others are graded", async () => {
    const folder = submissions("worker-kill", { "a-hang": HANG, "b-quick": STUB });
    const out = join(base, "worker-kill-out");
    // Where setpriv is missing, the engine's grading processes do not die with their worker: the
    // gradebook itself must end them. A PATH with unshare (the namespaces) and no setpriv makes that so.
    const bin = join(base, "bin-without-setpriv");
    mkdirSync(bin, { recursive: true });
    for (const command of ["unshare", "true"]) {
      const found = which(command);
      if (found && !existsSync(join(bin, command))) symlinkSync(found, join(bin, command));
    }
    const cli = startCli([folder, "--out", out, "--jobs", "1", "--timeout", "60", "--wall", "120", ...TRUSTED], { PATH: bin });
    let tree: Proc[] = [];
    try {
      tree = await grading(cli, { spinning: true });
      const staged = stagedOf(cli.pid);
      process.kill(tree.find(isWorker)!.pid, "SIGKILL");
      const r = await cli.exited;
      expect(r.code, r.stderr).toBe(1);
      const rows = rowsOf(join(out, "gradebook.csv"));
      for (const x of rows.filter((x) => x.learner === "a-hang")) {
        expect(x.status).toBe("not-graded");
        expect(x.reason).toBe("the grading process was killed (SIGKILL) before it finished, so lesson-23 was not graded: the machine may have run out of memory, or something else stopped it. Grade this learner again.");
      }
      for (const x of rows.filter((x) => x.learner === "b-quick")) expect(x.status).toBe("not-implemented");
      expect(rows).toHaveLength(10);
      expect(staged.filter((s) => existsSync(join(BUILD, s)))).toEqual([]);
      expect(stagedOf(cli.pid)).toEqual([]);
      // The learner process spinning in its endless loop outlived its worker: the gradebook killed it.
      await waitFor(() => `the killed worker's processes to end: ${tree.filter(alive).map((p) => p.args).join("; ")}`, () => !tree.some(alive), 10_000);
    } finally {
      killLeft([...tree, ...descendants(cli.pid)]);
      cli.child.kill("SIGKILL");
    }
  }, 90_000);

  it("SIGKILL of the gradebook alone: its worker ends its grading and removes its staged copy", async () => {
    const folder = submissions("cli-kill", { hang: HANG });
    const cli = startCli([folder, "--out", join(base, "cli-kill-out"), "--timeout", "60", "--wall", "120", ...TRUSTED]);
    let tree: Proc[] = [];
    try {
      tree = await grading(cli);
      process.kill(cli.pid, "SIGKILL");
      await cli.exited;
      await waitFor(() => `the processes beneath the killed gradebook to end: ${tree.filter(alive).map((p) => p.args).join("; ")}`, () => !tree.some(alive), 15_000);
      await waitFor("the staged copy to be removed", () => stagedOf(cli.pid).length === 0, 5_000);
    } finally {
      killLeft(tree);
    }
  }, 90_000);

  it("after SIGKILL of the whole gradebook, the next run removes its stale staged copy, and no other folder", async () => {
    const folder = submissions("all-kill", { hang: HANG });
    const cli = startCli([folder, "--out", join(base, "all-kill-out"), "--timeout", "60", "--wall", "120", ...TRUSTED]);
    // A staged copy's name with a pid that runs (this test's own): not stale, so never removed.
    const live = join(BUILD, `gradebook-${process.pid}-999`);
    let tree: Proc[] = [];
    try {
      tree = await grading(cli);
      // Every process at once, as `kill -9` of a process group or the OOM killer would: none can clean up.
      process.kill(cli.pid, "SIGKILL");
      killLeft(tree);
      await cli.exited;
      await waitFor("the killed processes to end", () => !tree.some(alive), 10_000);
      const stale = stagedOf(cli.pid);
      expect(stale).toHaveLength(1);
      mkdirSync(live, { recursive: true });

      const next = await startCli([submissions("after-kill", { stub: STUB }), "--out", join(base, "after-kill-out"), ...TRUSTED]).exited;
      expect(next.code, next.stderr).toBe(0);
      expect(next.stderr).toMatch(new RegExp(`removed \\d+ staged cop(y|ies) left by a gradebook that no longer runs \\(.*\\.grader-build/${stale[0]}\\b`));
      expect(stagedOf(cli.pid)).toEqual([]);
      expect(existsSync(live)).toBe(true);
      // What the links of the stale copy pointed to is untouched.
      expect(existsSync(join(ROOT, "lib", "tf.ts"))).toBe(true);
      expect(existsSync(join(ROOT, "grader", "engine", "sandbox.ts"))).toBe(true);
    } finally {
      killLeft(tree);
      rmSync(live, { recursive: true, force: true });
    }
  }, 90_000);
});
