/**
 * A synthetic class for lessons 3 and 20 (the classroom test and the classroom bench): one learner
 * of each kind an instructor meets, handed in each way (folders, a git clone, a zip), with the rows
 * and totals each must get. The correct code is the reference copied in as the learner's file; the
 * lookup-table cheat answers each public case from a table of the reference's outputs on it (what
 * a student edition's grader/expected/*.json hands a learner) and nothing else.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { crc32, deflateRawSync } from "node:zlib";
import { loadGrader, loadImplementation } from "../../grader/engine/load.js";
import { ROOT, paths } from "../../grader/engine/paths.js";
import { generateStub } from "../../lib/stubs.js";
import { initBackend } from "../../lib/backend.js";
import * as tf from "../../lib/tf.js";
import type { Kind } from "./kinds.js";

export const CLASS_LESSONS = ["lesson-3", "lesson-20"] as const;
const FILES = { "lesson-3": "sampling.ts", "lesson-20": "distillation.ts" } as const;

const reference = (lesson: keyof typeof FILES) => readFileSync(join(paths.solutions, lesson, FILES[lesson]), "utf8");
const stub = (lesson: keyof typeof FILES) => generateStub(reference(lesson), lesson, FILES[lesson]);

/** The reference with one function's body begun by `body`. */
function withBody(text: string, fn: string, body: string): string {
  const re = new RegExp(`(export function ${fn}\\([^]*?\\{\\n)`);
  if (!re.test(text)) throw new Error(`no function ${fn}`);
  return text.replace(re, `$1  ${body}\n`);
}

/** What the test expects of one learner: each function's kind, and whether its score is full, zero or between. */
export interface Expected {
  kinds: Record<string, Kind>;
  /** "full": every point; "zero": none; "part": some but not all (before the late rule). */
  score: Record<string, "full" | "zero" | "part">;
  lateFactor: number;
  source: "folder" | "zip" | "git";
  /** A reason must match this, by function. */
  reason?: Record<string, RegExp>;
}

/**
 * The fingerprint the cheat's table is keyed on: the first argument's numbers and the options. As
 * JavaScript text, since the cheat's file runs it too.
 */
const FINGERPRINT = `function fingerprint(args) {
  const seen = (v) => {
    if (v && typeof v === "object" && "dataSync" in v && "shape" in v) {
      const d = v.dataSync();
      let s = 0;
      for (let i = 0; i < d.length; i++) s += d[i] * ((i % 7) + 1);
      return [v.shape, Math.round(s * 1e4)];
    }
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, seen(x)]));
    return v;
  };
  return JSON.stringify(args.map(seen));
}`;
const fingerprint = new Function(`return ${FINGERPRINT}`)() as (args: unknown[]) => string;

/** The lookup-table cheat of lesson 3: the reference's output on every public case, by fingerprint. */
async function cheatOfLesson3(): Promise<string> {
  await initBackend("cpu");
  const grader = await loadGrader("lesson-3");
  const { impl } = await loadImplementation(grader, join(paths.solutions, "lesson-3"));
  const tables: Record<string, Record<string, { shape: number[]; dtype: string; data: number[] }>> = {};
  for (const ex of grader.exercises) {
    const table: Record<string, { shape: number[]; dtype: string; data: number[] }> = (tables[ex.name] = {});
    const ref = impl[ex.name]!;
    for (const c of ex.cases) {
      const inputs = c.inputs();
      const recorder = (...args: unknown[]) => {
        const out = ref(...args) as tf.Tensor;
        if (out instanceof tf.Tensor && out.size <= 50_000) table[fingerprint(args)] = { shape: out.shape, dtype: out.dtype, data: Array.from(out.dataSync()) };
        return out;
      };
      try {
        tf.tidy(() => {
          (c.call ?? ex.call)(recorder, inputs);
        });
      } catch {
        // a case that expects a throw: nothing to record
      }
    }
  }
  const lookup = (name: string) => `export function ${name}(...args: any[]): any {
  const hit = TABLE[${JSON.stringify(name)}][fingerprint(args)];
  if (!hit) return tf.zeros(args[0].shape.slice(0, ${name === "sampleNextToken" ? "-1" : "args[0].shape.length"}), ${name === "sampleNextToken" ? '"int32"' : '"float32"'});
  return tf.tensor(hit.data, hit.shape, hit.dtype);
}`;
  return `import * as tf from "../../lib/tf.js";
// Answers copied from the public expected outputs: no computation at all.
const TABLE: Record<string, Record<string, { shape: number[]; dtype: any; data: number[] }>> = ${JSON.stringify(tables)};
// @ts-nocheck
${FINGERPRINT}
${grader.exercises.map((e) => lookup(e.name)).join("\n")}
`;
}

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/**
 * A small zip writer (deflate), entries with an optional unix mode (a symbolic link: 0o120777).
 * Written by hand on purpose: the class needs hostile archives (names that climb out, absolute
 * names, links), which a maintained writer such as yazl refuses to make.
 */
export function writeZip(file: string, entries: Array<{ name: string; data: string; mode?: number }>): void {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const raw = Buffer.from(e.data);
    const comp = deflateRawSync(raw);
    const name = Buffer.from(e.name);
    const crc = crc32(raw);
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0);
    lh.writeUInt16LE(20, 4);
    lh.writeUInt16LE(0x800, 6);
    lh.writeUInt16LE(8, 8);
    lh.writeUInt16LE(0, 10);
    lh.writeUInt16LE(0x5a21, 12);
    lh.writeUInt32LE(crc, 14);
    lh.writeUInt32LE(comp.length, 18);
    lh.writeUInt32LE(raw.length, 22);
    lh.writeUInt16LE(name.length, 26);
    lh.writeUInt16LE(0, 28);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE((3 << 8) | 20, 4);
    ch.writeUInt16LE(20, 6);
    ch.writeUInt16LE(0x800, 8);
    ch.writeUInt16LE(8, 10);
    ch.writeUInt16LE(0, 12);
    ch.writeUInt16LE(0x5a21, 14);
    ch.writeUInt32LE(crc, 16);
    ch.writeUInt32LE(comp.length, 20);
    ch.writeUInt32LE(raw.length, 24);
    ch.writeUInt16LE(name.length, 28);
    ch.writeUInt32LE(((e.mode ?? 0o100644) << 16) >>> 0, 38);
    ch.writeUInt32LE(offset, 42);
    locals.push(lh, name, comp);
    centrals.push(ch, name);
    offset += lh.length + name.length + comp.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  writeFileSync(file, Buffer.concat([...locals, cd, end]));
}

function git(dir: string, args: string[], date?: Date): void {
  const when = date ? { GIT_AUTHOR_DATE: date.toISOString(), GIT_COMMITTER_DATE: date.toISOString() } : {};
  execFileSync("git", ["-c", "user.name=Learner", "-c", "user.email=learner@example.com", "-c", "commit.gpgsign=false", "-C", dir, ...args], { stdio: "ignore", env: { ...process.env, ...when } });
}

const ALL_FULL = { "lesson-3/filteredProbabilities": "full", "lesson-3/sampleNextToken": "full", "lesson-20/distillationLoss": "full" } as const;
const PASSED: Record<string, Kind> = { "lesson-3/filteredProbabilities": "passed", "lesson-3/sampleNextToken": "passed", "lesson-20/distillationLoss": "passed" };
const STUBS: Record<string, Kind> = { "lesson-3/filteredProbabilities": "not implemented", "lesson-3/sampleNextToken": "not implemented", "lesson-20/distillationLoss": "not implemented" };
const ZERO = { "lesson-3/filteredProbabilities": "zero", "lesson-3/sampleNextToken": "zero", "lesson-20/distillationLoss": "zero" } as const;

/**
 * Writes the class into `dir` (one entry a learner) for an assignment with deadline `deadline` and
 * a late rule of 0.1 a day; `size` learners in all (the named kinds first, then more correct and
 * partly wrong ones). Returns what each learner must get.
 */
export async function buildClass(dir: string, deadline: Date, size = 12): Promise<Record<string, Expected>> {
  mkdirSync(dir, { recursive: true });
  const s3 = reference("lesson-3");
  const s20 = reference("lesson-20");
  const course = (name: string, l3: string | undefined, l20: string | undefined, layout = "exercises") => {
    if (l3 !== undefined) write(join(dir, name, layout, "lesson-3", "sampling.ts"), l3);
    if (l20 !== undefined) write(join(dir, name, layout, "lesson-20", "distillation.ts"), l20);
  };
  const expected: Record<string, Expected> = {};
  const on = (name: string, e: Omit<Expected, "lateFactor" | "source"> & Partial<Expected>) => (expected[name] = { lateFactor: 1, source: "folder", ...e });

  course("correct", s3, s20);
  on("correct", { kinds: PASSED, score: ALL_FULL });
  // A copy of a classmate: the same files, the same rows.
  course("copy-of-correct", s3, s20, "");
  on("copy-of-correct", { kinds: PASSED, score: ALL_FULL });
  // Partly wrong: sampling without temperature, distillation's temperature² forgotten.
  const noTemp = s3.replace("let scores = tf.div(tf.reshape(logits, [-1, V]), temperature) as tf.Tensor2D;", "let scores = tf.reshape(logits, [-1, V]) as tf.Tensor2D;");
  const noT2 = s20.replace("const distill = tf.mul(kl, temperature * temperature) as tf.Scalar;", "const distill = kl as tf.Scalar;");
  if (noTemp === s3 || noT2 === s20) throw new Error("the partly wrong learner's edit no longer applies to the reference");
  course("partly-wrong", noTemp, noT2);
  on("partly-wrong", { kinds: { "lesson-3/filteredProbabilities": "failed", "lesson-3/sampleNextToken": "failed", "lesson-20/distillationLoss": "failed" }, score: { "lesson-3/filteredProbabilities": "part", "lesson-3/sampleNextToken": "part", "lesson-20/distillationLoss": "part" } });
  course("stubs", stub("lesson-3"), stub("lesson-20"));
  on("stubs", { kinds: STUBS, score: ZERO });
  course("syntax", `${s3}\nconst broken = ;\n`, s20);
  on("syntax", { kinds: { "lesson-3/filteredProbabilities": "syntax error", "lesson-3/sampleNextToken": "syntax error", "lesson-20/distillationLoss": "passed" }, score: { "lesson-3/filteredProbabilities": "zero", "lesson-3/sampleNextToken": "zero", "lesson-20/distillationLoss": "full" } });
  course("hang", withBody(s3, "sampleNextToken", "for (;;) {}"), s20);
  on("hang", { kinds: { ...PASSED, "lesson-3/sampleNextToken": "timeout" }, score: { ...ALL_FULL, "lesson-3/sampleNextToken": "zero" }, reason: { "lesson-3/sampleNextToken": /timed out after .*\(\d+ not run/ } });
  // The reference itself, imported by its absolute path (a relative one does not reach it from a staged copy).
  course("refused", `export { filteredProbabilities, sampleNextToken } from ${JSON.stringify(join(paths.solutions, "lesson-3", "sampling.js"))};\n`, stub("lesson-20"));
  on("refused", { kinds: { "lesson-3/filteredProbabilities": "refused import", "lesson-3/sampleNextToken": "refused import", "lesson-20/distillationLoss": "not implemented" }, score: ZERO });
  course("cheat", await cheatOfLesson3(), stub("lesson-20"));
  on("cheat", { kinds: { "lesson-3/filteredProbabilities": "failed", "lesson-3/sampleNextToken": "failed", "lesson-20/distillationLoss": "not implemented" }, score: { "lesson-3/filteredProbabilities": "part", "lesson-3/sampleNextToken": "part", "lesson-20/distillationLoss": "zero" } });
  // The file under another name beside the expected one.
  course("renamed", undefined, s20);
  write(join(dir, "renamed", "exercises", "lesson-3", "Sampling_final.ts"), s3);
  on("renamed", { kinds: { "lesson-3/filteredProbabilities": "missing file", "lesson-3/sampleNextToken": "missing file", "lesson-20/distillationLoss": "passed" }, score: { "lesson-3/filteredProbabilities": "zero", "lesson-3/sampleNextToken": "zero", "lesson-20/distillationLoss": "full" }, reason: { "lesson-3/filteredProbabilities": /sampling\.ts is missing from the submission; beside it: Sampling_final\.ts/ } });
  // Late: correct, handed in a day and a half after the deadline (two started days: × 0.8).
  course("late", s3, s20);
  const late = new Date(deadline.getTime() + 36 * 3600_000);
  for (const f of ["lesson-3/sampling.ts", "lesson-20/distillation.ts"]) utimesSync(join(dir, "late", "exercises", f), late, late);
  on("late", { kinds: PASSED, score: ALL_FULL, lateFactor: 0.8 });
  // A git clone: correct before the deadline, broken after it (the commit before is graded).
  const repo = join(dir, "git-clone");
  course("git-clone", s3, s20);
  git(repo, ["init", "-q"]);
  git(repo, ["add", "-A"]);
  git(repo, ["commit", "-q", "-m", "lesson 3 and 20"], new Date(deadline.getTime() - 86_400_000));
  write(join(repo, "exercises", "lesson-3", "sampling.ts"), stub("lesson-3"));
  git(repo, ["commit", "-q", "-am", "after the deadline"], new Date(deadline.getTime() + 3600_000));
  on("git-clone", { kinds: PASSED, score: ALL_FULL, source: "git" });
  // A zip: a copy of the course in a wrapping folder, with a zip-slip entry and a symbolic link (both left out).
  writeZip(join(dir, "zipped.zip"), [
    { name: "course-main/exercises/lesson-3/sampling.ts", data: s3 },
    { name: "course-main/exercises/lesson-20/distillation.ts", data: noT2 },
    { name: "../../escaped.txt", data: "zip-slip" },
    { name: "course-main/exercises/lesson-3/link.ts", data: "/etc/passwd", mode: 0o120777 },
  ]);
  on("zipped", { kinds: { ...PASSED, "lesson-20/distillationLoss": "failed" }, score: { ...ALL_FULL, "lesson-20/distillationLoss": "part" }, source: "zip" });
  // More of the class: correct and partly wrong learners, alternating.
  for (let i = Object.keys(expected).length; i < size; i++) {
    const name = `learner-${String(i + 1).padStart(2, "0")}`;
    if (i % 2 === 0) {
      course(name, s3, s20);
      on(name, { kinds: PASSED, score: ALL_FULL });
    } else {
      course(name, s3, noT2);
      on(name, { kinds: { ...PASSED, "lesson-20/distillationLoss": "failed" }, score: { ...ALL_FULL, "lesson-20/distillationLoss": "part" } });
    }
  }
  // A symbolic link beside the class is no learner's (and is never followed).
  symlinkSync(ROOT, join(dir, "zz-link-to-course"));
  return expected;
}

/** What checkClass reads of a gradebook row and total (gradebook.json's `rows` and `totals`). */
export interface GradedClass {
  rows: Array<{ learner: string; lesson: string; function: string; kind: string; points: number; score: number; passed?: number; total?: number }>;
  totals: Array<{ learner: string; raw: number; score: number; lateFactor: number; source?: string }>;
}

/**
 * Where a graded class differs from what `buildClass` said each learner must get, as one line per
 * difference (none: the rows and totals are exactly as expected): every learner has a row of the
 * expected kind for each function of lessons 3 and 20, a score that is full, zero or in between as
 * expected, and a total with the expected late factor and source, the late rule applied.
 */
export function checkClass(graded: GradedClass, expected: Record<string, Expected>): string[] {
  const out: string[] = [];
  const learners = new Set(graded.totals.map((t) => t.learner));
  for (const l of Object.keys(expected)) if (!learners.has(l)) out.push(`${l}: no total`);
  for (const [learner, e] of Object.entries(expected)) {
    for (const [key, kind] of Object.entries(e.kinds)) {
      const r = graded.rows.find((x) => x.learner === learner && `${x.lesson}/${x.function}` === key);
      if (!r) {
        out.push(`${learner} ${key}: no row`);
        continue;
      }
      if (r.kind !== kind) out.push(`${learner} ${key}: ${r.kind}, expected ${kind}`);
      const want = e.score[key];
      const got = r.score === r.points ? "full" : r.score === 0 ? "zero" : "part";
      if (want && got !== want) out.push(`${learner} ${key}: score ${r.score} of ${r.points} (${got}), expected ${want}`);
    }
    const t = graded.totals.find((x) => x.learner === learner);
    if (!t) continue;
    if (t.lateFactor !== e.lateFactor) out.push(`${learner}: late factor ${t.lateFactor}, expected ${e.lateFactor}`);
    if (t.source !== e.source) out.push(`${learner}: source ${t.source}, expected ${e.source}`);
    if (Math.abs(t.score - t.raw * t.lateFactor) > 0.01) out.push(`${learner}: total ${t.score}, not ${t.raw} × ${t.lateFactor}`);
  }
  return out;
}

/** A hash of every file under `dir` (names and contents), to prove the submissions were not changed. */
export function treeDigest(dir: string): string {
  return createHash("sha256").update(execFileSync("sh", ["-c", "find . -path ./git-clone/.git/index -prune -o -print0 | sort -z | xargs -0 sha256sum 2>/dev/null; find . -printf '%p %y %s\\n' | sort"], { cwd: dir })).digest("hex");
}
