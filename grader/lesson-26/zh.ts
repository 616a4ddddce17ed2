/** Lesson 26's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-26",
  hints: {
    parseToolCalls: {
      nudge:
        "同一行里有两个调用：你的模式找到的是两个块还是一个？" +
        "对于内部不是合法 JSON 的块，MiniMind 怎么处理：停下、抛异常，还是跳过继续？",
      keyIdea:
        "用能跨行的惰性匹配找出每个 <tool_call>…</tool_call>；用 Python 的空白字符对内部做 strip（不是 trim()：对 Python 来说 NEL 是空白，BOM 不是），" +
        "在 try/catch 里 JSON.parse，解析失败或结果不是普通对象的就跳过。" +
        "然后按 rollout 的方式读取每个调用：name 是字符串时才采用，arguments 是字符串时再解析一次，凡不是对象的一律取 {}。",
      formula:
        "对每个 <tool_call>…</tool_call> 块（惰性匹配，可跨行）：把它的内部用 Python 的空白字符 strip 后按 JSON 解析；解析失败、或解析结果不是普通对象的块跳过。" +
        "它的 arguments：有 \"arguments\" 这个键时取其值，否则取空对象；若该值是字符串，再按 JSON 解析一次（失败则取空对象）；仍然不是对象的，一律变成空对象。" +
        "它的 name：\"name\" 下的值是字符串时取该值，否则取空字符串。" +
        "pyStrip 使用 exercises/lesson-25/python-text.ts 中的 PY_WHITESPACE（把它复制到你的文件里）。" +
        "MiniMind：trainer/train_agent.py:77-82 和 137-141 @ d65ef2c。",
    },
    agentLossMask: {
      nudge:
        "在多轮 rollout 里，哪些 token 是策略真正采样出来的？只有这些 token 的对数概率比才有意义。" +
        "另外，oldLogps[t] 属于哪个 token：inputIds[t] 还是 inputIds[t + 1]？",
      keyIdea:
        "在回复部分构造三个并行的列表：对每一轮，先放生成的 id 中不是 pad/EOS 的那些，掩码为 1，并带上它们采样时的对数概率；再放观测（observation）的 id，掩码为 0，对数概率为 0。" +
        "前面拼上 prompt：ids = prompt + response，mask = zeros(prompt) + 回复掩码，oldLogps = zeros(prompt − 1) + 回复的对数概率（每个下一 token 预测对应一项）。" +
        "只过滤生成的 id：prompt 和观测保留全部 id，EOS id 也保留。" +
        "如果 ids 长于 maxTotalLen，各自保留尾部（最后 maxTotalLen 个 id 和掩码项，最后 maxTotalLen − 1 个对数概率）。promptLen 是截断后掩码中第一个 1 的索引。" +
        "先检查输入（maxTotalLen ≥ 2、prompt 非空、每一轮的 logps 与 ids 一样多），不合法就抛异常；用循环追加，不要用 push(...ids)，轮次很长时它会让栈溢出。",
      formula:
        "ids = p ++ r; mask = 0^|p| ++ m; old = 0^(|p|−1) ++ lp; if |ids| > L: ids = ids[−L:], mask = mask[−L:], old = old[−(L−1):]; promptLen = mask.indexOf(1)（没有 1 时为 |mask|）。" +
        "MiniMind：trainer/train_agent.py:123-130（丢弃 pad/EOS）、148-152（观测：掩码 0，logp 0）、255-264（拼接与截断） @ d65ef2c。",
    },
    agentReward: {
      nudge:
        "先从两个分支入手：模型在任意一轮里有没有调用过工具？调用了工具的轨迹按调用情况和最终答案打分；没有调用的，按第 25 课的格式规则打分。",
      keyIdea:
        "每一轮的答案：该轮文本在第一个 </think> 之后的部分，再做 strip。工具调用从各轮的答案中解析，标签惩罚 0.5 × |#<tool_call> − #</tool_call>| 也在各轮答案上累加：" +
        "写在思考部分里的 <tool_call> 既不算调用，也不扣分。" +
        "没有调用时：5 ≤ len(completion.strip()) ≤ 800 则 +0.5，否则 −0.5；有 </think> 时，思考长度在 [20, 300] 内 +1.0，否则 −0.5，恰好一个 </think> 则 +0.25，否则 −0.25；再减去 repetitionPenalty(answer)。" +
        "有调用时：统计合法调用的个数（name 在 tools 中，且 CHECK_ARGS[name](arguments) 通过）；gap = |valid − len(gt)| + (calls − valid)；gap 为 0 时 +0.5，否则 −0.5·gap。" +
        "最终文本：未完成时为 ''，否则为最后一个答案中最后一个 </tool_call> 之后的部分。" +
        "gt 非空时加上 2.5 × (找到的不同 gt 项数)/len(gt)（一项算找到，是指它以小写文本的形式出现，strip 后为 '' 的项永远不算，或者以数字的形式出现）；" +
        "未完成则 −0.5；再减去 repetitionPenalty(最终文本，为空时用答案)。最后裁剪到 [−3, 3]。",
      formula:
        "found(g)：s = strip(g); (s ≠ '' and lower(s) ⊂ lower(text)) or (去掉逗号后的 s 完整匹配 [-+]?\\d+(\\.\\d+)?，且去掉逗号后的文本中存在某个数 n 满足 |float(s) − n| < 1e-6)，" +
        "其中数字用 (?<![\\w.])[-+]?\\d+(?:\\.\\d+)?(?![\\w.]) 查找，\\w 支持 Unicode（JavaScript 中写作 \\p{L}\\p{N}_）。长度按码位计算（[...s].length）。" +
        "MiniMind：trainer/train_agent.py:183-239 @ d65ef2c。",
    },
  },
  mistakes: {
    agentLossMask: {
      "drops-eos-everywhere":
        "prompt 和观测里的 pad 与 EOS id 也被丢掉了；只有模型生成的 id 才需要过滤（prompt 或工具返回里可能含有 EOS id，例如前一轮的结尾）",
      "keep-head": "超过 maxTotalLen 的序列应保留最后的 token（答案在那里），而不是开头的",
      "keeps-eos": "拼接之前，要把每一轮生成的 pad 和 EOS id（连同它们的对数概率）丢掉",
      "max-len-one-allowed":
        "接受了 maxTotalLen = 1：一行至少需要两个 id（才有一个可以训练的对数概率），所以小于 2 时必须抛异常",
      "no-input-checks":
        "不合法的输入也照样拼接了：maxTotalLen < 2、prompt 为空，或某一轮的 ids 与 logps 长度不同时，都应抛异常",
      "observation-trained": "工具返回是环境说的话，不是模型说的：它们的掩码是 0",
      "prompt-len": "promptLen 是截断后第一个参与训练的 token 所在的位置，而不是 prompt 本身的长度",
      "spread-push":
        "某一轮的 ids 或观测是用 push(...ids) 追加的：展开约 10^5 个参数会让调用栈溢出（RangeError）；请用循环追加，或拼接数组",
      "unshifted-logps": "oldLogps 每个下一 token 预测对应一项（长度 − 1）：prompt 贡献的 0 要比它的长度少一个",
    },
    agentReward: {
      "calls-from-whole-turn":
        "工具调用是从每一轮的完整文本中收集的；MiniMind 从该轮的答案中解析，即第一个 </think> 之后、strip 过的文本，所以写在思考部分里的 <tool_call> 不算调用",
      "case-sensitive-match": "标准答案（ground truth）的匹配区分了大小写；MiniMind 两边都转小写（s.lower() in text.lower()）",
      "empty-gt-found":
        "空的标准答案项被算作找到了（\"\" 出现在任何文本里）；MiniMind 的检查要求 strip 后的项非空（(s := str(g).strip()) and …）",
      "invalid-counted-once": "一个不合法的调用在 gap 中要算两次：一次是缺了一个合法调用，一次是多出一个调用",
      "no-clip": "总分要裁剪到 [−3, 3]",
      "strict-bounds": "长度区间漏掉了两端；MiniMind 的区间包含两端：5 <= len <= 800 和 20 <= len(think) <= 300",
      "tags-last-turn": "不配对的 <tool_call> 标签要在每一轮的答案里统计，而不只是最后一轮",
      "tags-on-whole-turn":
        "<tool_call> 标签是否配对是在每一轮的完整文本上统计的；MiniMind 在该轮的答案上（第一个 </think> 之后）统计，所以思考部分里的标签不扣分",
      "text-match-only": "标准答案也可以按数字匹配：去掉逗号后，数值相差在 1e-6 以内即可（3,402 就是 3402）",
      "unfinished-keeps-text":
        "未完成的 rollout（到最后一轮仍在调用工具）没有最终答案：它的最终文本为空，所以拿不到标准答案的分",
      "upper-case-match":
        "为了忽略大小写，两边都转成了大写；MiniMind 转的是小写，两者结果不同：'ß' 转大写是 'SS'，所以在 Python 看来 'Straße' 不在 'STRASSE' 中",
      "utf16-length": "长度是 Python 的 len：Python strip 之后的码位数（一个 emoji 算 1，不是 2）",
    },
    parseToolCalls: {
      greedy:
        "块的匹配模式是贪婪的：从第一个 <tool_call> 到最后一个 </tool_call> 成了一个块，两个调用变成了一段损坏的 JSON",
      "js-trim": "JavaScript 的 trim() 不等于 Python 的 strip()：对 Python 来说 NEL（U+0085）是空白，字节顺序标记（BOM）不是",
      "stop-at-broken": "不是 JSON 的块应当跳过（MiniMind 的 except: pass），而不是就此结束解析",
      "string-arguments": "以 JSON 字符串给出的 arguments 必须解析成对象（rollout 会对字符串做 json.loads）",
    },
  },
};

export default zh;
