/**
 * Every command of package.json's "scripts" (but `test` and `typecheck`) as a learner first meets
 * it: `--help` prints a usage line on stdout, exits 0 and changes nothing (no retrained tokenizer,
 * no regenerated corpus, no tracked file touched); an unknown flag exits 2 with a message naming it
 * and no stack trace, whether typed after `--` or (`npm run doctor --bogus`) handed over by npm.
 * And `npm run hint` names the nearest function for a typo, as `npm run grade` does.
 */
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import pLimit from "p-limit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ROOT } from "../grader/engine/paths.js";
import { HelpRequested, parseArgs, parseOptions, UsageError } from "../tools/loop/cli-support.js";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Each run's limit: a command that answers --help must do it long before this, even on a loaded machine. */
const RUN_TIMEOUT_MS = 90_000;
/** Two cores, shared with the other test files. */
const limit = pLimit(3);

const work = mkdtempSync(join(tmpdir(), "commands-test-"));

/** The environment of a learner's shell: no npm settings of the `npm test` that runs this file. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1", COURSE_PROGRESS_FILE: join(work, "progress.json"), ...extra };
  for (const k of Object.keys(env)) if ((k.startsWith("npm_") && !(k in extra)) || k === "INIT_CWD") delete env[k];
  return env;
}

function run(entry: string, args: string[], env: NodeJS.ProcessEnv = cleanEnv()): Promise<Run> {
  // As package.json starts it: through the vitest launcher for the commands that drive vitest.
  const node = VITEST_COMMANDS.has(entry) ? [LAUNCHER, entry] : ["--import", "tsx", entry];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...node, ...args], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, RUN_TIMEOUT_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

/** The launcher of the commands that drive vitest (it loads vitest before tsx), and those commands' entries. */
const LAUNCHER = "tools/loop/with-vitest.mjs";
const VITEST_COMMANDS = new Set<string>();

/** package.json's commands: script name → entry file. */
function commands(): Array<{ script: string; entry: string }> {
  const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
  return Object.entries(scripts)
    .filter(([name]) => name !== "test" && name !== "typecheck")
    .map(([script, line]) => {
      // V8 flags may come first (the training commands' --max-semi-space-size); --help and a bad flag do not depend on them.
      const m = /^node (?:--[a-z-]+=\S+ )*--import tsx (\S+\.ts)$/.exec(line) ?? new RegExp(`^node ${LAUNCHER} (\\S+\\.ts)$`).exec(line);
      if (!m) throw new Error(`package.json script ${script} is not \`node [--v8-flag=value …] --import tsx <entry>\` or \`node ${LAUNCHER} <entry>\`: ${line} (teach test/commands.test.ts how to run it)`);
      if (line.includes(LAUNCHER)) VITEST_COMMANDS.add(m[1]);
      return { script, entry: m[1] };
    });
}

/** What a command could change by mistake: the tracked tree, the tokenizer and the corpus (partly ignored). */
function fingerprint(): { status: string; files: Record<string, string> } {
  let status = "";
  try {
    status = execFileSync("git", ["status", "--porcelain", "--untracked-files=all"], { cwd: ROOT, encoding: "utf8" });
  } catch {
    // not a git checkout (an unpacked archive): the file fingerprints below still hold
  }
  const files: Record<string, string> = {};
  const corpus = join(ROOT, "datasets", "corpus");
  const paths = [join(ROOT, "datasets", "tokenizer", "tokenizer.json"), ...(existsSync(corpus) ? readdirSync(corpus).map((f) => join(corpus, f)) : [])];
  for (const p of paths) {
    if (!existsSync(p) || !statSync(p).isFile()) continue;
    files[p.slice(ROOT.length + 1)] = `${statSync(p).mtimeMs} ${createHash("sha256").update(readFileSync(p)).digest("hex")}`;
  }
  return { status, files };
}

/**
 * The tokenizer and corpus files that changed, went or appeared. pretrain.jsonl appearing is not
 * counted: a training test running beside this one may generate it at first use (a command that
 * wrongly regenerates the corpus rewrites the committed files beside it too, and those count).
 */
function fileChanges(before: Record<string, string>, after: Record<string, string>): string[] {
  const changed = Object.keys(before).filter((f) => after[f] !== before[f]).map((f) => (f in after ? `rewritten: ${f}` : `removed: ${f}`));
  const added = Object.keys(after).filter((f) => !(f in before) && !/^pretrain\.jsonl/.test(f.split("/").pop()!)).map((f) => `written: ${f}`);
  return [...changed, ...added];
}

/** The `git status --porcelain` lines that appeared (+) or went (−) between two snapshots. */
function statusChanges(before: string, after: string): string[] {
  const a = new Set(before.split("\n").filter(Boolean));
  const b = new Set(after.split("\n").filter(Boolean));
  return [...[...b].filter((l) => !a.has(l)).map((l) => `+ ${l}`), ...[...a].filter((l) => !b.has(l)).map((l) => `- ${l}`)];
}

const STACK = /^\s{4}at /m;

describe("every package.json command", () => {
  it("answers --help with a usage line (exit 0, nothing changed) and rejects --bogus-flag (exit 2, no stack trace)", async () => {
    const list = commands();
    expect(list.map((c) => c.script)).toEqual(expect.arrayContaining(["grade", "train", "train-tokenizer", "data", "doctor", "release", "gradebook"]));
    const before = fingerprint();
    const results = await Promise.all(
      list.flatMap(({ script, entry }) =>
        (["--help", "--bogus-flag"] as const).map((arg) => limit(async () => ({ script, entry, arg, r: await run(entry, [arg]) }))),
      ),
    );
    const after = fingerprint();
    const problems: string[] = [];
    for (const { script, entry, arg, r } of results) {
      const what = `npm run ${script} -- ${arg} (${entry})`;
      const tail = `\n  stdout: ${r.stdout.slice(0, 300)}\n  stderr: ${r.stderr.slice(-600)}`;
      if (r.timedOut) problems.push(`${what}: still running after ${RUN_TIMEOUT_MS / 1000} s`);
      else if (arg === "--help") {
        if (r.code !== 0) problems.push(`${what}: exit ${r.code}, not 0${tail}`);
        else if (!new RegExp(`^usage: npm run ${script}\\b`, "m").test(r.stdout)) problems.push(`${what}: no "usage: npm run ${script}" line on stdout${tail}`);
      } else {
        if (r.code !== 2) problems.push(`${what}: exit ${r.code}, not 2${tail}`);
        else if (!r.stderr.includes("--bogus-flag")) problems.push(`${what}: the message does not name --bogus-flag${tail}`);
      }
      if (STACK.test(r.stdout) || STACK.test(r.stderr)) problems.push(`${what}: printed a stack trace${tail}`);
    }
    expect(problems, problems.join("\n\n")).toEqual([]);
    expect(fileChanges(before.files, after.files), "--help or a bad flag rewrote the tokenizer or the corpus").toEqual([]);
    expect(statusChanges(before.status, after.status), "--help or a bad flag changed the working tree (or something else edited the checkout meanwhile)").toEqual([]);
  }, 600_000);

  it("rejects a flag npm took for itself that nobody knows (`npm run doctor --bogus-flag`), before doing anything", async () => {
    // `npm run doctor --bogus-flag` runs the script with no arguments and npm_config_bogus_flag=true.
    let npmCli = process.env.npm_execpath;
    if (!npmCli) {
      try {
        npmCli = join(dirname(realpathSync(execFileSync("sh", ["-c", "command -v npm"], { encoding: "utf8" }).trim())), "npm-cli.js");
      } catch {
        npmCli = undefined;
      }
    }
    if (!npmCli || !existsSync(npmCli)) return;
    const before = fingerprint();
    const runs = await Promise.all(
      commands()
        .filter((c) => ["doctor", "data", "train-tokenizer", "grade", "hint"].includes(c.script))
        .map((c) => limit(async () => ({ c, r: await run(c.entry, [], cleanEnv({ npm_execpath: npmCli, npm_lifecycle_event: c.script, npm_config_bogus_flag: "true" })) }))),
    );
    for (const { c, r } of runs) {
      expect(r.code, `${c.script}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`unknown option --bogus-flag`);
      expect(r.stderr).toContain(`npm run ${c.script} -- --bogus-flag`);
      expect(r.stderr).not.toMatch(STACK);
    }
    const after = fingerprint();
    expect(fileChanges(before.files, after.files)).toEqual([]);
    expect(statusChanges(before.status, after.status)).toEqual([]);
  }, 300_000);

  it("`npm run hint` suggests the nearest function name for a typo, as `npm run grade` does", async () => {
    const r = await run("tools/loop/hint-cli.ts", ["lesson-3", "sampleNextTokn"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('lesson-3 has no function named "sampleNextTokn". Did you mean sampleNextToken?');
    expect(r.stderr).toContain("npm run hint lesson-3 sampleNextToken");
    expect(r.stderr).not.toMatch(STACK);
    const far = await run("tools/loop/hint-cli.ts", ["lesson-3", "zzz"]);
    expect(far.code).toBe(2);
    expect(far.stderr).not.toContain("Did you mean");
    expect(far.stderr).toContain("Its functions: filteredProbabilities, sampleNextToken");
    expect(existsSync(join(work, "progress.json"))).toBe(false);
  });
});

describe("tools/loop/cli-support.ts over util.parseArgs", () => {
  afterEach(() => vi.unstubAllEnvs());
  const noNpm = () => {
    for (const k of Object.keys(process.env)) if (k.startsWith("npm_")) vi.stubEnv(k, undefined);
  };

  it("asks for help before anything else, and names an unknown option in one line", () => {
    noNpm();
    expect(() => parseOptions(["--steps", "--help"], { steps: { type: "string" } })).toThrow(HelpRequested);
    expect(() => parseArgs(["lesson-3", "-h"], { flags: [] })).toThrow(HelpRequested);
    expect(() => parseOptions(["--bogus-flag"], {})).toThrow(new UsageError("unknown option --bogus-flag"));
    expect(() => parseArgs(["--colour"], { flags: ["--verbose"] })).toThrow(new UsageError("unknown option --colour"));
    expect(() => parseOptions(["--steps"], { steps: { type: "string" } })).toThrow(new UsageError("--steps needs a value"));
    expect(() => parseArgs(["--timeout", "--json"], { flags: ["--json"], values: ["--timeout"] })).toThrow(new UsageError("--timeout needs a value"));
    expect(() => parseOptions(["stray"], {})).toThrow(new UsageError("unexpected argument stray"));
  });

  it("passes a dash-led value on to the command's own check, and keeps the flags as typed", () => {
    noNpm();
    expect(parseOptions(["--steps", "-3"], { steps: { type: "string" } }).values.steps).toBe("-3");
    const a = parseArgs(["lesson-23", "-v", "--timeout", "5", "fn"], { flags: ["--verbose", "-v"], values: ["--timeout"] });
    expect(a.positional).toEqual(["lesson-23", "fn"]);
    expect([...a.flags]).toEqual(["-v"]);
    expect(a.values.get("--timeout")).toBe("5");
  });

  it("merges a flag npm took (npm_config_quick=true) and refuses one whose value npm took", () => {
    noNpm();
    vi.stubEnv("npm_config_quick", "true");
    expect(parseOptions([], { quick: { type: "boolean" } }).values.quick).toBe(true);
    vi.stubEnv("npm_config_steps", "true");
    vi.stubEnv("npm_lifecycle_event", "train");
    expect(() => parseOptions(["pretrain", "10"], { steps: { type: "string" }, quick: { type: "boolean" } }, { positionals: true })).toThrow(/npm took --steps for itself.*Write: npm run train -- pretrain --steps 10/);
  });
});
