/** Lesson 12's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-12",
  hints: {
    ropeFrequencies: {
      nudge: "一个 D 维的头有多少个不同的频率？MiniMind 按什么顺序把它们排在一行的 D 列上？",
      keyIdea:
        "频率 f_i = 1/base^(2i/D)，i < D/2（用 float32 张量），角度 = 位置与 f 的外积，用 float32 张量运算来算，这样每个角度都像 PyTorch 那样舍入到 float32；" +
        "然后沿最后一维拼接 concat([cos, cos]) 和 [sin, sin]。有 ropeScaling 时：注意力因子 a 总是乘到两张表上，" +
        "而 YaRN 斜坡只在 end 超过原始上下文长度 L = originalMaxPositionEmbeddings 时使用。" +
        "斜坡 γ_i 从 0 变到 1：γ = 0 的是快速（高频）维度，保持原频率；γ = 1 的是慢速维度，频率除以 factor。" +
        "斜坡的边界 low 和 high 像 MiniMind 的 Python math 调用那样用 float64 计算，只有斜坡本身是张量。",
      formula:
        "f_i = 1/base^(2i/D), i = 0 … ⌊D/2⌋−1;  cos[p] = [cos(p·f), cos(p·f)]·a,  sin[p] = [sin(p·f), sin(p·f)]·a（没有 ropeScaling 时 a = 1）。" +
        "YaRN（end > L）：f_i ← f_i·((1 − γ_i) + γ_i/factor), γ_i = clamp((i − low)/max(high − low, 0.001), 0, 1),  idx(b) = D·ln(L/(2πb))/(2·ln base),  " +
        "low = max(⌊idx(betaFast)⌋, 0),  high = min(⌈idx(betaSlow)⌉, ⌊D/2⌋ − 1)（float64）。MiniMind：model/model_minimind.py:62-78 @ d65ef2c。",
    },
    applyRope: {
      nudge: "在 MiniMind 的旋转里，和第 0 维配对的是第 1 维，还是第 D/2 维？",
      keyIdea:
        "rotate_half 把最后一维分成两半 [x₁, x₂]，返回 [−x₂, x₁]；把 cos 和 sin 从 [S, D] reshape 成 [S, 1, D]，使它们在批次和头上广播（即 MiniMind 在 dim 1 上的 unsqueeze），" +
        "q 和 k 用同样的方式旋转。第 j 维与第 j + D/2 维配对：每一对转过角度 p·f_j。",
      formula: "x' = x·cos + rotate_half(x)·sin，q 和 k 都这样做。MiniMind：model/model_minimind.py:80-84 @ d65ef2c。",
    },
    generate: {
      nudge: "第一步之后，缓存里已经有到目前为止的所有位置：模型还需要看到哪些 id？还有什么必须每步增长一格？",
      keyIdea:
        "循环：past = 缓存长度（没有缓存时为 0）；带着掩码和缓存前向计算 ids[:, past:]；给掩码追加一列 1；从最后一个位置的 logits 中选 token；" +
        "已经结束的行填 EOS；追加到序列；保留新缓存并释放旧缓存；所有行都生成过 EOS 时停止。除了结果，释放你创建的每一个张量。" +
        "省略的选项：eosTokenId 为 2（显式的 null 表示永不提前停止），useCache 为 true，没给 pickToken 时用贪心，没有掩码。" +
        "只有生成出来的 token 才能让一行结束：prompt 里的 EOS（多轮对话）不算。",
      formula:
        "每一步：1. past = 缓存长度（没有缓存时为 0）；带着掩码和缓存前向计算 ids[:, past:]；  2. mask = [mask, 1]；  " +
        "3. next = pickToken(logits[:, −1, :])，已经结束的行 next = eos；  4. ids = [ids, next]，保留返回的缓存（useCache 时）；  " +
        "5. finished |= next == eos；所有行都结束时停止（eosTokenId 为 null 时永不停止）。MiniMind：model/model_minimind.py:257-288 @ d65ef2c。",
    },
  },
  mistakes: {
    applyRope: {
      "interleaved-pairs":
        "把相邻的维度 (0, 1)、(2, 3)、… 配成了对，而表是按两半排布的，于是一对中的两个数转过不同的角度（这不是旋转，也不是交错式的 RoPE）；" +
        "MiniMind 把第 j 维和第 j + D/2 维配对（rotate_half 把头分成两半）",
      "keys-unrotated": "只旋转了查询：键也需要同样的旋转，否则 q·k 不再只取决于位置之间的距离",
      "rotate-half-off-tape":
        "rotate_half 是从数值（dataSync）新建的张量：值是对的，但梯度传不过去；请用张量运算（split、neg、concat）构造它",
      "rotate-half-wrong-sign": "rotate_half([x₁, x₂]) 必须是 [−x₂, x₁]；[x₂, −x₁] 会让每一对朝反方向旋转",
      "sin-cos-swapped": "sin 和 cos 写反了：应当是 x·cos + rotate_half(x)·sin",
    },
    generate: {
      "eos-default-none": "省略 eosTokenId 时生成永远不会停止（?? null）；MiniMind 的 eos_token_id 默认是 2",
      "eos-in-prompt-finishes":
        "prompt 里已经含有 EOS 的行被当成了已结束；只有 prompt 之后生成的 token 才能让一行结束（多轮对话的 prompt 每一轮都以 EOS 结尾）",
      "eos-null-as-default":
        "显式的 eosTokenId: null 变成了 2（opts.eosTokenId ?? 2）；null 表示永不提前停止，只有省略 eosTokenId 时才默认为 2",
      "feeds-everything-with-cache": "每一步都在传入缓存的同时喂入了整个序列：只应喂入 ids[:, past:]，即缓存里还没有的 token",
      "ignores-mask": "没有把注意力掩码传给模型，于是带填充的 prompt 会关注到自己的填充",
      "ignores-pick-token": "忽略了 opts.pickToken（总是贪心）；给出它时，要在最后的 logits 上调用它",
      "mask-not-extended": "每生成一个新 token，注意力掩码没有追加一个 1，于是它不再覆盖所有的键",
      "mask-null-check-only": "省略的 attentionMask（undefined）被当成了掩码使用；null 和 undefined 要同样检查",
      "never-stops-early": "循环总是跑满 maxNewTokens 步；所有行都生成过 EOS 后应当立即停止",
      "no-eos-fill": "已经生成过 EOS 的行还在继续生成；之后的每一步它都必须再得到 EOS",
      "recomputes-prefix": "从不使用缓存：每一步都重新计算整个前缀（token 相同，但工作量大得多）",
      "use-cache-default-false":
        "省略 useCache 时关掉了缓存（if (opts.useCache)），于是每一步都重新计算整个前缀；默认值是 true：prompt 只算一次，之后每步一个 token",
    },
    ropeFrequencies: {
      "attention-factor-only-when-scaling": "只在表超出原始上下文时才乘注意力因子；MiniMind 只要给出 rope_scaling 就会乘",
      "base-default-1e4": "省略 base 时默认成了 1e4；MiniMind 的 rope_theta 默认是 1e6",
      "exponent-without-two":
        "指数写成了 i/D 而不是 2i/D：f_i = 1 / base^(2i/D)，i = 0 … D/2 − 1（torch.arange(0, dim, 2) / dim）",
      "interleaved-table":
        "每个频率连续写了两次（[f0, f0, f1, f1, …]）；MiniMind 是把整张半表拼接两次（[f0, f1, …, f0, f1, …]），与 rotate_half 对应",
      "odd-dim-extra-frequency":
        "把 dim 以下的每个偶数下标都当成了一个频率（tf.range(0, dim, 2)）；MiniMind 只保留前 ⌊dim/2⌋ 个，所以 dim 为奇数时少一个",
      "ramp-flipped":
        "YaRN 斜坡方向反了：快速维度（斜坡为 0）被除以了 factor，慢速维度（斜坡为 1）反而保持原频率；正确的是 f·((1 − γ) + γ/factor)",
      "ramp-unguarded":
        "斜坡除以 high − low 时没有用 MiniMind 的 max(high − low, 0.001)：high = low 时（head_dim 很小）得到 0/0 = NaN",
      "scales-at-original-length": "end 等于 originalMaxPositionEmbeddings 时就缩放了频率；MiniMind 只在 end / original > 1 时缩放",
      "scaling-null-check-only": "省略的 ropeScaling（undefined）被当成已给出：null 和 undefined 要同样检查（不缩放）",
    },
  },
};

export default zh;
