/** Lesson 27's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-27",
  hints: {
    parseAssistantText: {
      nudge:
        "服务端要求模型思考时，prompt 已经以 <think> 结尾：这时生成的文本里有什么？你还能怎样找到思考内容？" +
        "内部不是合法 JSON 的 <tool_call> 块又该怎么处理？",
      keyIdea:
        "按顺序分三步。(1) 思考：如果文本含有 <think>…</think>，reasoning 是第一个这样的块的内部，再做 strip，并删除所有这样的块（连同其后的空白）；" +
        "否则，如果含有单独的 </think>，reasoning 是第一个 </think> 之前的全部内容，content 是它之后的全部内容，两者都 strip；否则 reasoning 为 null。" +
        "(2) 工具调用：惰性地找出每个 <tool_call>…</tool_call>（贪婪匹配会把两个调用之间的文本也吞进去）；对每个 strip 后的内部做 JSON.parse；只保留对象；id 使用该块在所有块中的索引。" +
        "(3) 只有当至少一个调用解析成功时，才从 content 中删除所有块。" +
        "strip 用 Python 的空白字符，不要用 trim()：把 exercises/lesson-25/python-text.ts 中的 PY_WHITESPACE 复制到你的文件里（从另一课的文件夹 import，只能带来它的函数）。",
      formula:
        "每个调用：id 是前缀、一个下划线，再加上该块在所有块中的索引；type 是 \"function\"；函数名在 \"name\" 键存在时取它的值，否则为空字符串；" +
        "arguments 在 \"arguments\" 存在时取它的值，否则为空对象，并按 Python 的 json.dumps 的写法序列化" +
        "（Python 的 get 只在键缺失时才用默认值：{\"name\": null, \"arguments\": null} 得到 null 和 \"null\"，而不是 '' 和 \"{}\"；前缀默认为 \"call\"，绝不取时钟）。" +
        "json.dumps 的风格：数组是方括号内用逗号加空格连接的各项，对象是花括号内以同样方式连接的 \"key\": value 对，其余值一律按 JSON.stringify 的写法。" +
        "三个模式，都是惰性且可跨行的：第一个 think 块，捕获其内部；每个 think 块，连同其后的空白；每个 tool_call 块，捕获其内部。" +
        "MiniMind：scripts/serve_openai_api.py:83-102 @ d65ef2c。",
    },
  },
  mistakes: {
    parseAssistantText: {
      "always-remove-blocks": "只有当至少一个工具调用块解析成功时，这些块才从 content 中删除；一个都没解析成功时，MiniMind 保留原文",
      "compact-arguments":
        "arguments 要按 Python 的 json.dumps 的写法重新序列化，分隔符是 \", \" 和 \": \"；JSON.stringify 不带这些空格",
      "empty-reasoning-null": "空的 think 块给出的 reasoning 是 \"\"（有这个块），而不是 null（根本没有块）",
      "greedy-tool-call":
        "贪婪的 (.*) 会从第一个 <tool_call> 一直匹配到最后一个 </tool_call>：两个调用变成一块损坏的 JSON；请用惰性的 (.*?)",
      "ids-count-parsed":
        "id 是给所有 <tool_call> 块编号的，损坏的块也算在内（对每个匹配做 enumerate），而不是只给解析成功的调用编号",
      "js-trim": "JavaScript 的 trim() 不等于 Python 的 strip()：Python 会去掉 NEL（U+0085）和 \\x1c-\\x1f，但保留 BOM（U+FEFF）",
      "needs-opening-think":
        "含有 </think> 却没有 <think> 的回复（块是由 prompt 打开的，open_thinking）把思考内容留在了 content 里：应在第一个 </think> 处切分",
      "nullish-arguments":
        "null 的 arguments 变成了 \"{}\"（?? 默认值）；Python 的 call.get(\"arguments\", {}) 只在键缺失时才用默认值，而 json.dumps(None) 是 \"null\"",
      "nullish-defaults":
        "默认值是用 ?? 设置的，于是 null 的 name 变成了 \"\"，null 的 arguments 变成了 \"{}\"；Python 的 call.get(key, default) 只在键缺失时才用默认值：null 的 name 仍是 null，json.dumps(None) 是 \"null\"",
      "time-based-id":
        "默认的 idPrefix 取自时钟，就像 MiniMind 的 call_{int(time.time())}；契约规定的默认值是 \"call\"，所以 id 是 call_0、call_1、…，同一个回复每次解析的结果都一样",
    },
  },
};

export default zh;
