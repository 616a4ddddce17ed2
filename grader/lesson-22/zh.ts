/** Lesson 22's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-22",
  hints: {
    tokenLogProbs: {
      nudge: "模型在每个位置给出整个词表上的分数（logits），标签告诉你那里实际是哪个 token。什么能把分数变成对数概率？在哪一维上？",
      keyIdea:
        "在词表（最后一维）上做 log-softmax 归一化，然后只保留每个标签对应的那一项。" +
        "取值的方法是乘上标签的独热掩码、再在词表维上求和：按索引 gather 得到的数相同，但 TensorFlow.js 里 gatherND 没有梯度，而 DPO 要通过这些值训练。",
      formula:
        "logp[b, t] = log_softmax(logits[b, t, :])[labels[b, t]] = logits[b, t, y] − log Σ_v exp(logits[b, t, v])，" +
        "取值方式为 Σ_v logSoftmax(logits)[b, t, v] · oneHot(labels, V)[b, t, v]。" +
        "步骤：在最后一维上做 log-softmax；标签在 V 上的 float32 独热编码；两者相乘并在词表维上求和；全部在一个 tidy 作用域里。" +
        "MiniMind：logits_to_log_probs，trainer/train_dpo.py:25-31 @ d65ef2c。",
    },
    dpoLoss: {
      nudge:
        "一个回复的对数概率由它各 token 的对数概率构成，并且只有回复里的 token 计入。批次里有两类行：哪些行是 chosen 回答？每一行对应的 rejected 伙伴又是哪一行？",
      keyIdea:
        "对每一行，求对数概率的掩码加和（是 SUM，不是均值），策略模型和参考模型各算一次。第 0 … B/2 − 1 行是 chosen，第 B/2 … B − 1 行是 rejected，第 i 对 = 第 i 行和第 i + B/2 行。" +
        "margin 衡量的是：相比参考模型，策略模型在多大程度上更偏好 chosen 而非 rejected。" +
        "把 −log σ(x) 写成 softplus(−x) = log(1 + e^(−x))：x 很负时 −log(sigmoid(x)) 会溢出，而 TensorFlow.js 的 logSigmoid 的梯度在 tidy 作用域里会出错。" +
        "每一步都用张量运算（不用 dataSync），否则梯度到不了策略模型。",
      formula:
        "s_b = Σ_t logp[b, t]·mask[b, t]（逐行，是 SUM）；  z_i = (s^π_i − s^π_{i+B/2}) − (s^ref_i − s^ref_{i+B/2})；  " +
        "loss = mean_i −log σ(β·z_i) = mean_i softplus(−β·z_i)。MiniMind：dpo_loss，trainer/train_dpo.py:34-50 @ d65ef2c。",
    },
  },
  mistakes: {
    dpoLoss: {
      "interleaved-pairs": "把相邻的两行（2i, 2i + 1）当成了一对；MiniMind 按 [chosen; rejected] 堆叠，所以第 i 对是第 i 行和第 i + B/2 行",
      "mask-as-length":
        "把掩码当成了回复长度（对前 Σmask 个位置求和）；DPODataset 的掩码在 prompt 和填充上为 0、在回答上为 1：要乘以它",
      "mask-as-span":
        "从第一个到最后一个被掩码打开的 token 之间的每个位置都求和了，于是两个 assistant 轮次之间的 user 轮次（掩码里的空洞）也计入了：要乘以掩码本身",
      "mean-per-sequence": "每个序列在它的 token 上取了平均；MiniMind 对一个序列的掩码对数概率求和（即序列的对数概率）",
      "naive-log-sigmoid": "sigmoid(x) 下溢为 0 后，−log(sigmoid(x)) 就变成 Infinity；应当把 −log σ(x) 算成 softplus(−x)",
      "no-mask": "prompt 和填充 token 也被求和了：在逐序列求和之前，要把对数概率乘以掩码",
      "no-reference": "缺少参考模型的对数比：z = (π_c − π_r) − (ref_c − ref_r)，而不只是 π_c − π_r",
      "ratio-of-exps":
        "比值先算成 exp(Σ logp) / exp(Σ logp) 再取对数：一个回复的对数概率远低于 −100，exp 下溢为 0，比值成了 0/0；应当直接把对数概率相减",
      "rejected-no-grad":
        "rejected 回复不带梯度（像冻结的参考模型那样计分）：DPO 既要把 chosen 的对数概率往上推，也要把 rejected 的往下压",
      "relu-log1p":
        "把 −log σ(x) 写成 relu(−x) + log1p(exp(−|x|))，值是对的，但在 x = 0 处（策略等于参考：DPO 的第一步），relu 和 |x| 的折点给出相反的梯度：请用 tf.softplus(−x)",
      "sums-in-js":
        "逐序列的和经过了普通数字（dataSync）：值是对的，但损失与策略模型断开了，梯度传不过去；每一步都要用张量运算",
      "swapped-halves": "chosen 和 rejected 弄反了：批次的前一半是 chosen，后一半是 rejected",
      "tf-log-sigmoid":
        "tf.logSigmoid 的梯度会在 tf.tidy 释放其输入之后读取它，于是反向传播崩溃；把 −log σ(x) 写成 tf.softplus(−x)",
    },
    tokenLogProbs: {
      "gather-nd": "值是对的，但 TensorFlow.js 里 tf.gatherND 没有梯度：用独热掩码加上在词表维上求和来取出标签对应的项",
      "log-of-softmax":
        "概率一旦下溢为 0（logit 的差距超过约 100），log(softmax(z)) 就得到 −Infinity：请用先减去最大值的 tf.logSoftmax",
      "raw-logits": "标签处的原始 logit 不是对数概率：要先减去词表上的 log Σ exp(logits)（log_softmax）",
      "sequence-axis": "log-softmax 做在了序列维上；应当在词表维，也就是最后一维（dim=2）上归一化",
      "softmax-probs": "这些是概率，不是对数概率：在词表维上做 log_softmax，而不是 softmax",
    },
  },
};

export default zh;
