/** Lesson 18's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const FRESH_ADAPTER =
  "把新建的适配器（B 全为零）当作捷径跳过了：数值相同，但这样一来什么都到不了 A 或 B，LoRA 训练永远离不开第 0 步";

const zh: LessonZh = {
  lesson: "lesson-18",
  hints: {
    loraLinear: {
      nudge:
        "冻结的层照旧运行。适配器是它旁边的第二条窄路：先压到 r 个数，再升回 `out` 维。两条路怎样合并？α / r 缩放的是哪一条？",
      keyIdea:
        "先算冻结层的输出 x·Wᵀ，再算适配器的输出 (x·Aᵀ)·Bᵀ（A 把 `in` 压到 r，B 把 r 扩展到 `out`），只把适配器的输出乘以 α / r，再相加。" +
        "r 是 A 的行数。lib/model/linear.ts 的 `linear(x, W)` 对任意秩 ≥ 2 的张量在最后一维上计算 x·Wᵀ。全部用张量运算，梯度才能到达 A 和 B。",
      formula:
        "y = x·Wᵀ + (α / r)·(x·Aᵀ)·Bᵀ,  r = A.shape[0]。" +
        "步骤：x 经 W 的基础投影；x 经 A 投影，结果再经 B 投影；第二项乘以 α / r 后与第一项相加，都在一个 tidy 作用域里。" +
        "MiniMind：LoRA.forward 和 forward_with_lora，model/model_lora.py:17-18, 29-30 @ d65ef2c（那里 α = r：不缩放）。",
    },
    mergeLora: {
      nudge: "(x·Aᵀ)·Bᵀ = x·(B·A)ᵀ：适配器本身就是一个线性层。它的权重是什么？要加到 W 上，它必须是什么形状？",
      keyIdea:
        "适配器的权重是 B·A：[out, r]·[r, in] = [out, in]，和 W 形状相同。把它乘以 α / r（与前向计算的缩放相同），加到 W 上。" +
        "只用张量运算：课程的 LoRA 模型每一步都用这个函数构建有效权重，所以 A 和 B 必须能通过它得到梯度。",
      formula:
        "W' = W + (α / r)·B·A。步骤：矩阵乘积 B·A（形状 [out, in]，与 W 相同），乘以 α / r，加到 W 上。" +
        "MiniMind：merge_lora，model/model_lora.py:56-65 @ d65ef2c。",
    },
  },
  mistakes: {
    loraLinear: {
      "alpha-only": "适配器只乘了 α；还要除以秩 r（r = A 的行数）",
      detached: "适配器的输出经过了普通数字（dataSync）：值是对的，但梯度到不了 A 或 B，LoRA 永远训练不起来",
      "inverted-scale": "缩放写成了 r / α；应当是 α / r：α 越大，适配器的分量越重",
      "no-scale": "适配器的输出没有缩放就加了上去；它要乘以 α / r（MiniMind 的缩放为 1，是 α = r 的情形）",
      "scale-whole-output": "冻结层的输出也被缩放了；只有适配器的输出乘以 α / r",
      "skips-fresh-adapter": FRESH_ADAPTER,
    },
    mergeLora: {
      detached:
        "B·A 经过了普通数字（dataSync）：合并后的权重是对的，但课程的 LoRA 模型要通过它训练，梯度到不了 A 或 B",
      "inverted-scale": "更新量乘了 r / α；应当是 α / r",
      "no-scale": "更新量 B·A 没有缩放就加了上去；合并时要用适配器前向计算所用的同一个 α / r",
      "skips-fresh-adapter": FRESH_ADAPTER,
      subtract: "更新量被减掉了；适配器的输出是加到层的输出上的，所以它的权重也要加到 W 上",
      "transposed-delta": "ΔW 被构造成了 Aᵀ·Bᵀ（[in, out]）；形状为 [out, in] 的权重，其更新量是 B·A",
    },
  },
};

export default zh;
