/**
 * The red team's routes to a pass that was not earned (issue 20), each as learner code in a
 * workspace of its own. Every attack must end as a refusal or a failure with a plain message, never
 * as a pass or a crash. Signals go only to processes this file started; files are written only in
 * its own temporary folders.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILD_DIR, BUNDLE_NAME, removeStaleBundles } from "../grader/engine/bundle.js";
import { gradeIsolated, type IsolatedRun } from "../grader/engine/isolate.js";
import { FIXTURE_NAME, ROOT, gradedLessons, lessonDir } from "../grader/engine/paths.js";
import { inspectorSignalFlags, osSandbox, permissionFlag } from "../grader/engine/sandbox.js";
import { summarise } from "../grader/engine/summary.js";
import { scratch, workspace } from "./support/workspace.js";
import { WRONG_LESSON_23 } from "./support/wrong-lesson-23.js";
import { processAlive } from "../lib/processes.js";

const WRONG = WRONG_LESSON_23;

const grade = (dir: string, lesson = "lesson-23", hints = false): Promise<IsolatedRun> => gradeIsolated({ lesson, implDir: join(dir, lesson), hints }, { caseTimeoutMs: 5000 });
const nonePass = (run: IsolatedRun) => summarise(run.results).every((s) => s.verdict !== "passed");
const cli = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ["--import", "tsx", "tools/loop/grade-cli.ts", ...args], { cwd: ROOT, encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0", ...env }, timeout: 60_000 });
const alive = processAlive;

describe("the Node the grader runs on", () => {
  it("takes the permission flag this Node has (--experimental-permission on 20, --permission on 22.13+ and 24)", () => {
    const [major, minor] = process.versions.node.split(".").map(Number);
    expect(permissionFlag()).toBe(major > 22 || (major === 22 && minor >= 13) ? "--permission" : "--experimental-permission");
  });

  it("grades the reference solutions of a lesson as passing (every case sandboxed on this Node)", async () => {
    const run = await gradeIsolated({ lesson: "lesson-23", implDir: join(ROOT, "solutions", "lesson-23"), hints: false, reference: true }, { caseTimeoutMs: 20_000 });
    expect(run.fatal).toBeUndefined();
    expect(run.results.length).toBeGreaterThan(40);
    expect(run.results.filter((r) => r.status !== "passed")).toEqual([]);
  });
});

describe("1. no inspector by signal", () => {
  it("SIGUSR1 sent to the grader by learner code does not open the grader's inspector", () => {
    const dir = workspace(`
import { connect } from "node:net";
try { process.kill(process.ppid, "SIGUSR1"); console.log("signal sent"); } catch (e) { console.log("signal refused " + (e as Error).message); }
await new Promise((r) => setTimeout(r, 700));
const open = await new Promise<boolean>((r) => { const s = connect(9229, "127.0.0.1"); s.on("connect", () => { s.destroy(); r(true); }); s.on("error", () => r(false)); });
console.log(open ? "INSPECTOR OPEN" : "inspector closed");
${WRONG}`);
    // Without namespaces the learner's process sees its parent (the grader): the guard alone must hold.
    const out = cli(["lesson-23"], { COURSE_EXERCISES_DIR: relative(ROOT, dir), COURSE_PROGRESS_FILE: join(scratch(), "p.json"), COURSE_OS_SANDBOX: "off" });
    expect(out.stdout).toMatch(/signal sent/);
    expect(out.stdout).toMatch(/inspector closed/);
    expect(out.stdout).not.toMatch(/INSPECTOR OPEN/);
    expect(out.stdout).toMatch(/0\/5 functions pass/);
  });

  it("the reference process and the guard keep their inspector shut when SIGUSR1 reaches them", async () => {
    const port = await freePort();
    // A process that, like every course process above learner code, installs the guard; SIGUSR1 would open its inspector on `port`.
    const script = join(scratch(), "guarded.ts");
    writeFileSync(script, `import { guardInspectorSignal } from ${JSON.stringify(join(ROOT, "grader/engine/sandbox.ts"))};\nguardInspectorSignal();\nprocess.send?.("ready");\nsetTimeout(() => {}, 5000);\n`);
    // Each is signalled once it is running (the guard is installed when its module has loaded).
    const processes = [
      { file: script, ready: undefined, until: "ready" },
      { file: join(ROOT, "grader/engine/reference-child.ts"), ready: { type: "plan", lesson: "lesson-3" }, until: "plan" },
    ];
    for (const p of processes) {
      const child = spawn(process.execPath, ["--import", "tsx", ...inspectorSignalFlags(), `--inspect-port=${port}`, p.file], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe", "ipc"] });
      try {
        await new Promise<void>((resolve) => {
          child.on("message", (m: unknown) => {
            if (m === p.until || (m as { type?: string })?.type === p.until) resolve();
          });
          if (p.ready) child.send(p.ready);
        });
        child.kill("SIGUSR1");
        await new Promise((r) => setTimeout(r, 700));
        expect(await portOpen(port)).toBe(false);
      } finally {
        child.kill("SIGKILL");
      }
    }
  });
});

describe("2. the learner's process reads only its bundle and the runtime", () => {
  it("solutions/, grader/ (cases and fixtures), /proc, the progress file and other folders are refused; the fixture copy has no expected values", async () => {
    const other = scratch();
    writeFileSync(join(other, "classmate.ts"), "export const answer = 42;\n");
    const targets = {
      solution: join(ROOT, "solutions/lesson-23/ppo.ts"),
      grader: join(ROOT, "grader/lesson-23/cases.ts"),
      fixtures: join(ROOT, "grader/lesson-23/fixture.json"),
      progress: join(ROOT, "package.json"),
      classmate: join(other, "classmate.ts"),
      procParent: "/proc/PPID/cmdline",
      procSelf: "/proc/self/environ",
    };
    const dir = workspace(`
import { readFileSync, readdirSync } from "node:fs";
const targets: Record<string, string> = ${JSON.stringify(targets)};
for (const [label, p] of Object.entries(targets)) {
  try { readFileSync(p.replace("PPID", String(process.ppid))); console.log("READ " + label); } catch (e) { console.log("refused " + label + " " + (e as NodeJS.ErrnoException).code); }
}
try { readdirSync(${JSON.stringify(ROOT)}); console.log("READ root listing"); } catch (e) { console.log("refused root listing"); }
const copy = readFileSync(new URL("./data/grader/lesson-23/fixture.json", import.meta.url), "utf8");
console.log(copy.includes('"expected"') ? "FIXTURE COPY HAS EXPECTED" : "fixture copy without expected values (" + copy.length + " chars)");
${WRONG}`);
    const run = await grade(dir);
    expect(run.fatal).toBeUndefined();
    for (const label of [...Object.keys(targets), "root listing"]) expect(run.printed).toMatch(new RegExp(`refused ${label}`));
    expect(run.printed).not.toMatch(/READ /);
    expect(run.printed).toMatch(/fixture copy without expected values/);
    expect(nonePass(run)).toBe(true);
  });

  it("the fixture copies keep every input bit for bit (−0 included) and drop only the expected values", async () => {
    const { fixtureWithoutExpected } = await import("../grader/engine/bundle.js");
    const same = (a: unknown, b: unknown): boolean =>
      typeof a === "number" ? Object.is(a, b) : Array.isArray(a) ? Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i])) : a !== null && typeof a === "object" ? b !== null && typeof b === "object" && Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, x]) => same(x, (b as Record<string, unknown>)[k])) : a === b;
    expect(fixtureWithoutExpected('{"cases":{"f":[{"name":"n","inputs":{"x":[-0.0,1e-45,0.1]},"expected":[1]}]}}')).toBe('{"cases":{"f":[{"name":"n","inputs":{"x":[-0,1e-45,0.1]}}]}}');
    const fixtures = gradedLessons().flatMap((l) => readdirSync(lessonDir(l)).filter((n) => FIXTURE_NAME.test(n)).map((n) => join(lessonDir(l), n)));
    expect(fixtures.length).toBeGreaterThan(gradedLessons().length - 1);
    for (const f of fixtures) {
      const original = JSON.parse(readFileSync(f, "utf8")) as { cases?: Record<string, Array<{ inputs?: unknown }>> };
      const copy = JSON.parse(fixtureWithoutExpected(readFileSync(f, "utf8"))) as typeof original;
      for (const [ex, cases] of Object.entries(original.cases ?? {})) cases.forEach((c, i) => expect(same(c.inputs, copy.cases![ex][i].inputs), `${f} ${ex}[${i}]`).toBe(true));
    }
  });

  it("transpiling the reference from disk at run time gives nothing to run", async () => {
    const dir = workspace(`
import { readFileSync } from "node:fs";
let source = "";
try { source = readFileSync(${JSON.stringify(join(ROOT, "solutions/lesson-23/ppo.ts"))}, "utf8"); } catch (e) { console.log("refused: " + (e as NodeJS.ErrnoException).code); }
export const maskedGae = source ? () => { throw new Error("read the reference"); } : () => tf.scalar(0);
`);
    const run = await grade(dir);
    expect(run.printed).toMatch(/refused: ERR_ACCESS_DENIED/);
    expect(nonePass(run)).toBe(true);
  });
});

describe.skipIf(!osSandbox().available)("3. processes and network beyond the learner's own", () => {
  it("cannot see or signal processes this test started, nor reach a server on loopback", async () => {
    const sleeper = spawn("sleep", ["30"], { stdio: "ignore" });
    let connections = 0;
    const server = createServer((s) => {
      connections++;
      s.destroy();
    });
    const port = await new Promise<number>((r) => server.listen(0, "127.0.0.1", () => r((server.address() as { port: number }).port)));
    try {
      const dir = workspace(`
import { connect } from "node:net";
import { readdirSync } from "node:fs";
console.log("my pid " + process.pid);
for (const pid of [${sleeper.pid}]) { try { process.kill(pid, "SIGKILL"); console.log("KILLED " + pid); } catch (e) { console.log("kill refused " + (e as NodeJS.ErrnoException).code); } }
const reached = await new Promise<string>((r) => { const s = connect(${port}, "127.0.0.1"); s.on("connect", () => { s.destroy(); r("REACHED"); }); s.on("error", (e) => r("network refused " + (e as NodeJS.ErrnoException).code)); });
console.log(reached);
${WRONG}`);
      const run = await grade(dir);
      expect(run.printed).toMatch(/my pid 1\b/);
      expect(run.printed).toMatch(/kill refused ESRCH/);
      expect(run.printed).toMatch(/network refused/);
      expect(run.printed).not.toMatch(/KILLED|REACHED/);
      expect(alive(sleeper.pid!)).toBe(true);
      expect(connections).toBe(0);
      expect(run.sandboxNote).toBeUndefined();
    } finally {
      sleeper.kill("SIGKILL");
      server.close();
    }
  });
});

describe("4-6. course modules that hand out answers", () => {
  it("importing grader/engine/deps.ts (lesson 12's reference rope table) is refused by name", async () => {
    const dir = workspace(`import { deps } from "../../grader/engine/deps.js";\nexport const ropeFrequencies = (...a: unknown[]) => (deps.ropeFrequencies as (...x: unknown[]) => unknown)(...a);`, "lesson-12", "rope.ts");
    const run = await grade(dir, "lesson-12");
    const rope = run.results.filter((r) => r.exercise === "ropeFrequencies");
    expect(rope.length).toBeGreaterThan(0);
    expect(rope.every((r) => r.status === "error" && /imports a grader file \(grader\/engine\/deps\.ts\)/.test(r.message ?? ""))).toBe(true);
  });
});

describe("5. folders and files that lead into solutions/", () => {
  it("a lesson folder that is a symlink to solutions/ is refused by name, before anything runs", async () => {
    const dir = scratch();
    symlinkSync(join(ROOT, "solutions", "lesson-3"), join(dir, "lesson-3"));
    const run = await grade(dir, "lesson-3");
    expect(run.results).toEqual([]);
    expect(run.fatal?.message).toMatch(/lesson-3 resolves into solutions\/ \(solutions\/lesson-3\)/);
  });

  it("COURSE_EXERCISES_DIR whose lesson folder links into solutions/ exits 2 and records nothing", () => {
    const dir = scratch();
    symlinkSync(join(ROOT, "solutions", "lesson-3"), join(dir, "lesson-3"));
    const progress = join(scratch(), "progress.json");
    const out = cli(["lesson-3"], { COURSE_EXERCISES_DIR: relative(ROOT, dir), COURSE_PROGRESS_FILE: progress });
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(/resolves into solutions\//);
    expect(existsSync(progress) ? readFileSync(progress, "utf8") : "").not.toMatch(/passed/);
  });

  it("a symlinked lesson file is refused as such, not reported as a grader bug", async () => {
    const dir = scratch();
    mkdirSync(join(dir, "lesson-3"));
    symlinkSync(join(ROOT, "solutions", "lesson-3", "sampling.ts"), join(dir, "lesson-3", "sampling.ts"));
    const run = await grade(dir, "lesson-3");
    expect(run.fatal).toBeUndefined();
    expect(run.results.length).toBeGreaterThan(0);
    expect(run.results.every((r) => r.status === "error" && /sampling\.ts is a symbolic link/.test(r.message ?? ""))).toBe(true);
  });
});

describe("7. the recorded verdict covers every file the bundle included", () => {
  it("breaking a helper file the lesson re-exports makes the record stale", async () => {
    const dir = scratch();
    mkdirSync(join(dir, "lesson-23"));
    mkdirSync(join(dir, "mine"));
    const impl = join(dir, "mine", "impl.ts");
    const good = readFileSync(join(ROOT, "solutions", "lesson-23", "ppo.ts"), "utf8");
    writeFileSync(impl, good);
    writeFileSync(join(dir, "lesson-23", "ppo.ts"), `export * from "../mine/impl.js";\n`);
    const saved = { dir: process.env.COURSE_EXERCISES_DIR, progress: process.env.COURSE_PROGRESS_FILE };
    process.env.COURSE_EXERCISES_DIR = relative(ROOT, dir);
    process.env.COURSE_PROGRESS_FILE = join(scratch(), "progress.json");
    try {
      const { gradeLesson } = await import("../tools/loop/grading.js");
      const { readProgress, recordIsFresh } = await import("../tools/loop/progress.js");
      const graded = await gradeLesson("lesson-23", { caseTimeoutMs: 10_000 });
      expect(graded.record && Object.values(graded.record.functions).every((f) => f.verdict === "passed")).toBe(true);
      expect(graded.record?.inputs).toEqual([relative(ROOT, impl)]);
      const record = readProgress().lessons["lesson-23"];
      expect(recordIsFresh("lesson-23", record)).toBe(true);
      writeFileSync(impl, good.replace(/export function maskedGae/, "export function maskedGaeBroken"));
      expect(recordIsFresh("lesson-23", record)).toBe(false);
      writeFileSync(impl, good);
      expect(recordIsFresh("lesson-23", record)).toBe(true);
    } finally {
      for (const [k, v] of [["COURSE_EXERCISES_DIR", saved.dir], ["COURSE_PROGRESS_FILE", saved.progress]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});

describe("9. learner output cannot draw over the report", () => {
  it("cursor moves, erase-line, hidden text, bells and carriage returns are made visible; newlines and tabs stay", async () => {
    const dir = workspace(`
console.log("\\x1b[1A\\x1b[2K\\x1b[8m5/5 functions pass\\x07\\r\\tend");
export function maskedGae() { throw new Error("\\x1b[2K\\x1b[32m✓ passed"); }
${WRONG.replace(/export function maskedGae[^\n]*\n/, "")}`);
    const run = await grade(dir);
    expect(run.printed).not.toMatch(/[\x1b\x07\r]/);
    expect(run.printed).toContain("\\x1b[1A\\x1b[2K\\x1b[8m5/5 functions pass\\x07\\x0d\tend");
    const thrown = run.results.find((r) => r.exercise === "maskedGae")!;
    expect(thrown.message).not.toMatch(/\x1b/);
    expect(thrown.message).toContain("\\x1b[2K");
    const out = cli(["lesson-23"], { COURSE_EXERCISES_DIR: relative(ROOT, dir), COURSE_PROGRESS_FILE: join(scratch(), "p.json") });
    expect(out.stdout + out.stderr).not.toMatch(/\x1b/);
  });
});

describe("10. malformed messages", () => {
  it("an output whose tensor data is null (a patched process._send) fails its cases with a plain message, and the run goes on", async () => {
    const dir = workspace(`
const proc = process as unknown as { _send: (m: unknown, ...rest: unknown[]) => unknown };
const original = proc._send.bind(process);
proc._send = (m: unknown, ...rest: unknown[]) => {
  const msg = m as { type?: string; output?: { status?: string; value?: { t?: string; data?: unknown } } };
  if (msg?.type === "output" && msg.output?.value?.t === "tensor") msg.output.value.data = null;
  return original(m, ...rest);
};
${WRONG}`);
    const run = await grade(dir);
    expect(run.fatal).toBeUndefined();
    const broken = run.results.filter((r) => /does not fit the grading protocol/.test(r.message ?? ""));
    expect(broken.length).toBeGreaterThan(10);
    expect(broken.every((r) => r.status === "error")).toBe(true);
    expect(nonePass(run)).toBe(true);
  });
});

describe("11. a grader killed with SIGKILL", () => {
  it("leaves no grading process behind, no stack trace, and a build folder the next run removes", async () => {
    const dir = workspace(`export function responseLogpPositions() { for (;;) {} }\n${WRONG.replace(/export function responseLogpPositions[^\n]*\n/, "")}`);
    const buildsBefore = new Set(existsSync(BUILD_DIR) ? readdirSync(BUILD_DIR) : []);
    const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "tools/loop/grade-cli.ts", "lesson-23", "--timeout", "60"], {
      cwd: ROOT,
      env: { ...process.env, FORCE_COLOR: "0", COURSE_EXERCISES_DIR: relative(ROOT, dir), COURSE_PROGRESS_FILE: join(scratch(), "p.json") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
    const descendants = new Set<number>();
    // Wait until the reference and the (spinning) learner process both run, collecting the CLI's process tree.
    // (The type check, a course process that fills its cache, outlives the CLI on purpose: not counted.)
    for (let i = 0; i < 100 && descendants.size < 3; i++) {
      await new Promise((r) => setTimeout(r, 200));
      for (const [pid, args] of treeOf(child.pid!)) if (/reference-child|\.grader-build|unshare|setpriv/.test(args)) descendants.add(pid);
    }
    expect(descendants.size).toBeGreaterThanOrEqual(3);
    await new Promise((r) => setTimeout(r, 1000));
    child.kill("SIGKILL");
    // A zombie (dead, not yet reaped by whoever inherited it) is not running.
    const running = (pid: number) => alive(pid) && !spawnSync("ps", ["-o", "stat=", "-p", String(pid)], { encoding: "utf8" }).stdout.trim().startsWith("Z");
    for (let i = 0; i < 50 && [...descendants].some(running); i++) await new Promise((r) => setTimeout(r, 100));
    const left = [...descendants].filter(running).map((pid) => `${pid} ${spawnSync("ps", ["-o", "args=", "-p", String(pid)], { encoding: "utf8" }).stdout.trim()}`);
    left.forEach((l) => process.kill(Number(l.split(" ")[0]), "SIGKILL"));
    expect(left).toEqual([]);
    await new Promise((r) => setTimeout(r, 500));
    expect(output).not.toMatch(/ERR_IPC_CHANNEL_CLOSED|\n\s+at /);
    // The bundle is made in the grade project's vitest worker, which usually removes it as it ends when the CLI dies;
    // one it could not remove is named BUNDLE_NAME by a process now gone (other test files' live gradings have their own;
    // a gradebook's staged copies, gradebook-<pid>-<n>, are the gradebook's to remove, not removeStaleBundles').
    const stale = readdirSync(BUILD_DIR).filter((d) => BUNDLE_NAME.test(d) && !buildsBefore.has(d) && !alive(Number(d.split("-")[0])));
    expect(stale.length).toBeLessThanOrEqual(1);
    removeStaleBundles();
    expect(readdirSync(BUILD_DIR).filter((d) => stale.includes(d))).toEqual([]);
  });
});

/** The processes below `root` (its children, theirs, …) as [pid, command line], from ps. */
function treeOf(root: number): Array<[number, string]> {
  const rows = spawnSync("ps", ["-e", "-o", "pid=,ppid=,args="], { encoding: "utf8" })
    .stdout.trim()
    .split("\n")
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [Number(m[1]), Number(m[2]), m[3]] as const);
  const out: Array<[number, string]> = [];
  const walk = (pid: number) => rows.filter(([, ppid]) => ppid === pid).forEach(([p, , args]) => (out.push([p, args]), walk(p)));
  walk(root);
  return out;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(true));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(false)));
  });
}
