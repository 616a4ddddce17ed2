/** Lesson 5's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-5",
  hints: {
    sftLabels: {
      nudge: "模型应该被训练去生成哪些 token：用户的问题，还是助手的回复？它又该不该学会停下来？",
      keyIdea:
        "i 从 0 开始往后走。在 i 处匹配到起始标记序列时，回复片段从它之后开始；继续往后走到下一个结束标记。" +
        "从片段开头一直到结束标记的最后一个 id 都打上标签，但位置 ≥ maxLength 的绝不打。跳过结束标记继续扫描；找不到结束标记时，片段一直延伸到最后一个 id，扫描结束。",
      formula:
        "labels = [-100]*n; for j in [start, min(end + |eos|, maxLength)): labels[j] = ids[j]。MiniMind：dataset/lm_dataset.py:88-104 @ d65ef2c。",
    },
    preProcessingChat: {
      nudge: "有两种情况，在抽取任何随机数之前就原样返回对话。是哪两种？",
      keyIdea:
        "任何地方带有 tools，或者第一条消息已经是 system 消息：原样返回。否则先抽一次随机数；小于比例时，再抽一次来选一个提示词，把它作为新的 system 消息放在最前面。",
      formula:
        "if any(m.tools): return conv; if conv[0].role != 'system' and random() < ratio: return [{system, prompts[⌊random()·n⌋]}] + conv。" +
        "MiniMind：dataset/lm_dataset.py:9-29 @ d65ef2c。",
    },
    postProcessingChat: {
      nudge: "MiniMind 的 Python `and` 是短路求值。什么时候 random() 根本不会被调用？",
      keyIdea:
        "只有包含空 think 块的 prompt 才抽随机数；抽到的数大于比例时，删除所有出现的空 think 块（用 split/join 或 replaceAll，不要用 replace）。",
      formula: "if EMPTY in prompt and random() > ratio: prompt = prompt.replaceAll(EMPTY, '')。MiniMind：dataset/lm_dataset.py:31-35 @ d65ef2c。",
    },
    sftSample: {
      nudge: "需要的东西都已经写好了：模板（第 4 课）、两个处理步骤和标签扫描。MiniMind 按什么顺序调用它们？",
      keyIdea:
        "标记 = encode('<|im_start|>assistant\\n') 和 encode('<|im_end|>\\n')。先做预处理，从 system 消息中收集 tools 并解析字符串形式的 tool_calls，" +
        "渲染模板，做后处理，编码，截断到 maxLength，用 padId 填充，最后打标签。",
      formula:
        "ids = encode(post(render(pre(conv), tools)))[:L] + [pad]*(L − n); labels = sftLabels(ids, bos, eos, L)。" +
        "MiniMind：dataset/lm_dataset.py:65-86, 106-113 @ d65ef2c。",
    },
  },
  mistakes: {
    postProcessingChat: {
      "always-draws": "对每个 prompt 都抽了一个均匀随机数，包括没有空 think 块的 prompt",
      "default-ratio-kept-share":
        "emptyThinkRatio 的默认值写成了 0.8（被删除的比例）；MiniMind 的 empty_think_ratio 默认是 0.2，抽到的数大于它时才删除空 think 块",
      "first-only": "只删除了第一个空 think 块（用字符串调用 String.replace）",
      inverted: "抽到的数小于比例时（20% 的情况）删除了空 think 块，应当是大于比例时删除",
    },
    preProcessingChat: {
      "always-two-draws": "即使没有添加 system 提示词也抽了选提示词的随机数，导致之后的每次抽样都错位",
      "default-ratio-half": "addSystemRatio 的默认值不是 0.2（MiniMind 的 add_system_ratio 默认值）",
      "even-with-system": "对话已经有 system 提示词时仍然抽随机数，并可能再添加第二个",
      "ignores-tools": "给使用工具的对话添加了 system 提示词，而 MiniMind 对这类对话原样保留",
      "ratio-inclusive":
        "抽到的数等于比例时（u ≤ ratio）也添加了 system 提示词；MiniMind 只在 random() < add_system_ratio 时添加",
      "replaces-first": "用 system 提示词替换了第一条消息，而不是把它插在最前面",
      "tools-key-present":
        "只要某条消息有 tools 这个键就把对话当作工具对话；MiniMind 的数据每条消息都带 tools: null（或 \"\"），只有真值才算",
    },
    sftLabels: {
      "end-by-first-id":
        "遇到结束标记（<|im_end|>）的第一个 id 就结束了片段，即使标记的其余部分（\"\\n\"）并没有跟在后面；应当匹配完整的 assistantEnd 序列",
      "end-unlabelled": "结尾的 <|im_end|>\\n 没有打标签，于是模型永远学不会停下来",
      "first-span-only": "只给对话中第一个 assistant 轮次打了标签",
      "ignores-max-length": "给 ≥ maxLength 的位置也打了标签",
      "past-the-end":
        "未闭合的片段一直标到 min(end + len(end marker), maxLength)，甚至越过了最后一个 id，使 labels 比 inputIds 还长；应当在最后一个 id 处停止",
      "start-labelled": "把 <|im_start|>assistant\\n 标记也打上了标签（它属于提示，不属于回复）",
    },
    sftSample: {
      "markers-without-newline": "扫描的是不带换行的 <|im_start|>assistant 和 <|im_end|>",
      "no-pre-processing": "跳过了随机 system 提示词（预处理）",
      "no-tools": "没有把 system 消息的 tools 传给对话模板",
      "pads-with-eos": "用 eos id 而不是 pad id 做填充",
      "pads-with-zero": "用字面量 0 而不是 tokenizer.padId 做填充（MiniMind 的 pad id 恰好是 0，别的分词器未必）",
      "parses-empty-tool-calls":
        "所有字符串形式的 tool_calls 都做了 JSON 解析，空字符串也不例外（JSON.parse(\"\") 会抛出异常）；MiniMind 只解析非空字符串",
    },
  },
};

export default zh;
