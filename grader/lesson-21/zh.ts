/** Lesson 21's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-21",
  hints: {
    dpoSample: {
      nudge: "位置 t 上的模型预测的是 token t + 1。如果掩码标出哪些 token 属于回答，那么每个掩码元素应当打开哪个位置的对数概率？",
      keyIdea:
        "先 chosen，再 rejected：渲染模板，做后处理（就按这个顺序，只有带空 think 块时才抽随机数），编码，截断并填充到 maxLength，" +
        "再用 SFT 的标签扫描构建 0/1 掩码。然后 x = 去掉最后一个的 ids，y = 去掉第一个的 ids，掩码也去掉第一个（于是 mask[t] 对应目标 y[t]）。",
      formula: "x = ids[:-1], y = ids[1:], mask = loss_mask[1:]。MiniMind：dataset/lm_dataset.py:135-174, 176-192 @ d65ef2c。",
    },
    dpoBatch: {
      nudge: "第 22 课的 dpoLoss 把第 i 行和第 i + B 行配成一对。这些行必须怎样堆叠？",
      keyIdea: "先按样本顺序堆叠所有 chosen 行，再按同样的顺序堆叠所有 rejected 行；x 和 y 用 int32，掩码用 float32，这样它才能和浮点的对数概率相乘。",
      formula: "x = cat([x_chosen…], [x_rejected…]) → [2B, L−1]；y 和 mask 同理。MiniMind：trainer/train_dpo.py:59-67 @ d65ef2c。",
    },
  },
  mistakes: {
    dpoBatch: {
      "int-mask": "掩码以 int32 返回；第 22 课的 dpoLoss 要把它和浮点的对数概率相乘",
      interleaved: "chosen 和 rejected 行交错排列（c0, r0, c1, r1, …），而不是先全部 chosen 再全部 rejected",
      "rejected-first": "把 rejected 行放在了前面",
    },
    dpoSample: {
      "labels-as-mask": "把 SFT 标签（id 和 -100）当作掩码返回，而不是 1 和 0",
      "mask-all-tokens": "掩码打开了所有非填充 token，包括 prompt，而不是只打开 assistant 的片段",
      "mask-unshifted": "用了 mask[:-1]（与 x 对齐），而不是 mask[1:]（与目标 y 对齐）",
      "pad-zero": "这些行用字面量 0 填充，0 是 MiniMind 的 pad id，但并非所有分词器都是：请用 tokenizer.padId 填充",
      "rejected-drawn-first": "先对 rejected 对话做后处理，于是两次抽样落到了错误的一侧",
    },
  },
};

export default zh;
