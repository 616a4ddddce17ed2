/** Lesson 17's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-17",
  hints: {
    loadStateDict: {
      nudge:
        "两个字典相遇：模型的参数和检查点里的张量。哪些名字两边都有，哪些只在模型里，哪些只在检查点里？两边都有但形状不同的名字，PyTorch 怎么处理？",
      keyIdea:
        "missing = 检查点里没有的模型参数名（按模型的顺序）；unexpected = 模型里没有的检查点名（按检查点的顺序）。" +
        "首先，任何共有但形状不同的名字都是错误，并且要指出它的名字，无论是否 strict。然后，如果 strict 且两个列表有一个非空，抛出错误并列出它们。" +
        "否则，每个模型参数在检查点有对应张量时取检查点的张量，没有时保留自己的值。名字要精确匹配：不去掉任何前缀。",
      formula:
        "for n in model: if n in sd and shape(sd[n]) ≠ shape(model[n]): throw 'size mismatch for n'. if strict and (missing or unexpected): throw. " +
        "weights[n] = n in sd ? cast(sd[n], float32) : clone(model[n])。" +
        "MiniMind：init_model，trainer/trainer_utils.py:119-127 @ d65ef2c（load_state_dict(weights, strict=False)）。",
    },
  },
  mistakes: {
    loadStateDict: {
      "aliases-inputs":
        "结果里放的是输入张量本身：应当返回新张量（tf.clone、tf.cast），这样释放检查点或旧模型时不会连带释放新的权重",
      "checkpoint-order": "`weights` 沿用了检查点的顺序：无论检查点按什么顺序写入，都要按模型的顺序列出模型的参数",
      "mismatch-skipped": "形状不同的参数被跳过了；即使 strict 为 false，PyTorch 也会为它抛出 size mismatch 错误，并指出这个张量",
      "missing-zeroed": "缺失的参数被置成了零；它应当保留新建模型给它的值",
      "no-cast": "加载的张量保留了检查点的 dtype（MiniMind 存的是 float16）：要把它们转换成模型的 dtype float32",
      "state-dict-entries":
        "`weights` 是从检查点构建的，于是它包含检查点里多余的条目（`module.…` 这样的名字），并沿用了检查点的顺序：应当恰好返回模型的参数，按模型的顺序",
      "strict-before-shapes":
        "strict 的键检查在形状检查之前执行，于是两个问题都有的检查点只报告了缺失的键：无论是否 strict，都先检查形状",
      "strict-ignored": "忽略了 strict；strict = true 时，任何缺失或多余的键都是错误，并且要列出它们",
      "strict-names-missing-only": "strict 的错误只列出了缺失的键：也要像 load_state_dict 那样列出多余的键",
      "strip-module-prefix":
        "去掉了检查点名字里的 \"module.\"；load_state_dict 精确匹配名字，这正是 MiniMind 一开始就保存未包装模型（raw_model）的原因",
      "swapped-lists": "missing 和 unexpected 弄反了：missing = 检查点缺少的模型参数名，unexpected = 模型没有的检查点名",
    },
  },
};

export default zh;
