/**
 * The walls around a learner's process, chosen for the Node and the OS this runs on:
 *
 * - Node's permission model (`--permission` where it is stable, `--experimental-permission` on
 *   Node 20): no writes, no child processes, no workers, and reads only of the paths given.
 * - No inspector by signal: SIGUSR1 opens Node's inspector in the process it reaches. Every course
 *   process with learner code beneath it installs a listener (which keeps the inspector shut on
 *   Node 20, 22 and 24, measured) and starts its children with `--disable-sigusr1` where the Node
 *   has it (≥ 22.14).
 * - On Linux, where unprivileged user namespaces are available: the learner's process runs in its
 *   own user, PID, network, IPC and mount namespaces (util-linux `unshare`), so it sees no other
 *   process (it is PID 1 there, with a /proc of its own), can signal none, and has no network.
 *
 * - Where util-linux `setpriv` is available, every grading child dies with the process that started
 *   it (the parent-death signal), so a grader killed with SIGKILL leaves no orphan, even one whose
 *   learner code spins in an endless loop.
 *
 * `COURSE_OS_SANDBOX=off` turns the namespaces off (to test what happens without them).
 */
import { spawnSync } from "node:child_process";

/** Node's permission flag on this Node, or undefined when it has none the grader can use. */
export function permissionFlag(): "--permission" | "--experimental-permission" | undefined {
  const flags = process.allowedNodeEnvironmentFlags;
  if (flags.has("--permission")) return "--permission";
  if (flags.has("--experimental-permission")) return "--experimental-permission";
  return undefined;
}

/**
 * Why this Node cannot run the grader's sandbox (one line for the learner), or undefined when it can.
 * Supported: Node 20.19+, 22 and 24.
 */
export function unsupportedNode(): string | undefined {
  if (permissionFlag()) return undefined;
  return `this Node (${process.version}) has no permission model, so the grader cannot build the sandbox your code runs in: install Node 20.19 or newer, 22 or 24 (https://nodejs.org)`;
}

/**
 * The Node flags of a sandboxed learner process: the permission model, reads of `readable` only
 * (a folder as `folder/*`, a file as itself; one flag each, which every supported Node parses the
 * same way), no inspector by signal.
 */
export function sandboxNodeFlags(readable: { folders: string[]; files: string[] }): string[] {
  const flag = permissionFlag();
  if (!flag) throw new Error(unsupportedNode());
  return [
    flag,
    ...readable.folders.map((d) => `--allow-fs-read=${d}/*`),
    ...readable.files.map((f) => `--allow-fs-read=${f}`),
    ...inspectorSignalFlags(),
    "--no-warnings",
  ];
}

/** `--disable-sigusr1` where this Node has it (≥ 22.14): a child that SIGUSR1 reaches opens no inspector. */
export function inspectorSignalFlags(): string[] {
  return process.allowedNodeEnvironmentFlags.has("--disable-sigusr1") ? ["--disable-sigusr1"] : [];
}

let guarded = false;
/**
 * Keeps this process's inspector shut when something sends it SIGUSR1 (a JS listener replaces
 * Node's default of opening the inspector on 127.0.0.1:9229). Call it at the top of every course
 * process that has learner code beneath it: the grader, the watcher, the reference process, the
 * gradebook and its workers.
 */
export function guardInspectorSignal(): void {
  if (guarded) return;
  guarded = true;
  process.on("SIGUSR1", () => undefined);
}

/** The namespaces a learner's process runs in, as `unshare` flags. */
const UNSHARE = ["--user", "--pid", "--net", "--ipc", "--mount", "--fork", "--mount-proc", "--kill-child"];

export type OsSandbox = { available: true; command: string; args: string[] } | { available: false; why: string };

let probed: OsSandbox | undefined;

/**
 * Whether learner processes can run in namespaces of their own here, probed once a process
 * (`unshare … true`, a few milliseconds). `command args… node …` starts one.
 */
export function osSandbox(): OsSandbox {
  if (probed) return probed;
  if (process.env.COURSE_OS_SANDBOX === "off") return (probed = { available: false, why: "COURSE_OS_SANDBOX=off" });
  if (process.platform !== "linux") return (probed = { available: false, why: `no namespaces on ${process.platform}` });
  const r = spawnSync("unshare", [...UNSHARE, "true"], { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8", timeout: 10_000 });
  if (r.error) return (probed = { available: false, why: `unshare could not start (${(r.error as NodeJS.ErrnoException).code ?? r.error.message}; it is in util-linux)` });
  if (r.status !== 0) return (probed = { available: false, why: `unprivileged user namespaces are not available (unshare: ${r.stderr.trim().split("\n")[0] || `exit ${r.status}`})` });
  return (probed = { available: true, command: "unshare", args: UNSHARE });
}

let deathSignal: string[] | null | undefined;

/** `setpriv --pdeathsig KILL` when it works here (probed once), else []. */
function parentDeathPrefix(): string[] {
  if (deathSignal === undefined) {
    const r = process.platform === "linux" ? spawnSync("setpriv", ["--pdeathsig", "KILL", "true"], { stdio: "ignore", timeout: 10_000 }) : undefined;
    deathSignal = r && !r.error && r.status === 0 ? ["setpriv", "--pdeathsig", "KILL"] : null;
  }
  return deathSignal ?? [];
}

/**
 * How to start a grading child: the program and its leading arguments, to which `node <flags>
 * <file>` is appended; undefined to start node directly. `namespaces`: in the learner's namespaces
 * when osSandbox() has them. Either way the child dies with this process where setpriv works.
 */
export function childLauncher(namespaces: boolean): { command: string; args: string[] } | undefined {
  const os = namespaces ? osSandbox() : undefined;
  const prefix = [...parentDeathPrefix(), ...(os?.available ? [os.command, ...os.args] : [])];
  return prefix.length === 0 ? undefined : { command: prefix[0], args: prefix.slice(1) };
}

/** One line for a report when the learner's process runs without namespaces, else undefined. */
export function osSandboxNote(): string | undefined {
  const s = osSandbox();
  return s.available ? undefined : `no OS sandbox here (${s.why}): your code runs under Node's permission model only, and can see and signal other processes of your user`;
}
