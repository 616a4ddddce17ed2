/** Lesson 4's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-4",
  hints: {
    bpeTrain: {
      nudge: "还没做任何合并时，词表里有什么？数一数：先是特殊 token，然后是所有可能的字节。合并在哪里绝不能跨过去？",
      keyIdea:
        "对每段文本做预分词（pretokenize），把每个片段转成字节字符（toByteLevel），每个不同的片段只统计一次，并记下它的频次。" +
        "然后循环：在所有片段上统计相邻的 token 对（按频次加权），取出现最多的一对（并列时取左 id 较小的，再取右 id 较小的），" +
        "把 left+right 作为新 token 追加进词表，并在每个片段内从左到右替换这一对。词表达到 vocabSize 个条目或不再有 token 对时停止。" +
        "每一步都重新统计是正确的；只更新含有这一对的片段，才能让 10 MB 的语料跑得快。",
      formula:
        "ids: specials 0…S−1, then the 256 byte characters sorted by code point, then merges in order. best = argmax_pair (count, −leftId, −rightId)。" +
        "即：先是特殊 token，然后是按码位排序的 256 个字节字符，最后按顺序是各次合并。" +
        "MiniMind：trainer/train_tokenizer.py:24-50 @ d65ef2c（tokenizers 的 BpeTrainer，使用 ByteLevel 字母表和 36 个特殊 token）。",
    },
    bpeEncode: {
      nudge: "像 <|im_start|> 这样的特殊 token 必须输出为一个 id，尽管它的字符本来也可能被合并成别的样子。什么事必须最先做？",
      keyIdea:
        "先在文本中扫描特殊 token 的字符串（同一位置开始的有两个时，取最长的），输出它们的 id；它们之间的文本再做编码。" +
        "对这些文本：pretokenize，toByteLevel，然后在每个片段内反复找出合并排名（rank）最低的相邻 token 对，从左到右合并它的所有出现，直到没有任何一对有排名。",
      formula:
        "rank(a, b) = index of [a, b] in model.merges; per piece: while some pair has a rank, merge the min-rank pair; ids = vocab[token]。" +
        "MiniMind：trainer/train_tokenizer.py:25-26（BPE 模型，ByteLevel 预分词器）@ d65ef2c。",
    },
    bpeDecode: {
      nudge: "一个汉字占三个字节；一个 token 会不会只装下其中一部分？那还能逐个 token 解码吗？",
      keyIdea:
        "把 id 映射成 token，把每个 token 字符映射回它的字节（CHAR_TO_BYTE），把全部字节拼接起来，再把这个字节数组一次性按 UTF-8 解码，损坏的序列用替换字符表示。",
      formula:
        "bytes = concat_t [CHAR_TO_BYTE[c] for c in token_t]; text = new TextDecoder('utf-8').decode(bytes)。" +
        "MiniMind：decoders.ByteLevel()，trainer/train_tokenizer.py:51 @ d65ef2c。",
    },
    renderChat: {
      nudge:
        "逐个分支地读 model/tokenizer_config.json 里的 jinja 模板：对 system 消息、user 消息、assistant 消息、tool 消息，它各输出什么？",
      keyIdea:
        "开头：有工具时，是一个 system 轮次，包含 system 文本、工具块（每个工具一行 JSON）和调用工具的说明；没有工具时，只有第一条 system 消息。" +
        "然后逐条消息：user（以及后面的 system）写成 <|im_start|>role\\ncontent<|im_end|>\\n；assistant 总是带一个 think 块" +
        "（reasoning_content，或 content 中 </think> 之前的部分），然后是它的工具调用；连续的一串 tool 消息放进同一个 user 轮次。最后是生成提示（generation prompt）。",
      formula:
        "assistant = '<|im_start|>assistant\\n<think>\\n' + reasoning.strip('\\n') + '\\n</think>\\n\\n' + content.lstrip('\\n') + calls + '<|im_end|>\\n'。" +
        "JSON 按 Python 的 json.dumps 输出：分隔符是 ', ' 和 ': '。MiniMind：model/tokenizer_config.json:333 @ d65ef2c。",
    },
  },
  mistakes: {
    bpeDecode: {
      "default-decoder":
        "使用默认设置的 new TextDecoder() 会去掉开头的 U+FEFF（字节顺序标记，BOM）；Hugging Face 的解码器会保留它：传入 { ignoreBOM: true }",
      "drops-broken": "丢掉了损坏的 UTF-8，而不是写成 U+FFFD",
      latin1: "把每个字节当作一个字符来读，而不是按 UTF-8 解码",
      "no-byte-table": "直接拼接 token，没有把字节字符映射回字节（Ġ 仍然是 Ġ）",
      "per-token": "逐个 token 单独解码，于是跨 token 的字符变成了 U+FFFD",
      "spread-bytes":
        "把全部字节作为参数传入（Uint8Array.of(...bytes)）：id 列表很长时超出调用栈，抛出 RangeError；构造数组时不要用展开语法",
    },
    bpeEncode: {
      "leftmost-mergeable": "合并的是最左边可合并的一对，而不是排名最低的一对",
      "longest-match": "从左边取最长的词表条目，而不是应用合并规则",
      "no-pretokenize": "合并跨过了预分词的边界（整段文本被当成一个词）",
      "no-specials": "把特殊 token 的字符串当作普通文本编码",
      "shortest-special": "同一位置开始的特殊 token 有更长的一个时，匹配了最短的那个",
    },
    bpeTrain: {
      "largest-pair-tie": "频次相同的 token 对并列时，选了 id 较大的一对",
      "no-pretokenize": "在整段文本上统计 token 对，于是合并跨过了空格和标点",
      "no-size-check":
        "接受了小于特殊 token 数加 256 个字节的 vocabSize；应当抛出 RangeError，而不是返回一个装不下所有字节的模型",
      "seen-bytes-only": "字母表里只放了训练中见过的字节，于是 id 发生偏移，没见过的字节无法编码",
      "specials-last": "把最后的 id 而不是最前面的 id 分给了特殊 token",
      "specials-not-counted": "没有把特殊 token 计入 vocabSize，学到了过多的合并",
    },
    renderChat: {
      "compact-tools-json": "工具的 schema 用 JSON.stringify 的紧凑分隔符写出，而不是 Python json.dumps 的分隔符",
      "no-empty-think": "没有推理内容的 assistant 轮次没有输出 think 块",
      "open-thinking-ignored": "忽略了 openThinking，总是把生成提示里的 think 块闭合",
      "string-args-quoted": "字符串类型的工具调用参数被写成了 JSON 字符串（带引号），而不是原样写出",
      "tool-turn-each": "每个工具回复各自放进一个 user 轮次，而不是一串连续的工具回复共用一个轮次",
    },
  },
};

export default zh;
