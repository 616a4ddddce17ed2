/** Lesson 34's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-34",
  hints: {
    normalize: {
      nudge:
        "每个输出都是 (x − μ)/(σ + ε)，但 μ 和 σ 取决于统计池（整个 batch，或每 groupSize 个连续行组成的一组）、掩码，以及是否留一（leave-one-out）。" +
        "留一时每个元素都有自己的均值：那么离散程度应该围绕哪个均值来度量？",
      keyIdea:
        "用 dataSync 把 x 和掩码各读一次，在类型化数组上用 float64 计算（TensorFlow.js 没有 float64），返回与 x 同形状的 float32 张量。" +
        "如果给了掩码而它什么都不保留，原样返回 x（转成 float32），而不是 0。只把掩码内的元素放进池中：n = Σm。" +
        "均值：普通的带掩码均值，或者对保留的元素取留一均值 (Σ − x_i)/(n − 1)（除以 n − 1，而不是 n；被掩掉的元素仍用普通均值），n ≤ 1 时为 0。" +
        "标准差：每个元素与它自己的均值之差的平方，unbiased（默认）时除以 n − 1，否则除以 n；该除数 ≤ 0 时退回 1。" +
        "eps 加在标准差上，绝不放进根号里；stdLevel 为 \"none\" 时取 σ = 1，并且 eps 也一并去掉；meanLevel 为 \"none\" 表示 μ = 0。" +
        "groupSize 为 1 是特例：组内留一均值为 0，组内无偏标准差为 1。把中心化后的值乘以 m，这样被掩掉的元素输出为 0。" +
        "B 应当是 groupSize 的整数倍：最后一个完整组之后的行只除以 eps。",
      formula:
        "对每个池 P，记 n = Σ_P m：  μ_i = Σ_P m·x / n；留一时在 m_i > 0 处为 (Σ_P m·x − x_i·m_i) / max(n − m_i, 1)（m_i = 0 处用普通均值），n ≤ 1 时为 0;  " +
        "σ_i = √(Σ_P (m·x − m·μ)² / (n − 1))（unbiased 时；n ≤ 1 时为 1），否则为 √(Σ_P (m·x − m·μ)² / n)（n = 0 时为 1）;  " +
        "out_i = (x_i − μ_i)·m_i / (σ_i + ε)；级别为 \"none\"：μ = 0，或 σ = 1 且 ε = 0。" +
        "AReaL：areal/utils/data.py:1378-1595 @ 4aef98d8（默认值见 areal/api/cli_args.py:42-95）。",
    },
    rejectionSampling: {
      nudge:
        "每个 token 的重要性权重比较的是近端策略与采样它的行为策略。比值是谁比谁？" +
        "在序列级别，应该怎样汇聚各个比值，才不会仅仅因为回答长就惩罚它？",
      keyIdea:
        "δ = proximal − old（于是 w = e^δ = π_prox/π_behave）；只在计算 ratio 指标和权重时，把非有限的 δ 替换为 0（用 is-finite 判断加 where）。" +
        "指标：比值 e^δ，以及由原始 δ 计算的（行为对数概率为 −Inf 时得到 +Inf，会越界）k1 δ、k2 δ²/2、k3 e^(−δ) − 1 + δ（就是这个方向，不截断）。" +
        "省略的配置或省略的键取 REJECTION_DEFAULTS（token 级别、mask、ratio、mean、upper 5）。" +
        "用张量与边界比较（float32，和 PyTorch 一样），而不是在 dataSync 出来的 float64 值上比较。" +
        "token 级别：`mask` 保留满足 lower ≤ metric ≤ upper 的有效 token，`clamp` 把 w 裁剪到 [lower ?? 0, upper]。" +
        "序列级别把一行的有效 token 按 sum、mean（除以该行的有效计数，下限为 1，而不是 T）或 max（全部被掩掉的行记为 0）汇聚；" +
        "对 ratio 指标，汇聚的是 δ，再取指数（几何平均），每个 token 的权重都变成该行的几何平均；每行一个判定：`mask` 丢掉越界的整行，`clamp` 只在这些行里裁剪 w。" +
        "返回的掩码为 0 的地方权重都为 0；filteredFraction = 被丢掉（或权重被裁剪改变）的 token 数 / 有效 token 数，而不是 B·T。" +
        "lossMask 是 float32：为 where 构造 mask ≠ 0 的 bool，新掩码以 float32 返回，比例以普通数字返回（dataSync），全部放在同一个 tidy 作用域里。",
      formula:
        "δ = finite(prox − old) ? prox − old : 0;  w = e^δ;  metric = e^δ，或原始 prox − old 的 k1/k2/k3;  token：keep = valid ∧ lower ≤ metric ≤ upper;  " +
        "sequence, ratio：w_row = exp(agg_t δ)，例如 exp(Σδ / max(n, 1));  clamp：越界处 w = clip(w, lower ?? 0, upper);  behaveImpWeight = keep ? w : 0。" +
        "AReaL：areal/utils/functional/functional.py:185-426 @ 4aef98d8（二维分支见 347-400；KL 估计量见 areal/utils/data.py:1620-1656）。",
    },
    splitMicroBatches: {
      nudge:
        "AReaL 的分配器是首次适应递减（first-fit decreasing），但在还有空间的多个 micro-batch 中怎么挑，有一个特别之处。" +
        "它首先最小化的是什么：token 数，还是序列数？",
      keyIdea:
        "如果某个序列超出预算，或序列数少于 nMbs，就抛异常。按从长到短的顺序访问索引，长度相同时按索引顺序（在副本上做稳定的降序排序；绝不要原地排序 seqLens）。" +
        "当现有的 micro-batch 少于 nMbs 个，或者该序列放不进任何一个（Σ + len ≤ budget：相等也算放得下）时，新开一个 micro-batch。" +
        "否则，在放得下的那些中选序列数最少的；相同时选 token 总数较小的，再相同时选较早创建的（不是简单地选第一个放得下的，也不是选 token 最少的）。" +
        "最后把每个 micro-batch 内的索引排序，再把各个 micro-batch 按第一个索引排序。" +
        "（AReaL 用 numpy 默认的 argsort 排序，它只在不超过 16 个序列时才让相同长度保持索引顺序；超过之后，相同长度之间的顺序没有规定。）",
      formula:
        "order = 按 (−len, index) 排序的索引;  for i in order: if #groups < nMbs 或不存在满足 Σ_g + len_i ≤ C 的 g: 新建分组 [i]; " +
        "else 把 i 加入放得下的 g 中使 (size_g, Σ_g, creation_g) 最小的那个;  返回组内排好序、并按第一个索引排序的各组（C 默认为 1e12）。" +
        "AReaL：areal/utils/seqpack.py:195-255 和 areal/utils/data.py:448-472 @ 4aef98d8。",
    },
    globalTokenMean: {
      nudge:
        "一次优化器步应当在该步的所有有效 token 上平均逐 token 损失。每个 micro-batch 只交给你它自己的 token 均值。" +
        "它要乘上多大的系数，各部分加起来才等于那个平均？在各个 rank 上对梯度取平均，又会对它产生什么影响？",
      keyIdea:
        "记 N 为所有 rank 上所有 micro-batch 的有效 token 总数（AReaL 会对损失权重做 all-reduce）。含 n 个 token 的 micro-batch 在该步中占 n/N；" +
        "数据并行训练随后会在 R 个 rank 上对梯度取平均，所以 AReaL 乘以 R 来抵消：scale = n/N · R。" +
        "该步的损失是对 n > 0 的 micro-batch 求 Σ (sum/n) · scale / R = Σ sums / N。n = 0 的 micro-batch 贡献 0（它的 scale 为 0）。拒绝 N = 0。",
      formula:
        "N = Σ_r Σ_m n_rm;  scales[r][m] = n_rm / N · R;  loss = (1/R) Σ_{n_rm > 0} (s_rm / n_rm) · scales[r][m] = Σ s / N。" +
        "AReaL：areal/engine/core/train_engine.py:30-65 和 areal/engine/fsdp_engine.py:775-790, 1987-1989, 2045-2046 @ 4aef98d8。",
    },
  },
  mistakes: {
    globalTokenMean: {
      "empty-is-nan": "没有有效 token 的 micro-batch 什么都不贡献（AReaL 为它返回零损失），绝不是 0/0",
      "mean-of-means":
        "该步的损失是在 token 上的均值，而不是在 micro-batch 上：对各 micro-batch 的均值再取均值，会抬高短 micro-batch 中 token 的权重",
      "no-dp-multiplier": "数据并行训练会在 R 个 rank 上对梯度取平均，所以 AReaL 把每个 scale 乘以 dp_size 来抵消",
      "per-rank-total":
        "损失权重是经过 all-reduce 的：每个 micro-batch 的权重是它的 token 数除以所有 rank 的 token 总数，而不是它自己所在 rank 的",
    },
    normalize: {
      "all-masked-zeros": "掩码什么都不保留时，AReaL 原样返回 x，而不是 0",
      "always-biased": "即使 unbiased 为 true，你的标准差也除以了 n：应使用 n − 1（贝塞尔校正），这是 AReaL 的默认设置",
      "eps-inside-sqrt": "eps 加在标准差上，(x − mean)/(std + eps)，而不是加在根号里的方差上",
      "eps-without-std": "stdLevel 为 \"none\" 时除数恰好为 1：eps 也要一并去掉",
      "leave-one-out-over-n": "留一均值除以了 n；去掉 x_i 之后只剩 n − 1 个元素",
      "options-required":
        "读取 options 时没有默认值，于是不带 options 的 normalize(x) 抛了异常；省略 options 对象表示使用 NormConfig 的全部默认值（并且没有掩码）",
      "partial-group-pooled":
        "最后一个完整组之后的行被当成一个更小的组来汇聚了；与 AReaL 一样，它们不属于任何组（均值 0，标准差 0），所以只除以 eps",
      "stats-ignore-mask": "均值和标准差把被掩掉的元素也算进去了：只汇聚掩码为 1 的元素",
      "std-around-plain-mean": "留一时，标准差必须围绕每个元素自己的留一均值来计算，而不是普通均值",
      "variance-shortcut":
        "平方偏差被展开成 Σx² − 2μΣx + nμ²，三个和都保存在 float32 中，数值远离 0 时会发生灾难性抵消（1000 左右的奖励会丢掉彼此之间的差异）：应在 float64 中先减去均值，再平方",
    },
    rejectionSampling: {
      "arithmetic-sequence-mean": "在序列级别，比值应在对数空间中汇聚（几何平均 exp(mean δ)），而不是取各比值的算术平均",
      "bounds-in-float64":
        "边界检查是在 float64（dataSync 出来的值）上与十进制边界比较的，于是在 float32 中恰好等于边界的指标（0.1 存储为 0.100000001）落到了边界之外；应像张量运算、像 PyTorch 那样在 float32 中比较",
      "config-required":
        "读取 config 时没有默认值，于是不带 config 的 rejectionSampling(p, o, m) 抛了异常；省略 config 表示使用 RejectionSamplingConfig 的全部默认值",
      "default-upper-2": "upper 默认取了 2；AReaL 的默认上界是 5（REJECTION_DEFAULTS）",
      "flipped-ratio": "比值是 π_prox/π_behave：δ = proximal − old 对数概率，而不是 old − proximal",
      "fraction-over-all-tokens": "filteredFraction 要除以有效 token 的个数（mask = 1），而不是 B·T",
      "k3-reversed": "k3 是 e^(−δ) − 1 + δ，其中 δ = proximal − old；你算的是 e^δ − 1 − δ",
      "kl-on-sanitized-delta":
        "KL 指标是用清洗过的对数比（非有限值置为 0）计算的，于是行为对数概率为 −Inf 的 token 看起来 KL 为 0 而被保留了；AReaL 用原始对数比计算 KL 估计（+Inf，被拒绝），只对权重做清洗",
      "mean-over-padding": "序列均值要除以该行的有效 token 数（下限为 1），而不是填充后的宽度 T",
      "no-sanitize": "非有限的对数比（例如 −inf 的对数概率）在使用之前必须替换为 0",
      "per-token-weight": "在序列级别使用 ratio 指标时，每个 token 的权重都变成该行的几何平均比值",
      "weight-not-masked": "返回的损失掩码为 0 的地方，behaveImpWeight 必须为 0",
    },
    splitMicroBatches: {
      ascending: "这是首次适应“递减”（first-fit decreasing）：要先访问最长的序列",
      "budget-check-inclusive":
        "恰好 maxTokensPerMb 个 token 的序列被拒绝了；只有长于预算的序列才算错误（一个 micro-batch 可以恰好装满预算）",
      "fewest-tokens": "AReaL 把序列加入放得下的 micro-batch 中序列数最少的那个；token 总数只用来打破平局",
      "first-fit": "不是第一个放得下的 micro-batch：而是放得下的当中序列数最少的那个（其次是 token 最少的）",
      "ignores-min-count": "在凑满 nMbs 个 micro-batch 之前都要新开，即使该序列放得进已有的 micro-batch",
      "no-checks":
        "两种错误都没有抛出：序列长于 maxTokensPerMb，或序列数少于 nMbs 时，必须抛异常，而不是返回 micro-batch",
      "strict-budget": "一个 micro-batch 可以恰好装下 maxTokensPerMb 个 token：判断条件是 Σ + len ≤ budget",
      "ties-reversed": "长度相同的序列按索引顺序访问（稳定的降序排序）",
      unsorted: "返回时每个 micro-batch 内的索引要排好序，各个 micro-batch 也要按第一个索引排序",
    },
  },
};

export default zh;
