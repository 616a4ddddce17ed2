/** Lesson 15's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-15",
  hints: {
    skipBatches: {
      nudge: "检查点上写着“step 3”。这是三个样本还是三个批次？epoch 末尾那个不满的批次又怎么办？",
      keyIdea:
        "沿着 `order` 逐个组装大小为 batchSize 的批次。每凑满一个批次，要么把它算作跳过（只要跳过的还不到 skip 个），要么保留它。" +
        "到最后，不满的批次只有在跳过已经完成时才保留：否则它属于已经训练过（或根本没走到）的那部分。",
      formula:
        "完整批次 order[iB … iB + B − 1]，i = skip, skip + 1, …；然后是余下的部分（n mod B 个样本），前提是它非空且 ⌊n/B⌋ ≥ skip。" +
        "MiniMind：trainer/trainer_utils.py:134-153 @ d65ef2c。",
    },
    rescaleResumeStep: {
      nudge: "有 4 个进程时，每个全局步消耗 4 个本地批次。换成 2 个进程，这相当于多少个全局步？",
      keyIdea: "保持已经看过的样本数不变：step·savedWorldSize 是以本地批次计的数量；除以新的进程数（world size）并向下取整。",
      formula: "⌊step·saved / current⌋（先乘，再整除）。MiniMind：trainer/trainer_utils.py:110-114 @ d65ef2c。",
    },
  },
  mistakes: {
    rescaleResumeStep: {
      "float-ratio":
        "先用浮点数算了比值 saved/current：45 · (7/5) 是 62.999…，向下取整成 62；应当先乘再除（MiniMind：step * saved_ws // current_ws）",
      inverted: "比值颠倒了：步数按 saved/current 缩放（现在进程更多，步数就更少）",
      none: "进程数变了，却沿用了保存的步数；它数的是旧规模下的全局批次",
      "ratio-floored": "相乘之前先把比值 saved/current 向下取整了；应当先乘，再除并向下取整",
      rounded: "四舍五入到最近的步数；MiniMind 是向下取整（整除）",
    },
    skipBatches: {
      "drop-tail": "丢掉了最后那个不满的批次：MiniMind 会用它训练（没有 drop_last）",
      "samples-not-batches": "跳过了 skip 个样本而不是 skip 个批次：保存的步数数的是批次",
      "tail-always": "完整批次的个数不足 skip 个可跳时，仍然保留了最后那个不满的批次",
    },
  },
};

export default zh;
