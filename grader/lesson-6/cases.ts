/**
 * Lesson 6 — Pretrain vs SFT. Cases for exercises/lesson-6/pretrain.ts: the lesson's worked
 * example on MiniMind's tokenizer, edge cases (among them a tokenizer whose pad id is not 0),
 * seeded random text, and Python fixtures restating dataset/lm_dataset.py:47-55
 * (grader/lesson-6/parity.py).
 */
import { dataFixtureCases } from "../engine/data-cases.js";
import { charTokenizer, minimindTokenizer } from "../engine/datasets.js";
import { Rng } from "../../lib/random.js";
import { EXACT } from "../engine/types.js";
import type { CaseDef, LessonGrader } from "../engine/types.js";

const LESSON = "lesson-6";

const mm = (name: string, kind: CaseDef["kind"], text: () => string, maxLength: number): CaseDef => ({
  name,
  kind,
  inputs: () => ({ text: text(), tokenizer: minimindTokenizer(), maxLength }),
});

function randomText(seed: number, words: number): string {
  const rng = new Rng(seed);
  const vocab = ["the", "model", "reads", "tokens", "and", "predicts", "next", "one", "模型", "学习", "42", ".", ","];
  return Array.from({ length: words }, () => vocab[rng.int(0, vocab.length - 1)]).join(" ");
}

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "pretrainSample",
      file: "pretrain.ts",
      tolerance: EXACT,
      call: (fn, x) => fn(x.text, x.tokenizer, x.maxLength),
      cases: [
        mm("worked example: \"Hello world\" in a window of 8 (MiniMind's tokenizer)", "worked", () => "Hello world", 8),
        mm("the text fills the window exactly: no padding", "edge", () => "Hello world", 5),
        mm("a long text is cut to maxLength − 2 before bos and eos", "edge", () => "one two three four five six seven eight", 6),
        mm("the empty text: bos, eos, then padding", "edge", () => "", 5),
        mm("maxLength 2: only bos and eos", "edge", () => "anything", 2),
        mm("<|endoftext|> inside the text is the pad id, so its label is -100 too", "edge", () => "a<|endoftext|>b", 8),
        mm("special-token strings in the text stay single ids", "edge", () => "<|im_start|>user\nhi<|im_end|>", 12),
        {
          name: "a tokenizer whose pad id is not 0 (character-level, pad id 3): U+0003 in the text is -100, U+0000 (id 0) is an ordinary label",
          kind: "edge",
          inputs: () => ({ text: "a\u0000b\u0003c", tokenizer: { ...charTokenizer(), padId: 3 }, maxLength: 10 }),
        },
        mm("200 random words in a window of 128 (seed 3)", "random", () => randomText(3, 200), 128),
        mm("20 random words in a window of 64 (seed 4)", "random", () => randomText(4, 20), 64),
        ...dataFixtureCases(LESSON, "pretrainSample", true),
      ],
    },
  ],
};

export default grader;
