/** Lesson 19's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const EVERY_LORA_NAME = "每个包含 \"lora\" 的名字都参与训练";

const zh: LessonZh = {
  lesson: "lesson-19",
  hints: {
    applyLora: {
      nudge:
        "模型的权重中，哪些属于线性层？其中 MiniMind 给哪些加适配器？看权重的形状：MiniMind 判断的是 in_features 和 out_features。" +
        "再想：哪个因子从零开始，使模型在第 0 步保持不变？",
      keyIdea:
        "按顺序遍历权重。跳过任何不是二维 \"….weight\" 的东西，也跳过 token 词嵌入（它是查找表，不是线性层）。只保留方阵权重 [n, n]。" +
        "对每一个，模块名就是权重名去掉 \".weight\"；先加 \"<module>.lora.A.weight\" = initA(name, [r, in])，再加 \"<module>.lora.B.weight\" = 全零 [out, r]。",
      formula:
        "for (name, W [out, in]) in weights: if name ends in \".weight\" and W is 2-D and name ≠ \"model.embed_tokens.weight\" and out == in: " +
        "A = initA(\"<module>.lora.A.weight\", [r, in]); B = a zero matrix of shape [out, r]。" +
        "MiniMind：apply_lora，model/model_lora.py:21-25，以及第 6-15 行的 LoRA 初始化 @ d65ef2c。",
    },
    trainableParams: {
      nudge: "MiniMind 通过看每个参数的名字来决定训练什么。所有适配器的名字有什么共同点？",
      keyIdea:
        "一个参数参与训练，当且仅当它的名字包含 \"lora\"。它的大小是其形状各维的乘积（标量，即形状 []，为 1）。" +
        "总数统计给出的每一个参数，包括适配器，因为 MiniMind 是在 apply_lora 之后计数的。",
      formula:
        "trainable = [n for n in shapes if \"lora\" in n]; trainableCount = Σ_{n ∈ trainable} Π shapes[n]; totalCount = Σ_n Π shapes[n]。" +
        "MiniMind：trainer/train_lora.py:132-146 @ d65ef2c。",
    },
  },
  mistakes: {
    applyLora: {
      "embedding-too": "给 token 词嵌入加了适配器；它是查找表（nn.Embedding），不是线性层，即使它是方阵",
      "every-linear": "给每个线性层都加了适配器；MiniMind 只给 in_features == out_features 的层（方阵权重）加",
      "no-weight-suffix-check":
        "给一个名字不以 \".weight\" 结尾的二维方阵张量（像 `…rotary.freqs` 这样的 buffer）加了适配器：只有模块的权重才是线性层",
      "transposed-a": "A 的形状写成了 [in, r]；A 把 in 个特征映射到 r 个，按 nn.Linear 的权重布局应当是 [r, in]（B 是 [out, r]）",
      "wrong-names":
        "适配器被命名为 \"<module>.weight.lora.A\"；MiniMind 的 save_lora 写的是 \"<module>.lora.A.weight\" 和 \"<module>.lora.B.weight\"",
      "zero-a":
        "A 被置零而 B 随机抽取；MiniMind 从 N(0, 0.02²) 抽取 A、把 B 置零（两者开始时都不起作用，但名字和数值不同）",
    },
    trainableParams: {
      "dotted-lora":
        `只有包含 ".lora." 的名字参与训练，于是 PEFT 风格的适配器名字（\`…q_proj.lora_A.default.weight\`）保持冻结：${EVERY_LORA_NAME}`,
      inverted: "列出的是冻结的参数；可训练的是适配器",
      "lora-matrices-only":
        `只有匹配 \`lora.A.weight\` / \`lora.B.weight\` 的名字参与训练，于是别的适配器参数（\`…lora.scaling\`）保持冻结：${EVERY_LORA_NAME}`,
      "only-a": "只有 A 矩阵参与训练；名字里带 \"lora\" 的每个参数都参与训练，A 和 B 都是",
      "sum-of-dims": "参数的大小取成了各维之和；应当是各维之积（标量为 1）",
      "total-base-only": "总数漏掉了适配器；MiniMind 统计的是注入适配器之后模型的全部参数",
    },
  },
};

export default zh;
