/** Lesson 25's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-25",
  hints: {
    perTokenLogps: {
      nudge:
        "模型可能只返回了最后 nKeep + 1 个位置的 logits，而某个位置的 logits 是给它后面那个 token 打分的。" +
        "哪 nKeep 个 logit 位置给最后 nKeep 个 token 打分？多出来的是哪个位置？",
      keyIdea:
        "两个张量各自从末尾数起：取最后一个位置之前的 nKeep 个 logit 位置（从 L − nKeep − 1 开始，L 是 logits 自己的长度，而不是 token 数 T），" +
        "以及最后 nKeep 个 token id（从 T − nKeep 开始）；最后一个位置的 logits 预测的是一个还不存在的 token，直接丢弃。" +
        "在词表维度上一步完成 log-softmax（log-softmax 会先减去最大值，所以很大的 logits 也保持有限；而先 softmax 再取 log，一旦某个概率下溢就得到 −Inf，logits 差距超过约 104 时就会发生），" +
        "再取出每个目标 token 对应的那一项。用 one-hot 相乘再沿最后一维求和来取值：TensorFlow.js 中 gatherND 没有梯度，而当前策略的对数概率必须带梯度。" +
        "nKeep ≤ 0 时返回空的 [B, 0] 张量（Python 的 ids[:, -0:] 会取到整行）。" +
        "温度 T 表示采样器是从 softmax(logits / T) 中采样的：在 log-softmax 之前把 logits 除以 T（而不是事后去除对数概率）。",
      formula:
        "out[b, j] = log_softmax(logits[b, L − nKeep − 1 + j] / temperature)[ids[b, T − nKeep + j]], j = 0 … nKeep − 1。" +
        "步骤：对两个张量切片；在词表维度上做 log-softmax；把 int32 目标做成长度为 V 的 one-hot，相乘后沿最后一维求和；全部放在同一个 tidy 作用域里。" +
        "MiniMind：trainer/rollout_engine.py:24-36 @ d65ef2c；温度部分见 AReaL areal/utils/functional/vocab_parallel.py:15-20 @ 4aef98d8。",
    },
    ppoResponseMask: {
      nudge:
        "回复在哪里结束：在它的 EOS 处，还是在填充处？EOS token 本身算不算策略做出的决定？落在填充位置上的 EOS id 能结束任何东西吗？",
      keyIdea:
        "逐行只看真实位置（填充掩码为 1），而且要看全部 R 个位置（填充掩码有空洞时，真实的 EOS 可能出现在 Σ pad 之后）：" +
        "长度等于其中第一个 EOS 的索引加 1；若没有这样的 EOS，则等于真实位置的个数；长度下限取 1。" +
        "然后当 j < length 且填充掩码为 1 时保留位置 j，这样全是填充的行仍然什么都不保留，填充掩码里的空洞也保持为 0。" +
        "陷阱：取第一个 EOS，而不是最后一个；EOS 要包含在内；数的是真实位置的个数，而不是 R。" +
        "这里不涉及梯度，所以用 dataSync() 读出张量再循环完全没问题。返回 float32 的 0/1（评分器会检查 dtype），不要返回 int32 或 bool。",
      formula:
        "len_b = max(1, 若第 b 行在真实位置上有 EOS（e_b 为第一个）则 e_b + 1，否则 Σ_j pad[b, j]);  mask[b, j] = 1[j < len_b]·pad[b, j]，float32。" +
        "MiniMind：trainer/train_ppo.py:122-126 @ d65ef2c。",
    },
    repetitionPenalty: {
      nudge:
        "MiniMind 对转成小写的文本用 Python 正则 \\w+|[^\\w\\s] 分词。JavaScript 的 \\w 和 \\s 在哪些地方与 Python 的不一致？",
      keyIdea:
        "先用 toLowerCase 把整段文本转成小写（对应 Python 的 lower()；不要转大写，也不要逐个 token 转换：'İ' 转小写会变成两个码位，'ß' 转大写会变成 'SS'）。" +
        "token 是一串连续的单词字符，或者既不是单词字符也不是空白的单个字符：每个标点都单独成为一个 token，所以不要按空格切分。" +
        "Python 的 \\w 支持 Unicode：写成带 u 标志的 [\\p{L}\\p{N}_]（一串连续的汉字算一个 token）。Python 的空白字符见 python-text.ts 中的 PY_WHITESPACE（NEL 和 \\x1c-\\x1f 算空白，BOM 算一个 token）。" +
        "构造 G = tokens − n + 1 个 n-gram，统计其中互不相同的个数 U（把一个 gram 的各个 token 拼接起来时，要保证不同的 gram 不会拼出同一个键），乘以 cap·2，再截断到 cap。G ≤ 0 时为 0。",
      formula:
        "rep = min(cap, (G − U)·cap·2 / G)，G ≤ 0 时为 0；默认 n = 3，cap = 0.5。MiniMind：trainer/train_ppo.py:29-32 @ d65ef2c。",
    },
    ruleReward: {
      nudge:
        "三条规则，每条加或减一个固定步长，再减去一个惩罚项。每条规则度量的是哪段文本：整个回复、第一个 </think> 之前的部分，还是它之后的答案？" +
        "Python 又是怎么计算长度的？",
      keyIdea:
        "长度奖励作用于 strip 之后的整个回复；如果有 </think>，就在第一个 </think> 处切开：思考部分（它之前的全部内容，包括 <think> 标签）有自己的长度规则，" +
        "</think> 标签的个数有自己的 ±0.25，答案是它之后的内容，再做 strip。没有这个标签时，答案就是整个回复。只减去答案部分的 repetitionPenalty。" +
        "忠实地移植 Python：strip() 用 Python 的空白字符（PY_WHITESPACE，不是 trim()：NEL 会被去掉，BOM 会保留），" +
        "len() 按码位计数（[...s].length，而不是 .length），长度区间两端都是闭的。MiniMind 在 float32 张量里累加这个和；JavaScript 数字与它在 float32 舍入误差内一致。",
      formula:
        "r = (20 ≤ len(s.strip()) ≤ 800 ? +0.5 : −0.5) + [若 '</think>' in s：(20 ≤ len(think.strip()) ≤ 300 ? +1.0 : −0.5) + (恰好一个 '</think>' ? +0.25 : −0.25)] − rep(answer)。" +
        "MiniMind：trainer/train_ppo.py:51-75 @ d65ef2c（规则在第 60-67 行；第 69-73 行的奖励模型不在本函数中）。",
    },
    approxKl: {
      nudge:
        "这个数决定是否提前停止，所以正的和负的对数比不能相互抵消。对数比 x 的哪个偶函数是 KL 的二阶估计？",
      keyIdea:
        "把给你的对数比平方（它已经是 log ρ：不要再取指数），再乘以 ½，因为阈值 0.25 是按带 ½ 的形式定的。" +
        "只在保留的 token 上平均：除以掩码之和，下限取 1，这样填充不会把它稀释，全部被掩掉的 batch 得到 0 而不是 NaN。" +
        "在同一个 tidy 作用域里用张量运算；返回一个标量。",
      formula:
        "approxKl = Σ(½·x²·m) / max(Σm, 1), x = log π_new − log π_old。" +
        "MiniMind：trainer/train_ppo.py:194-202 @ d65ef2c（一旦超过 early_stop_kl = 0.25 就提前停止）。",
    },
    clipFraction: {
      nudge:
        "一个 token 的比值离开窗口 [1 − ε, 1 + ε]，它就被裁剪了。算哪一侧，还是两侧都算？比值恰好落在边界上算不算？",
      keyIdea:
        "在比值本身（而不是 log ρ）上度量距离 |ρ − 1|，与 ε 做严格比较，这样两侧都计入，而距离恰好等于 ε 的不计入；" +
        "把布尔值转成 float32，在保留的 token 上取带掩码的均值，分母下限取 1。" +
        "比较的是距离，而不是拿 ρ 与 1 ± ε 比：float32 对 1 + ε 和 ρ − 1 的舍入不同（1.2 存储为 1.20000005，所以它与 1 的距离超过 0.2，而 ρ > 1.2 却为假）。",
      formula:
        "clipfrac = Σ(1[|ρ − 1| > ε]·m) / max(Σm, 1)。" +
        "步骤：求与 1 的绝对距离，与 ε 做严格大于比较（不是大于等于），转成 float32，再取带掩码的均值。" +
        "MiniMind：trainer/train_ppo.py:204-206 @ d65ef2c。",
    },
  },
  mistakes: {
    approxKl: {
      "mean-over-padding": "应除以保留的 token 数（掩码之和），而不是所有位置数：填充会稀释 KL",
      "no-half": "近似 KL 是 ½·(log ρ)²：½ 是二阶估计的一部分",
      "no-square": "要对对数比取平方：它的朴素均值（k1）可能为负或相互抵消，提前停止就永远不会触发",
      "ratio-not-log": "输入已经是 log ρ：对它取平方，而不是对 ρ − 1 = exp(log ρ) − 1 取平方",
      "unclamped-denominator": "掩码之和的下限要取 1：一个 token 都没保留的 minibatch 必须得到 0，而不是 NaN",
    },
    clipFraction: {
      "at-boundary": "比值恰好等于 1 ± ε 不算被裁剪：统计 |ρ − 1| > ε，严格大于",
      "log-space": "窗口作用在 ρ 本身上，|ρ − 1| > ε，而不是 log ρ 上",
      "mean-over-padding": "应除以保留的 token 数（掩码之和），而不是所有位置数",
      "upper-only": "窗口两侧都要计入：|ρ − 1| > ε 也包括低于 1 − ε 的比值",
      "window-bounds":
        "窗口按 ρ > 1 + ε 或 ρ < 1 − ε 来判断：精确算术下二者等价，但在 float32 中比值 1.2 是 1.20000005，它的距离 |ρ − 1| 超过了 ε = 0.2；应像 MiniMind 那样，用 float32 的距离 |ρ − 1| 与 ε 比较",
    },
    perTokenLogps: {
      "assumes-full-logits":
        "logits 可能只覆盖最后 nKeep + 1 个位置（logits_to_keep）：应按它们自己的长度 L 来切片，而不是按 token 数 T",
      "gather-nd": "TensorFlow.js 中 tf.gatherND 没有梯度，策略就无法通过这些对数概率学习：请用 one-hot 相乘再求和来取值",
      "log-of-softmax":
        "log(softmax(z)) 分成了两步计算：低于约 e^−104 的概率在 float32 中下溢为 0，取 log 得到 −Inf；请用 tf.logSoftmax",
      "naive-log-sum-exp":
        "log-sum-exp 没有减去该行的最大值：logit 超过约 88 时 exp 会在 float32 中溢出为 Inf；请用 tf.logSoftmax（或先减去最大值）",
      "no-shift":
        "位置 p 的 logits 给位置 p + 1 的 token 打分：应取最后一个位置之前的 nKeep 个位置（logits[:, -(nKeep+1):-1]），而不是最后 nKeep 个",
      "raw-logits": "logit 不是对数概率：取出 token 对应的项之前，要先在词表维度上做 log-softmax",
      "temperature-after-log-softmax": "把对数概率除以 T 并不是加温后分布的对数概率：应先缩放 logits，再归一化",
      "temperature-ignored":
        "采样器是从 softmax(logits / T) 中采样的：必须在同一个加温后的分布下给 token 打分，否则与推理引擎对数概率之间的每个比值都会偏",
      "temperature-multiplied": "温度是用来除 logits 的（T > 1 让分布更平，T < 1 让分布更尖）；乘上去效果正好相反",
      "unshifted-targets":
        "要打分的 token 是最后 nKeep 个 id（input_ids[:, -nKeep:]），比 logit 位置晚一步，而不是这些位置上的 id",
    },
    ppoResponseMask: {
      "eos-excluded": "回复长度是第一个 EOS 的索引 + 1：EOS token 要留在掩码里，策略才能学会停下",
      "eos-in-padding": "只在真实位置（填充掩码 = 1）中查找 EOS：填充区里的 EOS id 不会结束回复",
      "eos-within-real-count":
        "只在前 Σ padMask 个位置里找 EOS，就好像真实位置是一段前缀：当填充掩码中间有空洞时，后面真实的 EOS 会被漏掉",
      int32: "掩码要与 float32 的损失相乘：请以 float32 的 0/1 返回，而不是 int32 或 bool",
      "last-eos": "回复在第一个 EOS 处结束，而不是最后一个：第一个 EOS 之后的内容本来就不该说出来",
      "no-eos-full-window": "没有 EOS 时，长度是真实（非填充）位置的个数，而不是窗口长度 R",
      "no-pad-mask": "掩码是 (j < length) AND 填充掩码：全是填充的行经过下限截断后长度为 1，但仍然不能保留任何位置",
    },
    repetitionPenalty: {
      "ascii-word":
        "JavaScript 的 \\w 只匹配 ASCII：Python 的 \\w 支持 Unicode，所以要用带 u 标志的 [\\p{L}\\p{N}_]（一串连续的汉字算一个 token）",
      "case-sensitive": "分词之前要先转小写：对 MiniMind 来说，'The' 和 'the' 是同一个词",
      "js-whitespace": "JavaScript 的 \\s 与 Python 的不同：Python 把 \\x1c-\\x1f 和 NEL 当作空白，把 BOM（U+FEFF）当作普通字符",
      "lower-after-tokenising":
        "分词之后才逐个 token 转小写；MiniMind 先把整段文本转小写，而转小写可能改变分词结果（İ 会变成 i 加一个组合点，而组合点不是单词字符）",
      "no-cap": "惩罚有上限：min(cap, (G − U)·cap·2/G)",
      "no-factor-two": "重复 n-gram 的比例要乘以 cap·2，所以一半重复时就已达到上限",
      "upper-case":
        "为了忽略大小写把文本转成了大写；MiniMind 转的是小写（text.lower()），两者结果不同：'ß' 转大写是 'SS'，于是 'straße' 和 'strasse' 变成了同一个词",
      "whitespace-split": "应使用正则 \\w+|[^\\w\\s] 分词，而不是按空格切分：每个标点都单独成为一个 token",
    },
    ruleReward: {
      "js-trim": "JavaScript 的 trim() 不等于 Python 的 strip()：Python 会去掉 NEL（U+0085）和 \\x1c-\\x1f，但保留 BOM（U+FEFF）",
      "last-think-tag": "应在第一个 </think> 处切分（Python 的 split('</think>', 1)），而不是最后一个",
      "no-strip": "长度规则度量的是 strip 之后的文本：len(response.strip())、len(thinking.strip())",
      "penalty-on-whole-response": "有思考块时，重复惩罚作用于第一个 </think> 之后的答案，而不是思考部分",
      "strict-bounds": "长度区间包含两端：20 <= len <= 800 和 20 <= len <= 300",
      "think-tag-excluded":
        "思考部分的长度漏掉了 <think> 标签：MiniMind 度量的是第一个 </think> 之前的全部内容（split('</think>', 1)[0]，再 strip），包括开标签的 7 个字符",
      "utf16-length": "Python 的 len() 按码位计数；JavaScript 的 .length 按 UTF-16 码元计数（一个 emoji 算 2）：请用 [...s].length 计数",
    },
  },
};

export default zh;
