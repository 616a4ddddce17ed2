/** Lesson 8's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-8",
  hints: {
    countParams: {
      nudge:
        "MiniMind 里的每个 nn.Linear 都没有偏置，所以一个从 a 维到 b 维的层有 a·b 个权重，而一个 RMSNorm 每个特征有一个增益。" +
        "把一个 block 创建的所有模块列出来，再看 block 之外还有什么。",
      keyIdea:
        "记号：V = vocabSize，H = hiddenSize，L = numHiddenLayers，n_q = numAttentionHeads，n_kv = numKeyValueHeads，d = headDim，" +
        "I = intermediateSize，E = numExperts，k = numExpertsPerTok，I_e = moeIntermediateSize。" +
        "每个 block：q（H → n_q·d），k 和 v（各为 H → n_kv·d：分组查询注意力 GQA），o（n_q·d → H）；两个 H 维的 norm 和两个 d 维的 QK-norm；" +
        "一个由三个矩阵组成的 SwiGLU MLP，或者在混合专家 MoE 中换成一个 E·H 的路由器加上 E 个各 3·H·I_e 的专家。" +
        "block 之外：词嵌入 V·H（权重共享的 lm_head 是同一个张量，只算一次）和最后的 norm H。" +
        "total 是各部分之和（专家已经包含在 feedForward 里）；active = total 减去一个 token 跳过的那些专家，没有 MoE 时等于 total（此时不要给出 experts）。",
      formula:
        "embedding = V·H·(tied ? 1 : 2);  attention = L·(2·H·n_q·d + 2·H·n_kv·d);  feedForward = L·3·H·I or L·(E·H + E·3·H·I_e);  " +
        "norms = L·(2H + 2d) + H;  experts = L·E·3·H·I_e;  active = total − L·(E − k)·3·H·I_e。" +
        "MiniMind：model/model_minimind.py:10-45, 100-105, 140-153, 182-204, 241-242 以及 trainer/trainer_utils.py:18-28 @ d65ef2c。",
    },
  },
  mistakes: {
    countParams: {
      "all-experts-active": "active 把每个专家都算了进去；一个 token 只用其中 numExpertsPerTok 个：要减去 L·(E − k)·3·H·I_e",
      "experts-use-dense-width": "每个专家都按 intermediateSize 计算；MoE 专家的宽度是 moeIntermediateSize",
      "experts-zero-when-dense": "稠密配置返回了 experts: 0；没有 MoE 时，约定是不给出 experts 这个键",
      "head-dim-from-hidden": "headDim 被重新算成了 hiddenSize / numAttentionHeads；应当读 config.headDim（它可能被显式设定）",
      "no-final-norm": "norms 里漏掉了最后一个 block 之后的那个 RMSNorm（H 个权重）",
      "no-gqa": "k_proj 和 v_proj 按 numAttentionHeads 计算了大小；它们的输出是 numKeyValueHeads·headDim 维（GQA）",
      "no-qk-norm": "norms 里漏掉了 q_norm 和 k_norm 的增益（每层各 headDim 个）",
      "no-router": "feedForward 里漏掉了路由器（gate，每个 MoE 层 E·H 个）",
      "tied-counted-twice": "在词嵌入之外又算了一遍 lm_head；设置 tieWordEmbeddings 时它们是同一个矩阵，只算一次",
      "two-matrix-mlp": "MLP 按两个矩阵计算；SwiGLU 有三个：gate、up 和 down，共 3·H·I",
    },
  },
};

export default zh;
