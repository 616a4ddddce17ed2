/** Lesson 6's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-6",
  hints: {
    pretrainSample: {
      nudge: "文本两端各要加一个 id，总长度还必须放进 maxLength。文本的 id 能留下几个？",
      keyIdea:
        "先编码，保留前 maxLength − 2 个 id，两端加上 bos 和 eos，再用 padId 填充到 maxLength。" +
        "标签就是这些 id，凡是 id 等于 pad id 的位置都改为 -100（比较的是 id，不是位置）。",
      formula: "ids = [bos] + encode(text)[:L−2] + [eos] + [pad]*(…); labels = ids with (ids == pad) → -100。MiniMind：dataset/lm_dataset.py:47-55 @ d65ef2c。",
    },
  },
  mistakes: {
    pretrainSample: {
      "cut-to-max-length": "把文本截断到 maxLength 而不是 maxLength − 2，于是 bos 和 eos 溢出了窗口",
      "no-eos": "忘了加 eos token",
      "pad-by-position": "只屏蔽了填充的位置，没有屏蔽文本内部的 pad id（MiniMind 按 id 屏蔽）",
      "pad-labels-kept": "把 pad id 留作标签，而不是改为 -100",
      "pads-with-zero":
        "用字面量 0 填充，并把 0 的标签改为 -100：0 是 MiniMind 的 pad id，并非所有分词器都是；请用 tokenizer.padId",
      "zero-ids-unlabelled": "标签在 id 为 0 的地方设为 -100，而不是在 id 等于 tokenizer.padId 的地方（MiniMind 的 pad id 恰好是 0）",
    },
  },
};

export default zh;
