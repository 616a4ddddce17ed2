/**
 * No course module hands out a lesson's answer (issue 20): the modules that compute a lesson's
 * graded function say so with `@answers` tags (grader/engine/answers.ts), the scan finds them, every
 * tag names a real lesson and graded function, an exercise of that lesson is refused the module
 * (and no stub needs one), and a student edition withholds the answer regions of unpublished
 * lessons (tools/release/withhold.ts), the withheld text still typechecking and running.
 */
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { CATALOG } from "../lib/catalog.js";
import { answerModuleRefusal, answerModules, parseAnswerTags } from "../grader/engine/answers.js";
import { bundleLearner } from "../grader/engine/bundle.js";
import { ROOT, gradedLessons, paths } from "../grader/engine/paths.js";
import { lessonFunctionNames } from "../grader/functions.js";
import { generateStub } from "../lib/stubs.js";
import { answerRegionLeaks, answerRegions, planAnswerModules, withholdAnswers } from "../tools/release/withhold.js";

const TOKENIZER = join(ROOT, "lib", "tokenizer.ts");
const FAST_ATTENTION = join(ROOT, "lib", "model", "fast-attention.ts");
const rel = (abs: string) => abs.slice(ROOT.length + 1);

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const d = mkdtempSync(join(ROOT, ".answers-"));
  made.push(d);
  return d;
};

describe("the @answers tags", () => {
  it("are found for lib/tokenizer.ts (lesson 4) and lib/model/fast-attention.ts (lesson 11)", () => {
    const found = answerModules();
    expect(found.get(TOKENIZER)).toEqual([{ lesson: "lesson-4", functions: ["bpeEncode", "bpeDecode"] }]);
    expect(found.get(FAST_ATTENTION)).toEqual([{ lesson: "lesson-11", functions: ["attention"] }]);
    // The module that documents the format is not itself an answer module.
    expect(found.has(join(ROOT, "grader", "engine", "answers.ts"))).toBe(false);
  });

  it("name only lessons of the catalog that are graded, and graded functions of them (no typos)", () => {
    const known = new Set(CATALOG.map((l) => l.id));
    const graded = new Set(gradedLessons());
    const problems: string[] = [];
    for (const [file, tags] of answerModules()) {
      for (const t of tags) {
        if (!known.has(t.lesson)) problems.push(`${rel(file)}: ${t.lesson} is not a lesson of lib/catalog.ts`);
        else if (!graded.has(t.lesson)) problems.push(`${rel(file)}: ${t.lesson} has no grader`);
        if (t.functions.length === 0) problems.push(`${rel(file)}: the @answers line of ${t.lesson} names no function`);
        const names = lessonFunctionNames(t.lesson);
        for (const f of t.functions) if (!names.includes(f)) problems.push(`${rel(file)}: ${f} is not a graded function of ${t.lesson} (${names.join(", ")})`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("are read from the header doc comment only, one line a lesson, spaces or commas", () => {
    const text = ["/**", " * Something fast.", " *", " * @answers lesson-04 bpeEncode, bpeDecode", " * @answers 11 attention", " * @answers lesson-4 bpeDecode", " */", "/** @answers lesson-9 rmsNorm */", "export const x = 1;"].join("\n");
    expect(parseAnswerTags(text)).toEqual([
      { lesson: "lesson-4", functions: ["bpeEncode", "bpeDecode"] },
      { lesson: "lesson-11", functions: ["attention"] },
    ]);
    expect(parseAnswerTags("import x from 'y';\n/**\n * @answers lesson-4 bpeEncode\n */")).toEqual([]);
    // Inside a line (the format's own documentation) it is not a tag.
    expect(parseAnswerTags("/**\n * a line `@answers lesson-4 bpeEncode` in prose\n *     * @answers lesson-4 bpeEncode\n */")).toEqual([]);
  });
});

describe("answerModuleRefusal", () => {
  it("refuses lib/tokenizer.ts to lesson 4 with a sentence the learner can act on", () => {
    const why = answerModuleRefusal("lesson-4", TOKENIZER);
    expect(why).toBe("imports lib/tokenizer.ts, which computes lesson-4's bpeEncode, bpeDecode: while lesson-4 is graded your code may not use it — write the functions yourself");
    expect(answerModuleRefusal("4", TOKENIZER)).toBe(why);
    // However the path is spelled.
    expect(answerModuleRefusal("lesson-4", join(ROOT, "lib", "model", "..", "tokenizer.ts"))).toBe(why);
  });

  it("allows lib/tokenizer.ts to lesson 5, and modules that are no lesson's answer", () => {
    expect(answerModuleRefusal("lesson-5", TOKENIZER)).toBeUndefined();
    expect(answerModuleRefusal("lesson-4", join(ROOT, "lib", "byte-level.ts"))).toBeUndefined();
    expect(answerModuleRefusal("lesson-11", join(ROOT, "lib", "model", "linear.ts"))).toBeUndefined();
    expect(answerModuleRefusal("lesson-11", FAST_ATTENTION)).toMatch(/^imports lib\/model\/fast-attention\.ts, which computes lesson-11's attention: .* write the function yourself$/);
  });

  it("never refuses a lesson's own stubs or solutions (they import no answer module of their lesson)", () => {
    const valueImport = /^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+"(\.[^"]+)";/gm;
    const refused: string[] = [];
    for (const lesson of gradedLessons()) {
      const dir = join(ROOT, "solutions", lesson);
      for (const f of lessonFiles(dir)) {
        const source = readFileSync(join(dir, f), "utf8");
        for (const [label, text] of [["solution", source], ["stub", generateStub(source, lesson, f)]] as const) {
          for (const m of text.matchAll(valueImport)) {
            const target = resolve(dir, m[1].replace(/\.js$/, ".ts"));
            const why = answerModuleRefusal(lesson, target);
            if (why) refused.push(`${lesson}/${f} (${label}): ${why}`);
          }
        }
      }
    }
    expect(refused).toEqual([]);
  });
});

function lessonFiles(dir: string): string[] {
  return (ts.sys.readDirectory(dir, [".ts"], undefined, undefined, 1) as string[]).map((p) => p.slice(dir.length + 1)).sort();
}

describe("the bundle (what grading builds)", () => {
  const tsFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".ts"));
  const loadErrors = async (lesson: string, dir: string) => {
    const b = await bundleLearner(lesson, dir, tsFiles(dir));
    b.dispose();
    return Object.fromEntries(b.loadErrors);
  };
  /** Every lesson's reference, copied in as a learner's work, with `extra` appended to one file. */
  const workspace = (lesson?: string, file?: string, extra?: string) => {
    const ws = tempDir();
    cpSync(paths.solutions, ws, { recursive: true });
    if (lesson && file && extra) appendFileSync(join(ws, lesson, file), extra);
    return ws;
  };

  it("refuses an answer module the learner's file reaches through the course's code, naming the chain", async () => {
    const viaModel = '\nimport { MiniMindTS as Whole } from "../../lib/model/model.js";\nexport const whole = Whole;\n';
    const ws = workspace("lesson-11", "attention.ts", viaModel);
    expect(await loadErrors("lesson-11", join(ws, "lesson-11"))).toEqual({
      "attention.ts": `${rel(join(ws, "lesson-11", "attention.ts"))} imports lib/model/model.ts, which imports lib/model/fast-attention.ts, which computes lesson-11's attention: while lesson-11 is graded your code may not use it — write the function yourself`,
    });
    // The same import is another lesson's business while lesson 12 is graded.
    const ws12 = workspace("lesson-12", "rope.ts", viaModel);
    expect(await loadErrors("lesson-12", join(ws12, "lesson-12"))).toEqual({});
    // Lesson 4's tokenizer behind the server's tokenizer module.
    const viaServe = '\nimport { tokenizerFor as Served } from "../../lib/serve/tokenizer.js";\nexport const served = Served;\n';
    const ws4 = workspace("lesson-4", "bpe.ts", viaServe);
    expect((await loadErrors("lesson-4", join(ws4, "lesson-4")))["bpe.ts"]).toMatch(/ imports lib\/serve\/tokenizer\.ts, which imports lib\/tokenizer\.ts, which computes lesson-4's bpeEncode, bpeDecode: /);
  }, 60_000);

  it("refuses no lesson's reference (copied in as the learner's) and no lesson's stubs, directly or through the course's code", async () => {
    const ws = workspace();
    const refused: Record<string, unknown> = {};
    for (const lesson of gradedLessons()) {
      for (const [label, dir] of [["reference", join(ws, lesson)], ["stubs", join(ROOT, "exercises", lesson)]] as const) {
        const errors = await loadErrors(lesson, dir);
        if (Object.keys(errors).length > 0) refused[`${lesson} ${label}`] = errors;
      }
    }
    expect(refused).toEqual({});
  }, 300_000);
});

describe("answer regions in a student edition", () => {
  const sample = [
    "/**",
    " * @answers lesson-11 attention",
    " */",
    "export function fast(x: number): number {",
    "  // BEGIN ANSWER lesson-11",
    "  const y = x * 2;",
    "  return y + 1;",
    "  // EDITION: return slow(x);",
    "  // END ANSWER",
    "}",
    "export function core(x: number): number {",
    "    // BEGIN ANSWER lesson-11",
    "    return x * 3;",
    "    // END ANSWER",
    "}",
    "function slow(x: number): number {",
    "  return x;",
    "}",
  ].join("\n");

  it("become their EDITION lines, or a throw saying which lesson to finish", () => {
    const out = withholdAnswers(sample, ["lesson-11"], "lib/x.ts", [{ lesson: "lesson-11", functions: ["attention"] }]);
    expect(out).not.toMatch(/x \* 2|x \* 3|BEGIN ANSWER|END ANSWER|EDITION/);
    expect(out).toContain("export function fast(x: number): number {\n  return slow(x);\n}");
    expect(out).toMatch(/^ {4}throw Object\.assign\(new Error\(".*lib\/x\.ts computes lesson-11's attention.*finish lesson 11 first \(npm run grade lesson-11\).*"\), \{ name: "LessonNotFinishedError" \}\);$/m);
    // Regions of other (published) lessons stay as they are.
    expect(withholdAnswers(sample, ["lesson-12"])).toBe(sample);
  });

  it("refuse malformed markers", () => {
    expect(() => answerRegions("// BEGIN ANSWER lesson-11\nx\n// END ANSWER\n", "a.ts")).toThrow(/a\.ts:1: BEGIN ANSWER at the top level/);
    expect(() => answerRegions("function f() {\n  // BEGIN ANSWER lesson-11\n  return 1;\n}\n", "a.ts")).toThrow(/without an END ANSWER/);
    expect(() => answerRegions("function f() {\n  // END ANSWER\n}\n", "a.ts")).toThrow(/without a BEGIN ANSWER/);
    expect(() => answerRegions("function f() {\n  // EDITION: return 1;\n}\n", "a.ts")).toThrow(/outside an answer region/);
  });

  it("are declared only for tagged lessons, and every lib/ module's markers parse", () => {
    const problems: string[] = [];
    for (const [file, tags] of answerModules()) {
      for (const r of answerRegions(readFileSync(file, "utf8"), rel(file))) {
        if (!tags.some((t) => t.lesson === r.lesson)) problems.push(`${rel(file)}:${r.begin}: a region of ${r.lesson}, which its @answers tags do not name`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("plan: without lessons 4 and 11 published, fast-attention and the tokenizer's encode and decode are withheld", () => {
    const plan = planAnswerModules(ROOT, []);
    const of = (file: string, lesson: string) => plan.modules.find((m) => m.file === file && m.lesson === lesson);
    expect(of("lib/model/fast-attention.ts", "lesson-11")).toEqual({ file: "lib/model/fast-attention.ts", lesson: "lesson-11", functions: ["attention"], shipped: "withheld" });
    expect(of("lib/tokenizer.ts", "lesson-4")).toEqual({ file: "lib/tokenizer.ts", lesson: "lesson-4", functions: ["bpeEncode", "bpeDecode"], shipped: "withheld" });
    const text = plan.texts.get("lib/model/fast-attention.ts")!;
    expect(text).toContain("return REFERENCE_PIECES.attention(x, weights, opts);");
    expect(text).not.toContain("tf.softmax");
    expect(text).not.toContain("groupedCore(grouped");
    const tokenizer = plan.texts.get("lib/tokenizer.ts")!;
    expect(tokenizer).toContain(`return (text) => preloadedFunction<BpeEncode>("lesson-4", "bpeEncode")(model, text);`);
    expect(tokenizer).not.toContain("mergeOf");
    expect(tokenizer).not.toContain("CHAR_TO_BYTE.get(c)");
    // The one module that ships readable: the model's parameter shapes, which the model is built
    // from (MiniMind's model_minimind.py, which lesson 8 has the learner read and count).
    expect(plan.modules.filter((m) => m.shipped === "readable").map((m) => m.file)).toEqual(["lib/model/params.ts"]);
    // Published, nothing of lesson 11 is withheld; with every lesson published, nothing at all.
    expect(planAnswerModules(ROOT, ["lesson-11"]).modules.some((m) => m.lesson === "lesson-11")).toBe(false);
    expect(planAnswerModules(ROOT, gradedLessons())).toEqual({ modules: [], texts: new Map() });
  });

  it("an edition folder still holding an unpublished lesson's region is a problem; the withheld one is not", () => {
    const dir = tempDir();
    const write = (text: string) => {
      mkdirSync(join(dir, "lib", "model"), { recursive: true });
      writeFileSync(join(dir, "lib", "model", "fast-attention.ts"), text);
    };
    write(readFileSync(FAST_ATTENTION, "utf8"));
    expect(answerRegionLeaks(dir, [])).toEqual([expect.stringMatching(/^lib\/model\/fast-attention\.ts:\d+: lesson-11's answer region is in the edition/), expect.anything(), expect.anything(), expect.anything()]);
    expect(answerRegionLeaks(dir, ["lesson-11"])).toEqual([]);
    write(planAnswerModules(ROOT, []).texts.get("lib/model/fast-attention.ts")!);
    expect(answerRegionLeaks(dir, [])).toEqual([]);
  });

  it("every withheld module typechecks as the edition ships it", () => {
    const plan = planAnswerModules(ROOT, []);
    expect(plan.texts.size).toBeGreaterThan(0);
    const config = ts.parseJsonConfigFileContent(ts.readConfigFile(join(ROOT, "tsconfig.json"), ts.sys.readFile).config, ts.sys, ROOT);
    const replaced = new Map([...plan.texts].map(([file, text]) => [join(ROOT, file), text]));
    const host = ts.createCompilerHost(config.options);
    const original = host.getSourceFile.bind(host);
    host.getSourceFile = (name, lang, onError, fresh) => {
      const text = replaced.get(resolve(name));
      return text !== undefined ? ts.createSourceFile(name, text, lang) : original(name, lang, onError, fresh);
    };
    host.readFile = (name) => replaced.get(resolve(name)) ?? ts.sys.readFile(name);
    const program = ts.createProgram([...replaced.keys()], config.options, host);
    const errors = [...replaced.keys()].flatMap((f) =>
      ts.getPreEmitDiagnostics(program, program.getSourceFile(f)).map((d) => `${rel(f)}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`),
    );
    expect(errors).toEqual([]);
  }, 120_000);

  it("the withheld fast attention is the resolver's attention, and its core says to finish lesson 11 first", async () => {
    const text = planAnswerModules(ROOT, []).texts.get("lib/model/fast-attention.ts")!;
    const dir = tempDir();
    const file = join(dir, "fast-attention.ts");
    // The same module, beside the original's imports (absolute, so they are the same modules).
    writeFileSync(file, text.replace(/from "(\.\.?\/[^"]+)\.js"/g, (_, p: string) => `from ${JSON.stringify(resolve(dirname(FAST_ATTENTION), `${p}.ts`))}`));
    const tf = await import("../lib/tf.js");
    const { initBackend } = await import("../lib/backend.js");
    await initBackend("cpu");
    const { REFERENCE_PIECES } = await import("../lib/model/pieces.js");
    const withheld = (await import(file)) as typeof import("../lib/model/fast-attention.js");
    const H = 8, D = 4;
    const rand = (shape: number[], seed: number) => tf.randomNormal(shape, 0, 0.3, "float32", seed);
    const weights = { wq: rand([2 * D, H], 1), wk: rand([D, H], 2), wv: rand([D, H], 3), wo: rand([H, 2 * D], 4), qNorm: tf.ones([D]), kNorm: tf.ones([D]) } as never;
    const x = rand([1, 3, H], 5) as import("../lib/tf.js").Tensor3D;
    const cos = tf.ones([3, D]) as import("../lib/tf.js").Tensor2D;
    const sin = tf.zeros([3, D]) as import("../lib/tf.js").Tensor2D;
    const opts = { numHeads: 2, numKvHeads: 1, cos, sin, attentionMask: null, pastKv: null, useCache: false, eps: 1e-6 };
    const got = withheld.fastAttention(x, weights, opts).output;
    const want = REFERENCE_PIECES.attention(x, weights, opts).output;
    expect(Array.from(got.dataSync())).toEqual(Array.from(want.dataSync()));
    let thrown: unknown;
    try {
      withheld.fastAttentionCore(rand([1, 3, 2, D], 6) as never, rand([1, 3, 1, D], 7) as never, rand([1, 3, 1, D], 8) as never);
    } catch (err) {
      thrown = err;
    }
    expect((thrown as Error)?.name).toBe("LessonNotFinishedError");
    expect((thrown as Error).message).toMatch(/lib\/model\/fast-attention\.ts computes lesson-11's attention, .*finish lesson 11 first/);
  });
});
