/** Lesson 30's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-30",
  hints: {
    proxLogpApproximations: {
      nudge:
        "你知道该 token 在两个版本下的对数概率：v_b（生成它的时候）和 v_θ（现在）。假定近端策略比 v_θ 落后一个版本。" +
        "它处在从 v_b 到 v_θ 这段路程的几分之几？哪些 token 根本无路可走？",
      keyIdea:
        "α = (v_prox − v_b)/(v_θ − v_b)，其中 v_prox = currentVersion − 1，并截断到 [0, 1]；" +
        "在 v_θ − v_b ≤ 0 处（避免除以零）和 v_b < 0 处（prompt token；版本 0 是一个真实的策略，所以要判断 ≥ 0）α = 0。" +
        "从行为策略一端向当前策略一端迈一步：old + α·(logprobs − old)。linear 混合的是概率而不是对数概率，加上 1e-10 之后再取 log。" +
        "rollout 是 old 的一份拷贝（clone），绝不是输入张量本身。" +
        "TensorFlow.js 的陷阱：versions 是 int32，两个 int32 张量相除是向下取整的整除，所以先把 versions 转成 float32。" +
        "where 会把两个分支都算出来，所以要在相除之前把为零的分母替换掉（比如换成 1），而不要指望 where 把 Inf 或 NaN 藏起来。",
      formula:
        "α = clamp((v_prox − v_b)/(v_θ − v_b), 0, 1)，其中 v_prox = v_θ − 1，仅在 v_θ − v_b > 0 且 v_b ≥ 0 处如此，否则为 0（token 越陈旧，α 越接近 1）;  " +
        "loglinear = old + α·(logprobs − old);  linear = log((1 − α)·e^old + α·e^logprobs + 1e-10);  rollout = old。" +
        "AReaL：areal/trainer/ppo/actor.py:629-684 @ 4aef98d8。",
    },
    stalenessStats: {
      nudge:
        "哪些 token 才谈得上陈旧度（staleness）？想想填充，再想想那些即使掩码为 true、版本也是 −1 的 prompt token。",
      keyIdea:
        "只有掩码为 true 且版本 ≥ 0 的 token 才计入；均值除以这个计数，而不是掩码之和。" +
        "近端陈旧度从 currentVersion − 1 起算，theta 陈旧度从 currentVersion 起算，所以 theta = proximal + 1，而当前版本的 token 相对近端策略的落后量是 −1。" +
        "没有任何 token 计入时返回 null，而不是 0。结果是普通数字：用 dataSync() 读出 versions 和 mask 再循环，是最简单的做法。",
      formula:
        "在 {mask ∧ v_b ≥ 0} 上：proximal = (v_θ − 1) − v_b, theta = v_θ − v_b，各自汇总为 { avg, max, min };  validTokens = 该计数;  计数为 0 时为 null。" +
        "AReaL：areal/trainer/ppo/actor.py:1081-1108 和 889-904 @ 4aef98d8。",
    },
    mismatchKl: {
      nudge:
        "这些 token 是由推理引擎采样的。设每个 token 的 r = π_train/π_behave，AReaL 记录了 log r 的哪三个函数？每一个又是在哪些 token 上取平均的？",
      keyIdea:
        "在每个有效 token（掩码为 true）上取 x = logprobs − oldLogp。direct = −x，taylor = x²/2，dual = e^x − 1 − x（永远非负）。" +
        "每一项都是在有效 token 上的简单均值；一个有效 token 都没有时返回 null（分母为空时，AReaL 的 stats tracker 什么都不记录）。" +
        "用 dataSync() 读出张量再循环，是最简单的做法。",
      formula:
        "n = Σ mask;  direct = Σ_mask(−x)/n,  taylor = Σ_mask(x²/2)/n,  dual = Σ_mask(e^x − 1 − x)/n,  x = logprobs − oldLogp;  n = 0 时为 null。" +
        "AReaL：areal/trainer/ppo/actor.py:1045-1062 和 areal/utils/stats_tracker.py:244-261 @ 4aef98d8。",
    },
    resolveLogps: {
      nudge:
        "按顺序回答两个问题：计算优势时，哪个张量成为 old_logp？然后，损失的比值又是相对哪个张量计算的？什么时候需要做一次前向传播才能得到后者？",
      keyIdea:
        "解耦损失需要前向传播，除非方法是 loglinear；耦合损失只在 recompute_logprob 时才需要。" +
        "耦合 + 重算：behave = proximal = 重算出的对数概率（缺失时报 AReaL 的 recompute_logprob 错误）。其他耦合情形：两者都用推理引擎给出的。" +
        "解耦：behave = 推理引擎给出的；proximal 有重算结果时用重算结果；没有时，只有 loglinear 可以根据版本来近似它（第 30 课的 loglinear），否则抛异常。" +
        "先检查方法名，并拒绝含有 NaN 或 ±Inf 的 proximal 张量。返回 clone。",
      formula:
        "needs = (decoupled ∧ method ≠ loglinear) ∨ (¬decoupled ∧ recompute);  耦合：proximal = behave = (recompute ? recomputed : inference);  " +
        "解耦：behave = inference, proximal = recomputed ?? (loglinear ∧ versions ∧ currentVersion ? old + α(logprobs − old) : error)。" +
        "AReaL：areal/api/cli_args.py:1534-1545, areal/trainer/ppo/actor.py:178-191, 716-766 @ 4aef98d8。",
    },
  },
  mistakes: {
    mismatchKl: {
      "direct-sign":
        "direct 估计量是 −log r，其中 r = π_train/π_behave：token 是由推理引擎采样的，所以 KL(π_behave‖π_train) 平均的是 log π_behave − log π_train",
      "dual-reversed": "AReaL 这里的 dual 估计量是 r − 1 − log r，其中 r = π_train/π_behave，而不是第 33 课 e^{−δ} − 1 + δ 的方向",
      "mean-over-padding": "只在有效 token 上平均：填充和 prompt 位置不计入分母",
      "ratio-as-quotient":
        "dual 估计量中的比值 r 在 float32 中按 exp(logprobs) / exp(oldLogp) 计算；对数概率低于约 −104 时两个指数都下溢，r 是 0/0 = NaN：应改为对对数比取 exp",
      "taylor-no-half": "Taylor 估计量是 (log r)²/2：KL 的二阶项带有 ½ 这个系数",
      "zeros-when-empty": "没有有效 token 时 AReaL 什么都不记录：应返回 null，而不是一个看起来完美的 0",
    },
    proxLogpApproximations: {
      "linear-in-log-space": "linear 混合的是对数概率；它应混合概率，(1 − α)·e^old + α·e^logprobs，再取 log",
      "no-floor": "linear 取 log 时没有加 1e-10，于是接近零的概率混合之后会跑到极大的负值",
      "prompt-tokens-interpolated":
        "prompt token（版本 −1）也被插值了；它们没有生成版本，所以那里的 α 必须为 0（只对版本 ≥ 0 的 token 插值）",
      "proximal-is-current": "近端版本取成了 currentVersion；AReaL 假定 π_prox 落后一个版本：v_prox = currentVersion − 1",
      "rollout-not-copied":
        "rollout 就是 oldLogp 张量本身；应返回一份拷贝（tf.clone），这样释放这些近似值时，永远不会释放调用方的对数概率",
      "swapped-ends": "插值是从 logprobs 出发的；α 是从 old（行为策略）向 logprobs 迈出的步长：old + α·(logprobs − old)",
      "version-zero-excluded":
        "版本 0 的 token 被当成了 prompt token；版本 0 是第一个策略，它的 token 也要插值（版本 ≥ 0，而不是 > 0）",
    },
    resolveLogps: {
      "behave-finite-check":
        "对行为策略的对数概率也做了 NaN/Inf 检查；AReaL 只检查即将作为训练比值基准的近端策略，推理引擎给出的 −Inf 对数概率原样返回",
      "loglinear-overrides": "loglinear 只在没有重算的近端策略时才做近似；已经存在的真实值直接使用",
      "metrics-skips-forward":
        "'metrics' 和 'recompute' 一样会重算近端策略（只是额外记录这些近似值）；只有 'loglinear' 会跳过前向传播",
      "no-finite-check": "含有 NaN 或 ±Inf 的近端策略必须被拒绝，而不是拿来训练",
      "proximal-is-behave": "解耦损失的比值是相对重算出的近端策略计算的，而不是相对推理引擎的对数概率",
      "recompute-ignored":
        "在 recompute_logprob 且使用耦合损失时，重算出的对数概率要替换推理引擎的，作为 old_logp（同时作为近端策略）",
      "returns-inputs":
        "把 batch 自己的张量当作 behave 和 proximal 返回了；应返回新张量（tf.clone），这样释放结果时永远不会释放 batch",
    },
    stalenessStats: {
      "mask-ignored": "忽略了掩码，于是填充也被算作陈旧的 token；只统计掩码为 true 的 token",
      "mean-over-mask": "avg 除以的是所有掩码内的 token；应除以真正计入的 token 数（掩码为 true 且版本 ≥ 0）",
      "prompt-tokens-counted": "版本为 −1 的 token 也被统计了；只有生成的 token（版本 ≥ 0）才有陈旧度",
      "proximal-from-current": "近端陈旧度从 currentVersion 起算了；近端策略是 currentVersion − 1",
      "spread-max":
        "max 和 min 用 Math.max(...lag) / Math.min(...lag) 来求，一旦一个 batch 有几十万个 token，就会抛出 RangeError（参数过多）；请改用循环归约",
      "zeros-when-empty": "没有 token 计入时返回了 0；应返回 null（AReaL 宁可什么都不记录，也不给出一个误导人的 0）",
    },
  },
};

export default zh;
