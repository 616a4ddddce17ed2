/**
 * Checks over the lesson text that issue 22 found wrong: no lesson, stub or hint sends a learner
 * into solutions/ (absent from a student edition, and the answers besides); the corrected numbers
 * are the ones the lessons' own worked examples and the course's code give; and the rules and
 * facts the review asked for are stated. Whitespace is normalised, so rewrapping a paragraph does
 * not break a check.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { miniMindConfig } from "../lib/model/config.js";
import { parameterSpecs } from "../lib/model/params.js";
import { gradedLessons, hintsFile } from "../grader/engine/paths.js";

const ROOT = join(import.meta.dirname, "..");
const LESSONS = join(ROOT, "lessons");

/** Every file under `dir` (recursively) whose name ends in `ext`. */
function filesUnder(dir: string, ext: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return filesUnder(path, ext);
    return e.name.endsWith(ext) ? [path] : [];
  });
}

/** A lesson's text with runs of whitespace collapsed to one space. */
function lesson(prefix: string): string {
  const file = readdirSync(LESSONS).find((f) => f.startsWith(`${prefix}-`) && f.endsWith(".md"));
  if (!file) throw new Error(`no lessons/${prefix}-*.md`);
  return readFileSync(join(LESSONS, file), "utf8").replace(/\s+/g, " ");
}

/** `text` contains `part` (a string or a pattern); the failure names the part, not the whole lesson. */
function has(text: string, part: string | RegExp): void {
  const found = typeof part === "string" ? text.includes(part) : part.test(text);
  expect(found, `the lesson should contain ${String(part)}`).toBe(true);
}

/** `text` does not contain `part`. */
function lacks(text: string, part: string | RegExp): void {
  const found = typeof part === "string" ? text.includes(part) : part.test(text);
  expect(found, `the lesson should no longer contain ${String(part)}`).toBe(false);
}

describe("no learner-facing text points into solutions/", () => {
  // A path into the folder (solutions/lesson-25/…, solutions/x.ts); the bare word "solutions/"
  // followed by a space (the stubs' "generated from solutions/ by npm run stubs") names no file.
  // The README and instructor docs (docs/) may name the folder: they are not scanned.
  const INTO_SOLUTIONS = /\bsolutions\/[\w.-]/;
  const scanned = [
    ...filesUnder(LESSONS, ".md").filter((f) => !f.includes(`${join("lessons", "figures")}`)),
    ...filesUnder(join(ROOT, "exercises"), ".ts"),
    ...gradedLessons().map(hintsFile).filter((f) => existsSync(f)),
  ];

  it("scans the lessons, the stubs and the hints", () => {
    expect(scanned.some((f) => f.endsWith(".md"))).toBe(true);
    expect(scanned.some((f) => f.includes(`${join("exercises", "lesson-")}`))).toBe(true);
    expect(scanned.some((f) => f.endsWith(join("grader", "lesson-23", "hints.ts")))).toBe(true);
  });

  it.each(scanned.map((f) => relative(ROOT, f)))("%s names no path under solutions/", (file) => {
    const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
    const hits = lines.flatMap((line, i) => (INTO_SOLUTIONS.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
    expect(hits).toEqual([]);
  });
});

describe("issue 22's corrected numbers", () => {
  it("lesson 20: the per-position KLs of the worked example are 0.0310 and 0.0934 (mean 0.0622)", () => {
    // Recomputed from the lesson's own example: τ = 2, student (1,0,0), (0,2,0), teacher (2,0,0), (0,1,1).
    const softmax = (z: number[]) => {
      const m = Math.max(...z);
      const e = z.map((v) => Math.exp(v - m));
      const s = e.reduce((a, b) => a + b, 0);
      return e.map((v) => v / s);
    };
    const kl = (p: number[], q: number[]) => p.reduce((acc, pv, i) => acc + pv * (Math.log(pv) - Math.log(q[i]!)), 0);
    const tau = 2;
    const rows = [
      { s: [1, 0, 0], t: [2, 0, 0] },
      { s: [0, 2, 0], t: [0, 1, 1] },
    ];
    const kls = rows.map(({ s, t }) => kl(softmax(t.map((v) => v / tau)), softmax(s.map((v) => v / tau))));
    const shown = kls.map((k) => k.toFixed(4));
    expect(shown).toEqual(["0.0310", "0.0934"]);
    const text = lesson("20");
    for (const k of shown) has(text, `KL $= ${k}$`);
    has(text, `Their mean is ${((kls[0]! + kls[1]!) / 2).toFixed(4)}`);
    lacks(text, /0\.0308|0\.0936/);
  });

  it("lesson 20: the two temperature mistakes name the wrong behaviour, not the right one", () => {
    const text = lesson("20");
    lacks(text, "distill right.** The label term uses the raw logits.");
    lacks(text, "Both logits are divided by $\\tau$, the student's too.");
    has(text, "The label term divided the logits by $\\tau$ too");
    has(text, "Only the teacher's logits were divided by $\\tau$");
  });

  it("lesson 21: the chosen ids end with six pads (x shows five of them)", () => {
    const text = lesson("21");
    has(text, "six pads");
    lacks(text, /`\\n` \(234\) and five pads/);
    // The worked ids: 15 shared prompt ids, the answer's 3, then pads up to L = 24.
    const xChosen = text.match(/xChosen `\[([^\]]+)\]`/)?.[1]?.split(",").map(Number);
    const yChosen = text.match(/yChosen `\[([^\]]+)\]`/)?.[1]?.split(",").map(Number);
    expect(xChosen?.length).toBe(23);
    const ids = [...xChosen!, yChosen!.at(-1)!];
    expect(ids.filter((id) => id === 0)).toHaveLength(6);
  });

  it("lesson 22: the text names the β values its figure draws", () => {
    const source = readFileSync(join(ROOT, "labs", "lesson-22", "figure.ts"), "utf8");
    const betas = source.match(/const BETAS = \[([^\]]+)\]/)?.[1]?.split(",").map((b) => b.trim());
    expect(betas).toBeDefined();
    const words = ["zero", "one", "two", "three", "four", "five"];
    const text = lesson("22");
    has(text, `The figure below draws the loss and this weight against $z$ for ${words[betas!.length]} values of $\\beta$`);
    has(text, `for β = ${betas!.join(", ").replace(/, ([^,]+)$/, " and $1")}](figures/lesson-22-dpo-loss.svg)`);
  });

  it("lesson 19: full SFT trains the base model's 63,912,192 parameters, ≈ 511 MB of AdamW state", () => {
    const c = miniMindConfig();
    const base = parameterSpecs(c).reduce((n, p) => n + p.shape.reduce((a, b) => a * b, 1), 0);
    expect(base).toBe(63_912_192);
    const adapters = 16 * 16 * (768 + 768); // rank 16 on q_proj and o_proj of 8 blocks
    const text = lesson("19");
    has(text, `${(base + adapters).toLocaleString("en-US")} is the base *with* its adapters`);
    has(text, `2 × ${base.toLocaleString("en-US")} × 4 bytes ≈ ${Math.round((2 * base * 4) / 1e6)} MB`);
    lacks(text, "2 × 64,305,408 × 4 bytes");
  });

  it("lesson 1: 32 × 339 positions, not all of them counted predictions", () => {
    const text = lesson("01");
    lacks(text, "10\\,848$ next-token predictions");
    has(text, /10\\,848\$ positions/);
    has(text, "−100");
  });
});

describe("issue 22's rules and facts, stated in the lessons", () => {
  it("lesson 26 states agentReward's rules", () => {
    const text = lesson("26");
    has(text, "after its *first* `</think>`");
    has(text, "`len(completion.strip())`");
    has(text, "`(?<![\\w.])[-+]?\\d+(?:\\.\\d+)?(?![\\w.])`");
    has(text, "case-insensitive");
    has(text, /when the final text is empty .*of the answer instead/);
  });

  it("lesson 26 says MiniMind always has a reward model, and that `calculate` is the course's own tool", () => {
    const text = lesson("26");
    has(text, "`trainer/train_agent.py:440` @ d65ef2c");
    has(text, "the course's variant, not MiniMind's behaviour");
    has(text, "`calculate_math`");
    lacks(text, /MiniMind's reward \(without a reward model\)/);
  });

  it("lesson 4 says where MiniMind's chat template is, in the course's copy", () => {
    const text = lesson("04");
    has(text, "`datasets/minimind-tokenizer/tokenizer_config.json`");
    const config = JSON.parse(readFileSync(join(ROOT, "datasets", "minimind-tokenizer", "tokenizer_config.json"), "utf8")) as { chat_template?: unknown };
    expect(typeof config.chat_template).toBe("string");
  });

  it("lesson 14: an Adam step after a gradient spike is bounded; the damage is to the moments", () => {
    const text = lesson("14");
    lacks(text, "AdamW would then take a huge step");
    has(text, "3.2\\,\\eta");
    has(text, "The damage is to the moments");
  });

  it("lesson 15: three files per save, the next stage's one written in place", () => {
    const text = lesson("15");
    has(text, "Each save in MiniMind's pretraining writes three files");
    has(text, "`trainer/train_pretrain.py:63-68`");
    has(text, "3.16");
    lacks(text, "the largest possible step, for every parameter");
  });

  it("lesson 27: convert_model.py writes a Qwen3 folder; the course's export is its own", () => {
    const text = lesson("27");
    has(text, "`convert_torch2transformers` (40-96)");
    has(text, "`Qwen3ForCausalLM`");
    has(text, "no `auto_map`");
    lacks(lesson("28"), "Hugging Face-style folder that MiniMind's own PyTorch code loads");
  });

  it("lesson 21: prompt terms cancel exactly in DPO's log-ratios", () => {
    const text = lesson("21");
    has(text, "*exactly*");
    lacks(text, "cancel in the difference only approximately");
  });
});
