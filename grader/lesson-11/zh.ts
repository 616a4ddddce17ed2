/** Lesson 11's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-11",
  hints: {
    repeatKv: {
      nudge: "有 Hkv = 2 个 kv 头 [a, b]、nRep = 2 时，四个查询头读到的应当是 [a, a, b, b] 还是 [a, b, a, b]？拷贝放在哪个维度上？",
      keyIdea:
        "紧挨着 kv 头那一维之后插入一个拷贝维，填上 nRep 份拷贝，再把这两维合并：[B, T, Hkv, D] → [B, T, Hkv, nRep, D] → [B, T, Hkv·nRep, D]。" +
        "TensorFlow.js 的 tile 在秩大于 4 时没有梯度，所以先把 B 和 T 折叠起来（[B·T, Hkv, 1, D]）。nRep = 1 时直接返回 x。",
      formula: "out[b, t, j, :] = x[b, t, ⌊j / nRep⌋, :]。MiniMind：model/model_minimind.py:86-89 @ d65ef2c。",
    },
    attention: {
      nudge:
        "从 x [B, S, H] 开始，写下每一步之后的形状：多头在哪里出现？P 个缓存的键在哪里接进来？T = P + S 时因果三角落在什么位置？",
      keyIdea:
        "linear → reshape 成多头 → 每个头做 rmsNorm（qNorm/kNorm）→ applyRope → 沿位置维拼接过去的键值（此时的 k、v 就是 presentKv）→ repeatKv → " +
        "把头转置到第 1 维 → 分数 q·kᵀ/√D → 在键 j > P + i 处加 −∞，并加上 (1 − mask)·(−1e9) → 在键上做 softmax → ·v → 转置回来并 reshape 成 [B, S, Hq·D] → 用 wo 做 linear。" +
        "QK-norm 在 RoPE 之前、在每个头的 D 维上做；缓存保存拼接之后、repeatKv 之前的 k 和 v。" +
        "省略的选项（undefined）与 null 或 false 含义相同：没有掩码、没有缓存、不返回 presentKv；eps 默认为 1e-6。每个键按它自己的 0/1 做掩码（掩码中间可能有空洞）。",
      formula:
        "out_i = Σ_j softmax_j(q_i·k_j/√D + m_ij) v_j with m_ij = −∞ for j > P + i and −1e9 for padded keys; query head h reads kv head ⌊h/nRep⌋。" +
        "逐步：q = x·Wqᵀ, k = x·Wkᵀ, v = x·Wvᵀ，拆成每头 D 维；q ← RMSNorm(q)·qNorm, k ← RMSNorm(k)·kNorm；对 q、k 做 RoPE；" +
        "k, v ← concat(past, new)；分数 [B, Hq, S, T]；softmax；·v；合并多头；·Woᵀ。" +
        "没有掩码和缓存时，MiniMind 的融合路径（scaled_dot_product_attention）算出同样的数；这里写的是它的显式路径。" +
        "MiniMind：model/model_minimind.py:111-134 @ d65ef2c。",
    },
  },
  mistakes: {
    attention: {
      "cache-after-repeat":
        "缓存保存的是 repeatKv 之后的键值（[B, T, Hq, D]）；MiniMind 保存的是之前的，只有 Hkv 个头，所以缓存保持很小",
      "cache-by-default": "省略了 useCache 却返回了 presentKv；只有 useCache 为 true 时才返回缓存",
      "causal-mask-first-columns":
        "因果三角覆盖的是前 S 列键；有缓存时它必须覆盖最后 S 列（新查询 i 能看到所有缓存的键，以及直到 i 为止的新键）",
      "eps-default-1e-5": "省略 opts.eps 时 QK-norm 的 ε 默认成了 1e-5；默认值是 1e-6",
      "ignores-padding": "忽略了注意力掩码，于是查询会关注到填充 token：要给分数加上 (1 − mask)·(−1e9)",
      "merge-without-transpose":
        "合并多头时直接把 [B, Hq, S, D] reshape 成了 [B, S, Hq·D]；要先把头那一维移回去（转置成 [B, S, Hq, D]）",
      "no-qk-norm": "跳过了 q_norm 和 k_norm：q 和 k 的每个头都必须在 RoPE 之前经过 RMSNorm（带增益）",
      "null-checks-only":
        "读取了省略的选项：pastKv 和 attentionMask 用 !== null 检查，于是不存在（undefined）的选项也被使用了；应当把 undefined 当作 null",
      "padding-from-left": "掩码被当作从左边数起的填充位置个数；掩码中间可能有空洞：每个键要按它自己的 0 或 1 做掩码",
      "padding-minus-infinity":
        "填充的键被设成了 −∞，而不是加上 −1e9：只能看到填充键的查询会得到 NaN；像 MiniMind 那样加上 (1 − mask)·(−1e9)",
      "rope-before-qk-norm": "RoPE 在 QK-norm 之前做了；MiniMind 先归一化 q 和 k，再旋转它们（一旦 norm 的增益不全为 1，顺序就有影响）",
      "scale-by-d": "分数除以了 head_dim，而不是 √head_dim",
      "tiled-kv-heads": "查询头 h 读的是 kv 头 h mod Hkv；使用 repeat_kv 时它应当读 kv 头 ⌊h / nRep⌋",
    },
    repeatKv: {
      "copies-positions": "拷贝是沿位置（第 1 维）做的，然后 reshape 成多头，这把不同位置混进了同一个头",
      "copy-axis-after-head-dim": "拷贝维插在了 head_dim 之后，而不是 kv 头那一维之后，于是每个新头交错地混入了同一个旧头的数",
      "tiled-heads": "kv 头被平铺了（查询头 h 读 kv 头 h mod Hkv），而不是每个头连续重复 nRep 次（h 读 ⌊h / nRep⌋）",
    },
  },
};

export default zh;
