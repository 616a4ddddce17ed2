/** Lesson 29's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-29",
  hints: {
    decoupledPpoLoss: {
      nudge:
        "输入有三个对数概率，而过去 old 这一个要同时干两件事：校正 token 是由谁采样的，以及充当信任域的中心。" +
        "哪一对策略构成被裁剪的比值？哪一对构成（可选的）行为权重？",
      keyIdea:
        "如果给了 cClip 且它不大于 1，先抛出 Error。统计原始损失掩码的计数（把 bool 掩码转成 float32，下限取 1）：即使拒绝采样丢掉了一些 token，分母也还是它。" +
        "拒绝采样（只在配置了时进行）使用 w = π_prox/π_behave：`mask` 把掩码与 w ≤ upper 取与，`clamp` 把 w 截断在 upper；掩码之外 w 为 0。不做拒绝采样时根本没有这个权重（w = 1）。" +
        "比值是 r = π_θ/π_prox，而不是相对 π_behave，掩码之外为 0；" +
        "在序列级别，把 r 换成该行的 exp(mean log-ratio)（几何平均，不是算术平均），把 A 换成该行的平均优势，两者都只在拒绝采样之后的掩码 token 上计算。" +
        "裁剪到 [1 − ε, 1 + ε_high]（ε_high 默认等于 ε），保留两个取负项中较大的那个；clipMask 是严格的 −A·r < −A·clip(r)。" +
        "双裁剪（dual clip）把 token 损失截断在 c·|A|（取绝对值：它只在 A < 0 时起作用）。" +
        "掩码是 bool：用 where 和逻辑与来选择、组合它们，并把全部计算放在同一个 tidy 作用域里用张量运算完成，因为评分器要对损失关于 logprobs 求导。",
      formula:
        "n = max(count(lossMask), 1);  r = exp(logprobs − proximal)（掩码内），否则为 0;  L = max(−A·r, −A·clip(r, 1 − ε, 1 + ε_high));  clipMask = (−A·r < −A·clip(r)) ∧ mask;  " +
        "给定 c 时：dualClipMask = (c·|A| < L) ∧ mask, L = min(L, c·|A|);  " +
        "做拒绝采样时：L = L·w, w = exp(proximal − old)（`mask`：mask ∧ w ≤ upper；`clamp`：w = min(w, upper));  loss = Σ_mask L / n;  importanceWeight = r。  " +
        "序列级别：n_b = max(第 b 行在拒绝采样之后的掩码计数, 1), r_b = exp(Σ_mask (logprobs − proximal) / n_b), A_b = Σ_mask A / n_b，沿该行广播，掩码之外为 0。" +
        "AReaL：areal/utils/functional/functional.py:479-559 @ 4aef98d8（序列级别见 128-149，拒绝采样见 229-252 和 391-420）。",
    },
    distillLoss: {
      nudge:
        "两个分支，由 rlLossWeight 选择。纯 KD（权重为 0）时，教师减学生的对数概率是一个奖励：剩下哪个因子来携带梯度？" +
        "KDRL 时，加权后的 RL 损失上又加了什么？",
      keyIdea:
        "mask 转成 float，n = max(Σ mask, 1)，教师要 detach。" +
        "KD：reward = teacher − stopGradient(logprobs)；term = exp(logprobs − oldLogp)·reward·mask；loss = −distillLossWeight·Σ term / n；rklStat = −term。" +
        "KDRL：perToken = (logprobs − teacher)·mask；loss = rlLossWeight·rlLoss + distillLossWeight·Σ perToken / n；rklStat = perToken。" +
        "默认值：rlLossWeight 为 1，distillLossWeight 为 0.005。stopGradient 在 lib/autograd.ts 中。",
      formula:
        "KD：L = −w_d·Σ_mask e^{lp − old}·sg(lt − lp) / n;  KDRL：L = w_rl·L_RL + w_d·Σ_mask (lp − lt) / n。" +
        "AReaL：areal/trainer/ppo/actor.py:482-512 @ 4aef98d8。",
    },
  },
  mistakes: {
    decoupledPpoLoss: {
      "behave-weight-always": "没有做拒绝采样时也乘上了行为权重 π_prox/π_behave；AReaL 只在设置了 rejectionSampling 时才乘它",
      "behave-weight-inverted": "行为权重取成了 π_behave/π_prox；它应是 π_prox/π_behave = exp(proximalLogprobs − oldLogprobs)",
      "cclip-truthy":
        "双裁剪是用 `if (cClip)` 开启的，于是 cClip = 0 没有报错就混了过去；只要给了 cClip（包括 0）都必须检查，并且只接受大于 1 的值",
      "clip-mask-non-strict":
        "clipMask 用了 ≤，于是两个项相等（根本没有裁剪）的每个 token 都被算作被裁剪；应使用 −A·r < −A·clip(r)",
      "denominator-kept-tokens": "损失除以的是拒绝采样后剩下的 token 数；AReaL 除以的是原始损失掩码的计数",
      "dual-clip-signed": "双裁剪的界取成了 c·A；它应是 c·|A|，只对优势为负的 token 起作用",
      "min-instead-of-max": "对 −A·r 与 −A·clip(r) 取 min 得到的是乐观的界；PPO 保留较大（悲观）的那个损失",
      "ratio-against-behaviour":
        "比值是相对 π_behave（oldLogprobs）计算的；解耦 PPO 以近端策略为信任域的中心：r = exp(logprobs − proximalLogprobs)",
      "ratio-as-quotient":
        "比值按 exp(log π_θ) / exp(log π_prox)（以及 exp(log π_prox) / exp(log π_behave)）计算；对数概率低于约 −104 时两个指数都下溢为 0，比值是 0/0 = NaN：应改为对对数概率之差取指数",
      "rejection-strict-upper":
        "拒绝采样只保留了严格小于 `upper` 的权重，于是行为权重恰好等于上界的 token 被拒绝了；AReaL 保留 w ≤ upper",
      "sequence-arithmetic-mean": "在序列级别对 token 的比值取了算术平均；GSPO 用的是几何平均 exp(对数比的均值)",
      "sequence-token-advantages": "在序列级别每个 token 保留了自己的优势；GSPO 让每个 token 都使用所在行的平均优势",
      "symmetric-clip": "忽略了 epsClipHigher；裁剪上界是 1 + epsClipHigher（只有省略它时才默认等于 epsClip）",
      "weight-unmasked": "importanceWeight 在被掩掉的 token 上不为 0；AReaL 在损失掩码为 false 的位置把比值置零",
    },
    distillLoss: {
      "kd-keeps-rl-loss": "rl_loss_weight = 0 时，RL 损失是被替换掉，而不是相加：纯 KD 只有蒸馏项",
      "mean-over-padding": "两个项都是在有效 token 上的均值（除以 Σ mask，下限为 1），而不是在所有位置上",
      "no-importance-weight": "纯 KD 是一个策略梯度项：奖励要乘以 π_θ/π_old，携带梯度的正是这个权重",
      "penalty-sign-flipped": "反向 KL 惩罚是 log π_θ − log π_teacher：最小化它，会在学生比教师更自信的地方把学生往下拉",
      "reward-not-detached":
        "纯 KD 中，奖励 log π_teacher − log π_θ 是一个固定的逐 token 奖励：要 detach 它，让梯度只流经重要性权重",
      "weight-as-quotient":
        "重要性权重按 exp(log π_θ) / exp(log π_old) 计算；对数概率低于约 −104 时两个指数都下溢，权重是 0/0 = NaN：应改为对差值取指数",
      "zero-weight-defaulted":
        "默认值是用 `distillLossWeight || 0.005` 设置的，于是显式给出的权重 0 变成了 0.005；只有省略时才使用默认值（`??`）",
    },
  },
};

export default zh;
