/** Lesson 13's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-13",
  hints: {
    feedForward: {
      nudge: "三个投影，两条支路：哪条支路经过激活函数？两条支路怎样合并，再投影回 H 维？",
      keyIdea:
        "用 lib/model/linear.ts 里的 linear(x, W)（对任意前导形状计算 x·Wᵀ）。silu(z) = z·σ(z)，由 sigmoid 得到（TensorFlow.js 没有 silu 辅助函数）；" +
        "它作用在 gate 支路上，结果再与 up 支路逐元素相乘；down 把乘积投影回 H 维。",
      formula: "FFN(x) = down( silu(gate(x)) ⊙ up(x) )。MiniMind：model/model_minimind.py:136-146 @ d65ef2c。",
    },
    moeFeedForward: {
      nudge:
        "softmax 是在多少个专家上取的？每个被选中专家的输出要乘以什么？k = 1 且做重新归一化时，答案被掩盖了：试试 k = 2 并关掉 normTopkProb。",
      keyIdea:
        "把 x 展平成 [N, H]；p = softmax(linear(x, gate))，在全部 E 个专家上取；选出前 k 个（TensorFlow.js 里 top-k 没有梯度：在 p 的值的无梯度副本上做选择，再把选择结果当作常量 0/1 模式使用）；" +
        "一个 [N, E] 的路由矩阵在被选中处取 p、其余为 0，normTopkProb 时逐行重新缩放；对 e 求和 routing[:, e] ⊙ feedForward(x, expert_e)。" +
        "辅助损失（aux loss）只在训练且 α > 0 时计算：f = 0/1 选择在 token 上的均值（Σ f = k），P̄ = p 在 token 上的均值。" +
        "梯度通过 p（权重和辅助损失）到达路由器；top-k 的选择不带梯度。" +
        "让每个专家都处理每个 token、未被路由的权重为 0，得到的和与 MiniMind 相同；MiniMind 只让每个专家处理路由给它的 token（一次 gather 加一次 index_add），" +
        "省下 E/k 倍的计算，这在大规模时重要，在这个规模下无关紧要。",
      formula:
        "每个 token：p = softmax(gate(x))，在全部 E 个专家上；S = p 最大的 k 个专家；w_e = p_e·1[e ∈ S]（normTopkProb 时再除以 (Σ_{e∈S} p_e + 1e-20)）；y = Σ_{e∈S} w_e·FFN_e(x)。" +
        "在 N 个 token 上：f_e = (1/N) Σ 1[e ∈ S],  P̄_e = (1/N) Σ p_e,  训练且 α > 0 时 aux = α·E·Σ_e f_e·P̄_e，否则为 0。" +
        "MiniMind：model/model_minimind.py:148-176 @ d65ef2c。",
    },
  },
  mistakes: {
    feedForward: {
      "no-up-branch": "缺少 up 支路：SwiGLU 在 down 之前要把 silu(gate(x)) 乘以 up(x)",
      relu: "用了 ReLU；MiniMind 的 hidden_act 是 silu：z·σ(z)",
      "sigmoid-gate": "gate 用了 σ(z)；SiLU 是 z·σ(z)，所以还要再乘以 gate 的输入",
      "silu-as-division":
        "silu 写成了 z / (1 + exp(−z))：数值对，但预激活低于 ≈ −88 时 exp(−z) 溢出为 Infinity，那里的梯度是 NaN；请用 z·sigmoid(z)",
      "silu-on-up": "SiLU 放在了 up 支路上；它应当在 gate 支路上：down(silu(gate(x)) ⊙ up(x))",
    },
    moeFeedForward: {
      "always-renormalise": "normTopkProb 为 false 时也对 top-k 权重做了重新归一化；只有它为 true 时才重新缩放",
      "aux-in-eval": "在训练之外也计算了辅助损失；除非 training 为 true 且 α > 0，否则它为 0",
      "aux-without-num-experts": "辅助损失缺少因子 E（numExperts）：aux = α · E · Σ_e f_e · P̄_e",
      "load-per-slot": "f_e 被除以了 k；MiniMind 的负载是 k 个槽位上独热选择之和在 token 上的均值，所以 Σ_e f_e = k",
      "no-routing-weight": "每个被选中专家的输出以权重 1 相加；应当乘以它的路由权重（门控概率，仅在 normTopkProb 时重新归一化）",
      "router-softmax-without-max":
        "路由器的 softmax 写成了 exp(l)/Σexp(l)，没有减去最大值：路由 logit 超过 ≈ 88 时 float32 溢出，得到 NaN；请用 tf.softmax",
      "softmax-after-topk": "softmax 只在选中的 k 个 logit 上做了；应当先在全部 E 个专家上做，再挑出概率最大的 k 个",
    },
  },
};

export default zh;
