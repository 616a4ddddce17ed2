/** Lesson 31's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-31",
  hints: {
    m2poMask: {
      nudge:
        "M2PO 约束的是整个 batch 上 m2 = (old − prox)² 的均值，而不是每个 token 的 m2。" +
        "如果允许你一次移除一个 token，直到剩下的均值低于 τ，为了移除尽可能少的 token，应该先移除哪一个？",
      keyIdea:
        "收集 lossMask 为 true 的位置（填充不参与），在这些位置上计算 m2，再把这些位置按 m2 从大到小排序" +
        "（对索引排序而不是对值排序，这样才能把结果放回原位；m2 相等时按位置先后）。" +
        "从末尾开始计算后缀均值：排序后从第 i 个起的值的均值，就是移除最大的 i 个之后剩下的均值。" +
        "k 是第一个后缀均值严格小于 τ 的 i；若不存在，则 k = n − 1，这样 m2 最小的 token 总能保留下来。" +
        "恰好掩掉 k 个 token（索引就是个数：不是 k + 1），保留其余有效 token，在 lossMask 之外一律返回 false。没有有效 token 时：返回全 false 的掩码，不报错。" +
        "这个掩码只是记账，不是可微运算：用 dataSync() 和类型化数组完全可以（JavaScript 的 sort 需要传入数值比较函数），结果必须是 bool 张量，而不是 float32。",
      formula:
        "m2 = (oldLogp − proxLogp)²，在 n 个有效 token 上计算;  s_0 ≥ … ≥ s_{n−1};  k = min{ i : Σ_{j≥i} s_j / (n − i) < τ }，若不存在则为 n − 1;  " +
        "result = 把 lossMask 中最大的 k 个置为 false（dtype 为 bool）。" +
        "AReaL：areal/trainer/ppo/actor.py:790-850 @ 4aef98d8（k 的搜索在 821-845 行）。",
    },
  },
  mistakes: {
    m2poMask: {
      "fallback-masks-all": "没有任何后缀均值低于 τ 时把所有 token 都掩掉了；AReaL 掩掉 n − 1 个，保留 m2 最小的那个 token",
      "float-mask": "掩码以 float32 的 0/1 返回了；应像损失掩码一样返回 bool 张量",
      "mask-as-lengths":
        "把损失掩码当成了每行的长度（每行前 Σ mask 个位置）；损失掩码中间可能有空洞，例如多轮回复里的工具输出：应逐个位置使用掩码",
      "non-strict": "接受了等于 τ 的后缀均值；AReaL 在第一个均值严格小于 τ 的后缀处停下",
      "off-by-one": "多掩掉了一个 token：k 即第一个低于 τ 的后缀的索引，它就是要掩掉的 token 个数",
      "padding-counted": "填充 token 参与了排序和均值计算；只有 lossMask 为 true 的 token 才计入",
      "padding-kept": "填充 token 返回成了 true；在 lossMask 为 false 的地方，结果必须为 false",
      "per-token-threshold":
        "每个 token 单独与 τ 比较了；M2PO 只掩掉最大的那些 token，直到剩下的均值低于 τ 为止，所以高于 τ 的 token 也可能保留",
      "smallest-first": "掩掉的是最小的二阶矩；应按降序排序，掩掉最大的",
      "ties-later-first":
        "m2 相等的 token 中先掩掉了位置靠后的（按升序排序后从末尾取）；顺序应是 m2 大的优先，相等时位置靠前的优先",
    },
  },
};

export default zh;
