/** Lesson 32's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-32",
  hints: {
    sequenceLevelRatio: {
      nudge:
        "GSPO 希望每个序列只有一个比值。如果每个 token 的比值是 exp(log-ratio)，用哪一个数来概括一串比值的乘积，才不会随长度增长？",
      keyIdea:
        "在该行掩码内的 token 上对对数比取平均，再取指数：这就是各 token 比值的几何平均。在同样的 token 上对优势取平均。" +
        "除以该行的掩码计数（下限为 1），把这两个行值放到每个掩码内的 token 上，填充处为 0。" +
        "经过这个均值，第 i 行每个掩码内的对数比得到的梯度是 ratio_i / n_i。" +
        "全程使用张量运算（比值需要梯度），零值要按形状新建一个张量，而不是用 zerosLike 从对数比张量生成（那会把它们和对数比的梯度绑在一起）。",
      formula:
        "n_i = max(Σ_t m, 1);  ratio = where(m, exp(Σ_t m·logRatio / n_i), 0);  advantages = where(m, Σ_t m·A / n_i, 0)。" +
        "AReaL：areal/utils/functional/functional.py:128-149 @ 4aef98d8。",
    },
    sapoLoss: {
      nudge:
        "SAPO 保留比值 r，但把 PPO 的裁剪换成了一个平滑的门控：以 r = 1 为中心的 sigmoid。σ(τ(r − 1)) 要乘上什么系数，才能让它在 r = 1 处的斜率恰好为 1？",
      keyIdea:
        "先做校验：τ_pos ≤ 0、τ_neg ≤ 0 或未知的级别都必须抛异常。然后 r = exp(logprobs − oldLogprobs)（序列级别时用你的 sequenceLevelRatio 给出的那一对）。" +
        "门控 g = (4/τ)·σ(τ(r − 1))，A > 0 处用 τ_pos，其余用 τ_neg；每个 token 的损失是 −g·A；在掩码上求和，再除以掩码计数（下限为 1）。" +
        "验证一下：在 r = 1 处门控的斜率 dg/dr 是 4σ(0)(1 − σ(0)) = 1，所以那里的梯度等于普通的策略梯度。",
      formula:
        "r = exp(logprobs − oldLogprobs)（token 级别），或 GSPO 的序列级比值与平均优势;  τ = τ_pos（A > 0 处），否则为 τ_neg;  g = (4/τ)·σ(τ·(r − 1));  " +
        "loss = Σ_mask −g·A / max(count(mask), 1)。AReaL：areal/utils/functional/functional.py:590-623 @ 4aef98d8。",
    },
  },
  mistakes: {
    sapoLoss: {
      "always-token-level": "忽略了 importanceSamplingLevel 'sequence'：这时应使用序列级的比值和平均优势",
      "default-sequence": "省略的 importanceSamplingLevel 被当成了 \"sequence\"；AReaL 的默认值是 \"token\"（每个 token 一个比值）",
      "gate-on-log-ratio": "门控用的是 σ(τ·log r)；AReaL 作用在 r − 1 上，一旦 r 偏离 1，两者就不一样",
      "gate-on-ratio": "门控用的是 σ(τ·r)；它必须以 r = 1 为中心：σ(τ·(r − 1))",
      "mean-over-padding": "损失除以了全部位置数，填充也算在内：应除以掩码内 token 的计数（下限为 1）",
      "no-scale": "门控缺了 4/τ 这个系数：没有它，r = 1 处的斜率是 τ/4，而不是 1",
      "no-validation": "温度 ≤ 0（或未知的级别）必须抛出错误，而不是返回一个损失",
      "ratio-as-quotient":
        "比值按 exp(logprobs) / exp(oldLogprobs) 计算；对数概率低于约 −104 时两个指数都下溢，比值是 0/0 = NaN：应改为对对数比取指数",
      "swapped-temperatures": "两个温度用反了：τ_pos 作用于 A > 0 的 token，τ_neg 作用于其余 token",
      "tau-neg-zero-accepted": "接受了 τ_neg = 0（只拒绝了负的 τ_neg）；两个温度都必须严格为正，τ = 0 会在 4/τ 中除以零",
    },
    sequenceLevelRatio: {
      "advantages-over-padding": "优势的均值把填充位置的优势也加了进去：只有掩码内的 token 才计入",
      "arithmetic-mean": "比值取的是各 token 比值的算术平均；GSPO 取几何平均 exp(对数比的均值)",
      "divide-by-width": "均值除以了填充后的宽度 T；应除以每行掩码内 token 的计数（下限为 1）",
      "mask-as-lengths":
        "把损失掩码当成了每行的长度（每行前 Σ mask 个位置）；掩码中间可能有空洞，例如多轮回复里的工具输出：应在掩码内的那些位置上取平均",
      "no-final-mask": "填充位置保留了该行的比值和优势：掩码为 false 的地方要置为 0",
      "product-of-ratios": "exp(Σ log r) 是各 token 比值的乘积：要先把对数比之和除以该行的 token 数",
      "via-arrays": "数值没错，但是在普通数组上算的（dataSync），梯度传不到 logRatio：请全程使用张量运算",
    },
  },
};

export default zh;
