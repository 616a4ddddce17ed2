/**
 * The Chinese lessons (lessons/zh/NN-slug.md) stay in step with the English ones: every Chinese
 * lesson has an English twin and `compareLessons` (tools/i18n/in-step.ts) finds no difference —
 * same heading levels, code, display math and figures in order, and per section the same inline
 * math, numbers of three or more significant digits and `path:lines` citations. A test of the
 * test changes one thing at a time in one version and expects the checker to report it. Every
 * figure a Chinese lesson shows must exist. Translations land over time: a lesson without one is
 * listed (it.todo and a console note), not failed.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { compareLessons, imageTargets, lessonSkeleton } from "../tools/i18n/in-step.js";

const ROOT = join(import.meta.dirname, "..");
const LESSONS = join(ROOT, "lessons");
const ZH = join(LESSONS, "zh");

const english = readdirSync(LESSONS).filter((f) => /^\d\d-.*\.md$/.test(f)).sort();
const chinese = existsSync(ZH) ? readdirSync(ZH).filter((f) => f.endsWith(".md")).sort() : [];
const missing = english.filter((f) => !chinese.includes(f));
console.info(`lesson-zh.test.ts: ${chinese.length} of ${english.length} lessons have a Chinese version in lessons/zh/${missing.length > 0 ? `; not yet: ${missing.join(", ")}` : ""}`);

const read = (...parts: string[]) => readFileSync(join(...parts), "utf8");

describe("every Chinese lesson is in step with its English twin", () => {
  it.each(chinese)("lessons/zh/%s", (file) => {
    expect(existsSync(join(LESSONS, file)), `lessons/${file} (the English twin) should exist`).toBe(true);
    expect(compareLessons(read(LESSONS, file), read(ZH, file))).toEqual([]);
  });

  it.each(chinese)("every figure in lessons/zh/%s exists", (file) => {
    const targets = imageTargets(read(ZH, file)).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
    expect(targets.filter((t) => !existsSync(resolve(ZH, decodeURI(t.split(/[?#]/)[0])))), "figures whose file does not exist").toEqual([]);
  });

  for (const file of missing) it.todo(`lessons/zh/${file}: not translated yet`);
});

describe("the in-step checker reports a change to one version (a test of the test)", () => {
  // A lesson with a Chinese version when one exists, else the English against itself. The lesson
  // must have what the mutations change: a prose number, a citation, a code block, a level-3 heading.
  const usable = (text: string) => {
    const s = lessonSkeleton(text);
    return s.some((x) => x.numbers.length > 0) && s.some((x) => x.citations.length > 0) && s.some((x) => x.code.length > 0) && s.some((x) => x.level === 3);
  };
  const pick = chinese.find((f) => existsSync(join(LESSONS, f)) && usable(read(LESSONS, f)) && compareLessons(read(LESSONS, f), read(ZH, f)).length === 0);
  const file = pick ?? english.find((f) => usable(read(LESSONS, f)))!;
  const en = read(LESSONS, file);
  const zh = pick ? read(ZH, file) : en;
  const skeleton = lessonSkeleton(en);
  const inStep = compareLessons(en, zh);

  /** The first number of ≥3 significant digits that the text holds only in prose (so changing it changes no code or math). */
  function proseNumber(text: string): string {
    const sk = lessonSkeleton(text);
    const all = sk.flatMap((s) => s.numbers);
    const n = all.find((x) => {
      const occurrences = text.match(new RegExp(`(?<![\\w.,])${x.replace(/[.,]/g, "\\$&")}(?![\\d]|,\\d{3})`, "g"))?.length ?? 0;
      return occurrences === all.filter((y) => y === x).length;
    });
    if (!n) throw new Error(`${file}: no number that appears only in prose`);
    return n;
  }

  /** `number` with its last digit changed, keeping its significant digits. */
  const bump = (number: string) => number.slice(0, -1) + String((Number(number.slice(-1)) + 1) % 10 || 1);

  it(`starts from a pair in step (${pick ? `lessons/zh/${file}` : `lessons/${file} against itself`})`, () => {
    expect(inStep).toEqual([]);
  });

  it("reports a changed number, in the Chinese version or in the English", () => {
    const n = proseNumber(zh);
    const changed = bump(n);
    expect(compareLessons(en, zh.replace(new RegExp(`(?<![\\w.,])${n.replace(/[.,]/g, "\\$&")}(?![\\d]|,\\d{3})`), changed))).toEqual(
      expect.arrayContaining([expect.stringMatching(new RegExp(`: number ${n.replace(/[.,]/g, "\\$&")} appears \\d+× in English, \\d+× in Chinese$`))]),
    );
    const m = proseNumber(en);
    const diffs = compareLessons(en.replace(new RegExp(`(?<![\\w.,])${m.replace(/[.,]/g, "\\$&")}(?![\\d]|,\\d{3})`), bump(m)), zh);
    expect(diffs.some((d) => d.includes(`number ${m} appears`)), diffs.join("\n")).toBe(true);
  });

  it("reports a changed citation line range", () => {
    const citation = skeleton.flatMap((s) => s.citations).find((c) => /:\d+-\d+/.test(c))!;
    const [, path, to] = /^(.*:\d+-)(\d+)/.exec(citation)!;
    const changed = zh.replace(`${path}${to}`, `${path}${Number(to) + 1}`);
    expect(changed).not.toBe(zh);
    const diffs = compareLessons(en, changed);
    expect(diffs.some((d) => d.includes(`citation ${path}${to}`) && d.includes("in Chinese")), diffs.join("\n")).toBe(true);
  });

  it("reports a removed code block", () => {
    const fence = /^([ \t]*)(```|~~~)[^\n]*\n[\s\S]*?\n\1\2[ \t]*\n/m;
    const changed = zh.replace(fence, "");
    expect(changed).not.toBe(zh);
    const diffs = compareLessons(en, changed);
    expect(diffs.some((d) => d.includes("code block")), diffs.join("\n")).toBe(true);
  });

  it("reports a heading moved to another level", () => {
    const changed = zh.replace(/^### /m, "## ");
    expect(changed).not.toBe(zh);
    const diffs = compareLessons(en, changed);
    expect(diffs.some((d) => /heading \d+ is level 3 in English, level 2 in Chinese/.test(d)), diffs.join("\n")).toBe(true);
  });

  it("reports a removed heading, a changed figure and changed inline math", () => {
    expect(compareLessons(en, zh.replace(/^## .*\n/m, ""))).toEqual(expect.arrayContaining([expect.stringMatching(/^headings: English has \d+, Chinese has \d+$/)]));
    expect(compareLessons("# T\n\n![a](../figures/x.svg)\n", "# T\n\n![甲](../figures/y.svg)\n")).toEqual(expect.arrayContaining([expect.stringContaining("figure x.svg")]));
    expect(compareLessons("# T\n\n![a](figures/x.svg)\n", "# T\n\n![甲](../figures/x.svg)\n")).toEqual([]);
    expect(compareLessons("## The idea\n\nwith $x_t$ here\n", "## 核心思想\n\n这里是 $x_{t}$\n")).toEqual([
      'section "The idea": inline math $x_t$ appears 1× in English, 0× in Chinese',
      'section "The idea": inline math $x_{t}$ appears 0× in English, 1× in Chinese',
    ]);
  });
});

describe("lessonSkeleton", () => {
  it("takes numbers from prose and tables, not from code, math, citations or commits", () => {
    const text = [
      "Intro 12.5 before any heading.",
      "# Title",
      "## The idea",
      "Loss 0.125 and 1,536 tokens, 57 ms, 0.05, 100 steps; `x = 0.999` and $y = 0.333$ and \\$5 and $6.",
      "",
      "| a | b |",
      "|---|---|",
      "| 2048 | 3.14 |",
      "",
      "```ts",
      "const z = 0.777;",
      "```",
      "",
      "See `trainer/train_ppo.py:139-150` @ d65ef2c, `actor.py:434, 533` @ 4aef98d8, (model/model_minimind.py:268-270 @ d65ef2c),",
      "`model/model_minimind.py:201` and `214` @ d65ef2c, and `README.md:1308`.",
      "$$",
      "a = 1.234",
      "$$",
      "![alt 0.456](../figures/lesson-23-x.svg)",
    ].join("\n");
    const s = lessonSkeleton(text);
    expect(s.map((x) => [x.level, x.heading])).toEqual([
      [0, ""],
      [1, "Title"],
      [2, "The idea"],
    ]);
    expect(s[0].numbers).toEqual(["12.5"]);
    expect(s[2].numbers).toEqual(["0.125", "1,536", "100", "2048", "3.14"]);
    expect(s[2].inlineMath).toEqual(["y = 0.333"]);
    expect(s[2].code).toEqual(["ts\nconst z = 0.777;\n"]);
    expect(s[2].displayMath).toEqual(["\na = 1.234\n"]);
    expect(s[2].figures).toEqual(["lesson-23-x.svg"]);
    expect(s[2].citations).toEqual([
      "trainer/train_ppo.py:139-150 @ d65ef2c",
      "actor.py:434, 533 @ 4aef98d8",
      "model/model_minimind.py:201",
      "model/model_minimind.py:214 @ d65ef2c",
      "README.md:1308",
      "model/model_minimind.py:268-270 @ d65ef2c",
    ]);
  });

  it("finds every citation the English lessons write (path:lines, in or out of backticks)", () => {
    const missed: string[] = [];
    for (const f of english) {
      const text = read(LESSONS, f);
      const found = lessonSkeleton(text).flatMap((s) => s.citations).join("\n");
      // Outside fenced code, every "path/file.ext:12" or "file.ext:12" must be among the citations.
      const prose = text.replace(/^([ \t]*)(```|~~~)[\s\S]*?^\1\2/gm, "");
      for (const m of prose.matchAll(/(?<![\w./:-])((?:[\w.-]+\/)*[\w-][\w.-]*\.[A-Za-z]\w*|(?:[\w.-]+\/)+[\w.-]+):(\d+)/g)) {
        if (!found.includes(`${m[1]}:${m[2]}`)) missed.push(`${f}: ${m[0]}`);
      }
    }
    expect(missed).toEqual([]);
  });
});
