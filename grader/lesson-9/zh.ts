/** Lesson 9's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const EPS_INSIDE =
  "ε 没有在平方根内加到均方上：要么漏掉了（x/√mean(x²)；全零的一行于是得到 0/0 = NaN），要么被当成了下限（x/√max(mean(x²), ε)）；应当除以 √(mean(x²) + ε)";

const zh: LessonZh = {
  lesson: "lesson-9",
  hints: {
    rmsNorm: {
      nudge: "每个位置一个统计量：在哪个维度上求平均？又是什么让全零的一行不至于变成 0 除以 0？",
      keyIdea:
        "把 x 平方，在最后一维上用 keepDims 求均值（形状 [..., 1]），加上 ε，取 rsqrt，乘到 x 上，再乘以增益。" +
        "不减均值（那是 LayerNorm），ε 放在平方根里面。在同一个 tidy 作用域里用张量运算搭出来：评分器会检查梯度。" +
        "MiniMind 用 float32 计算 norm（x.float()），再把结果转回 x 的 dtype；在 tfjs 里 x 本来就是 float32。",
      formula: "y = w ⊙ x · (mean_H(x²) + ε)^(−1/2)。MiniMind：model/model_minimind.py:50-60 @ d65ef2c。",
    },
    preNormResidual: {
      nudge: "子层读的是哪个张量？哪个张量原样向前传递、最后再加回来？",
      keyIdea: "用你的 rmsNorm 归一化一份副本，送进子层，再加上原始的 x，而不是归一化后的副本。残差流本身永远不做归一化。",
      formula: "out = x + sublayer(rmsNorm(x, normWeight, eps))。MiniMind：model/model_minimind.py:186-194 @ d65ef2c。",
    },
  },
  mistakes: {
    preNormResidual: {
      "add-normalised": "残差加的是归一化后的 h；应当加原始的 x：x + sublayer(rmsNorm(x))",
      "fixed-eps": "norm 用了固定的 ε（1e-5，MiniMind 配置的默认值），而不是传入的 eps",
      "no-norm": "子层读的是 x 本身；它应当读 rmsNorm(x, normWeight, eps)",
      "no-residual": "缺少残差连接：要把 x 加回子层的输出",
      "post-norm": "这是后归一化（post-norm），rmsNorm(x + sublayer(x))；MiniMind 归一化的是子层的输入：x + sublayer(rmsNorm(x))",
    },
    rmsNorm: {
      "eps-as-floor": EPS_INSIDE,
      "eps-outside-sqrt": "ε 加在了平方根之后；它应当在里面：1/√(mean(x²) + ε)",
      "gain-off-tape": "相乘之前把增益从张量里拷了出来（dataSync），于是梯度到不了 weight；应当直接乘以 weight 张量本身",
      "no-eps": EPS_INSIDE,
      "no-weight": "没有乘上学到的增益 w：要把归一化后的 x 乘以 weight",
      "rms-via-norm":
        "RMS 是用 tf.norm(x)/√H 算的：数值对，但 norm 在全零行上的梯度是 0/0 = NaN；应当直接对 x 平方再求平均",
      "subtracts-mean": "先减去了均值：那是 LayerNorm；RMSNorm 只除以均方根",
      "whole-tensor": "在整个张量上只算了一个 RMS；应当只在最后一维上算，每个位置一个（keepDims）",
    },
  },
};

export default zh;
