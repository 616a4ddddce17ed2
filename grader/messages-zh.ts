/**
 * The engine's per-case messages in Chinese (issue 28), translated where they are shown.
 *
 * A case's message and details are built in three places: this process (judge.ts, encoded.ts,
 * isolate.ts, bundle.ts), the reference process and the learner's sandboxed process
 * (learner-child.ts, run.ts, outputs.ts), which may not see COURSE_LANG and must not decide the
 * language. So every one of them stays English where it is built, in the CaseResult, in
 * `--json` and in the progress file, and the report, `npm run watch` and the vitest failure
 * translate it here, in the parent, when zh() says so: each message family is one rule below,
 * keyed by a code, whose pattern is the English template it translates. Numbers, identifiers,
 * shapes, file paths, code and the learner's own error texts stay as they are inside the Chinese.
 * A text no rule knows (an error the learner's code threw, esbuild's words) is shown in English.
 *
 * English: nothing here runs (every caller checks zh() first, or `localiseCase` returns its
 * argument itself), so the English report is byte for byte what it was.
 * No TensorFlow.js here.
 */
import { zh } from "./i18n.js";

/** One message family: its English template as a pattern (named groups) and its Chinese text. */
interface Rule {
  /** A stable name of the family (tests name rules by it). */
  code: string;
  en: RegExp;
  zh: (g: Record<string, string>) => string;
}

/** "the result" or "`path.to[0]`": where in the value a mismatch is. */
const W = "(?<w>the result|`[^`]*`)";
/** `w` as the subject of a Chinese sentence ("结果应为…", "`x` 应为…"). */
const where = (w: string): string => (w === "the result" ? "结果" : `${w} `);
/** "the scalar" or "[1, 2]": an element of a tensor (encoded.ts fmtIndex). */
const index = (i: string): string => (i === "the scalar" ? "标量" : i);

/** Results of throwsCall (throws.ts), compared as strings. */
function thrownWords(s: string): string | undefined {
  if (s === "returned without an error") return "正常返回，没有抛出错误";
  if (s === "threw an error") return "抛出了错误";
  if (s === "threw an error with none of the expected messages") return "抛出了错误，但消息中没有任何一条期望的内容";
  const m = /^threw an error saying "(.*)"$/s.exec(s);
  return m ? `抛出了错误，消息中含有 "${m[1]}"` : undefined;
}

/** A JSON string literal, its text in Chinese when it is one of throwsCall's results. */
function quoted(json: string): string {
  try {
    const s: unknown = JSON.parse(json);
    const t = typeof s === "string" ? thrownWords(s) : undefined;
    return t === undefined ? json : JSON.stringify(t);
  } catch {
    return json;
  }
}

/** A value's description (encoded.ts describeEncoded, compare.ts encodeValue's `what`) in Chinese. */
export function zhValue(v: string): string {
  let m: RegExpExecArray | null;
  if ((m = /^a tf\.Tensor of shape \[([^\]]*)\] \((\w+)\)$/.exec(v))) return `形状为 [${m[1]}] 的 tf.Tensor（${m[2]}）`;
  if ((m = /^a disposed tf\.Tensor of shape \[([^\]]*)\]$/.exec(v))) return `一个已释放（disposed）的 tf.Tensor，形状为 [${m[1]}]`;
  if (v === "undefined (did you forget to return?)") return "undefined（是不是忘了 return？）";
  if (v === "a Promise (the function must be synchronous: use dataSync(), not data())") return "一个 Promise（函数必须是同步的：用 dataSync()，不要用 data()）";
  if ((m = /^an array of (\d+)$/.exec(v))) return `一个长度为 ${m[1]} 的数组`;
  if ((m = /^an object with keys \{ (.*) \}$/s.exec(v))) return `一个键为 { ${m[1]} } 的对象`;
  if ((m = /^a Map of (\d+) entries \(return a plain object or an array\)$/.exec(v))) return `一个有 ${m[1]} 个条目的 Map（请返回普通对象或数组）`;
  if ((m = /^a Set of (\d+) values \(return an array\)$/.exec(v))) return `一个有 ${m[1]} 个值的 Set（请返回数组）`;
  if (v === "a cyclic structure (an object that contains itself)") return "一个循环结构（包含自身的对象）";
  if (v === "a value that cannot be read") return "一个无法读取的值";
  if ((m = /^a (function|bigint|symbol)$/.exec(v))) return `一个 ${m[1]}`;
  if ((m = /^number (.*)$/s.exec(v))) return `数字 ${m[1]}`;
  if ((m = /^string (".*")$/s.exec(v))) return `字符串 ${quoted(m[1])}`;
  if ((m = /^boolean (true|false)$/.exec(v))) return `布尔值 ${m[1]}`;
  return v;
}

/** "x was disposed, y values changed" (outputs.ts changedInputs) in Chinese. */
function changedInputs(list: string): string {
  return list
    .split(", ")
    .map((c) => {
      let m: RegExpExecArray | null;
      if ((m = /^(.+) was disposed$/.exec(c))) return `${m[1]} 被释放了`;
      if ((m = /^(.+) values changed$/.exec(c))) return `${m[1]} 的值被改了`;
      if ((m = /^(.+) changed$/.exec(c))) return `${m[1]} 被改了`;
      return c;
    })
    .join("，");
}

/** How a process ended ("code 1", "SIGKILL"), as isolate.ts words it. */
const ended = (w: string): string => w.replace(/^code (-?\d+)$/, "退出码 $1");

const RULES: Rule[] = [
  // ── encoded.ts: a value that differs from the reference's ──
  { code: "disposed-result", en: new RegExp(`^${W} was disposed before it was returned$`), zh: (g) => `${where(g.w)}在返回之前就被释放（dispose）了` },
  { code: "want-tensor", en: new RegExp(`^${W} should be a tf\\.Tensor of shape \\[(?<s>[^\\]]*)\\] \\((?<d>\\w+)\\), got (?<got>.*)$`, "s"), zh: (g) => `${where(g.w)}应为形状为 [${g.s}] 的 tf.Tensor（${g.d}），实际得到 ${zhValue(g.got)}` },
  { code: "reference-disposed", en: new RegExp(`^grader bug: the reference disposed ${W}$`), zh: (g) => `评分器的 bug：参考答案释放了${g.w === "the result" ? "结果" : ` ${g.w}`}` },
  { code: "want-number", en: new RegExp(`^${W} should be a number, got (?<got>.*)$`, "s"), zh: (g) => `${where(g.w)}应为一个数字，实际得到 ${zhValue(g.got)}` },
  { code: "want-array", en: new RegExp(`^${W} should be an array of (?<n>\\d+), got (?<got>.*)$`, "s"), zh: (g) => `${where(g.w)}应为长度为 ${g.n} 的数组，实际得到 ${zhValue(g.got)}` },
  { code: "array-length", en: new RegExp(`^${W} should have (?<n>\\d+) entries, got (?<m>\\d+)$`), zh: (g) => `${where(g.w)}应有 ${g.n} 个元素，实际有 ${g.m} 个` },
  { code: "want-object", en: new RegExp(`^${W} should be an object with keys \\{ (?<k>.*?) \\}, got (?<got>.*)$`, "s"), zh: (g) => `${where(g.w)}应为键为 { ${g.k} } 的对象，实际得到 ${zhValue(g.got)}` },
  { code: "want-value", en: new RegExp(`^${W} should be (?<e>.*?), got (?<got>.*)$`, "s"), zh: (g) => `${where(g.w)}应为 ${g.e.startsWith('"') ? quoted(g.e) : zhValue(g.e)}，实际得到 ${zhValue(g.got)}` },
  { code: "missing-key", en: new RegExp(`^${W} is missing the key \`(?<k>[^\`]*)\`$`), zh: (g) => `${where(g.w)}缺少键 \`${g.k}\`` },
  { code: "extra-key", en: new RegExp(`^${W} has a key \`(?<k>[^\`]*)\` the reference does not return$`), zh: (g) => `${where(g.w)}有一个参考答案并不返回的键 \`${g.k}\`` },
  {
    code: "key-order",
    en: new RegExp(`^${W} has its keys in another order: key (?<i>\\d+) is \`(?<a>[^\`]*)\`, expected \`(?<b>[^\`]*)\` \\(the order of the keys is part of the contract here\\)$`),
    zh: (g) => `${where(g.w)}的键顺序不对：第 ${g.i} 个键是 \`${g.a}\`，应为 \`${g.b}\`（这里键的顺序也是约定的一部分）`,
  },
  { code: "also", en: /^also: (?<m>.*)$/s, zh: (g) => `另外：${zhLine(g.m)}` },
  { code: "shape", en: new RegExp(`^${W} has shape \\[(?<a>[^\\]]*)\\], expected \\[(?<b>[^\\]]*)\\]$`), zh: (g) => `${where(g.w)}的形状是 [${g.a}]，应为 [${g.b}]` },
  { code: "shape-same-size", en: /^same number of elements: a missing reshape or squeeze\?$/, zh: () => "元素个数相同：是不是少了一次 reshape 或 squeeze？" },
  { code: "shape-scalar", en: /^expected a scalar: did you forget to reduce \(sum\/mean\)\?$/, zh: () => "应为标量：是不是忘了归约（sum/mean）？" },
  { code: "shape-trailing-1", en: /^a trailing axis of size 1: squeeze it$/, zh: () => "末尾多了一个大小为 1 的轴：用 squeeze 去掉它" },
  { code: "dtype", en: new RegExp(`^${W} has dtype (?<a>\\w+), expected (?<b>\\w+)$`), zh: (g) => `${where(g.w)}的 dtype 是 ${g.a}，应为 ${g.b}` },
  { code: "dtype-cast", en: /^cast it with tf\.cast\(x, "(?<d>\w+)"\)$/, zh: (g) => `用 tf.cast(x, "${g.d}") 转换类型` },
  {
    code: "text",
    en: new RegExp(`^${W} differs from the expected text at character (?<i>\\d+) \\(got (?<g>\\d+) characters, expected (?<e>\\d+)\\)$`),
    zh: (g) => `${where(g.w)}与期望的文本从第 ${g.i} 个字符（从 0 数起）开始不同（得到 ${g.g} 个字符，期望 ${g.e} 个）`,
  },
  { code: "text-expected", en: /^expected around there: (?<x>.*)$/s, zh: (g) => `期望的文本在该处附近：${g.x}` },
  { code: "text-got", en: /^got around there: {6}(?<x>.*)$/s, zh: (g) => `得到的文本在该处附近：${g.x}` },
  {
    code: "ids",
    en: new RegExp(`^${W} differs from the expected ids at position (?<i>\\d+)(?: \\(got (?<g>\\d+) ids, expected (?<e>\\d+)\\))?$`),
    zh: (g) => `${where(g.w)}与期望的 id 序列在位置 ${g.i} 处不同${g.g === undefined ? "" : `（得到 ${g.g} 个 id，期望 ${g.e} 个）`}`,
  },
  { code: "ids-expected", en: /^expected: (?<x>\[.*\])$/s, zh: (g) => `期望：${g.x}` },
  { code: "ids-got", en: /^got: {6}(?<x>\[.*\])$/s, zh: (g) => `得到：${g.x}` },
  { code: "tolerance-exact", en: /^tolerance: exact$/, zh: () => "容差：必须完全相等" },
  { code: "tolerance", en: /^tolerance: \|got − expected\| ≤ (?<a>\S+) \+ (?<r>\S+)·\|expected\|$/, zh: (g) => `容差：|实际值 − 期望值| ≤ ${g.a} + ${g.r}·|期望值|` },
  {
    code: "non-finite",
    en: /^non-finite mismatch at (?<n>\d+) position\(s\): (?<list>.*)$/s,
    zh: (g) => {
      const more = g.list.endsWith("; …");
      const items = (more ? g.list.slice(0, -3) : g.list).split("; ").map((x) => {
        const m = /^(.+?) got (\S+), expected (\S+)$/.exec(x);
        return m ? `${index(m[1])} 得到 ${m[2]}，期望 ${m[3]}` : x;
      });
      return `有 ${g.n} 个位置的非有限值（NaN/Inf）与参考不一致：${items.join("；")}${more ? "；……" : ""}`;
    },
  },
  { code: "worst", en: /^worst at (?<i>.+?): got (?<g>\S+), expected (?<e>\S+)$/, zh: (g) => (g.i === "the scalar" ? `标量：得到 ${g.g}，期望 ${g.e}` : `偏差最大处在 ${g.i}：得到 ${g.g}，期望 ${g.e}`) },
  { code: "max-diff", en: /^max abs diff (?<a>\S+), max rel diff (?<r>\S+)$/, zh: (g) => `最大绝对误差 ${g.a}，最大相对误差 ${g.r}` },
  { code: "max-diff-zero", en: /^max abs diff (?<a>\S+) \(where the reference is 0\)$/, zh: (g) => `最大绝对误差 ${g.a}（在参考值为 0 的位置）` },
  {
    code: "differs",
    en: new RegExp(`^${W} differs from the reference(?: \\((?<f>\\d+) of (?<n>\\d+) elements\\))?$`),
    zh: (g) => `${where(g.w)}与参考答案不同${g.f === undefined ? "" : `（${g.n} 个元素中有 ${g.f} 个）`}`,
  },
  {
    code: "non-finite-result",
    en: new RegExp(`^${W} has NaN/Inf where the reference is finite \\(or the reverse\\)(?: \\((?<f>\\d+) of (?<n>\\d+) elements\\))?$`),
    zh: (g) => `${where(g.w)}在参考值有限的位置出现了 NaN/Inf（或者反过来${g.f === undefined ? "" : `；${g.n} 个元素中有 ${g.f} 个`}）`,
  },

  // ── judge.ts: notes on a case, and probes ──
  { code: "expected-failed", en: /^grader bug: the reference could not produce this case's expected value \((?<m>.*)\)$/s, zh: (g) => `评分器的 bug：参考答案没能算出这个用例的期望值（${zhLine(g.m)}）` },
  { code: "checks", en: /^this case checks (?<c>.*)$/s, zh: (g) => `这个用例检查的是：${g.c}` },
  { code: "changed-inputs", en: /^it changed its inputs \((?<l>.*)\): never modify or dispose an input$/s, zh: (g) => `它改动了自己的输入（${changedInputs(g.l)}）：永远不要修改或释放（dispose）输入` },
  { code: "leaked", en: /^it leaked (?<n>\d+) tensor\(s\): wrap the body in tf\.tidy\(\(\) => …\) so intermediates are freed$/, zh: (g) => `它泄漏了 ${g.n} 个张量：把函数体包进 tf.tidy(() => …)，中间结果才会被释放` },
  { code: "modified-inputs", en: /^(?<e>\w+) modified its inputs: (?<l>.*)$/s, zh: (g) => `${g.e} 修改了它的输入：${changedInputs(g.l)}` },
  { code: "leaked-tensors", en: /^(?<e>\w+) leaked (?<n>\d+) tensor\(s\)$/, zh: (g) => `${g.e} 泄漏了 ${g.n} 个张量` },
  { code: "probe-threw", en: /^with only (?<l>.+?) kept, your function threw: (?<m>.*)$/s, zh: (g) => `只保留 ${g.l} 时，你的函数抛出了异常：${zhLine(g.m)}` },
  { code: "probe-not-implemented", en: /^with only (?<l>.+?) kept, your function is not implemented$/, zh: (g) => `只保留 ${g.l} 时，你的函数尚未实现` },
  {
    code: "probe-where",
    en: /^where: with only (?<l>.+?) kept, (?<what>.*) \(the first (?<u>.+) that differs\)$/s,
    zh: (g) => {
      const m = /^your result (\S+), expected (\S+)$/.exec(g.what);
      return `出错位置：只保留 ${g.l} 时，${m ? `你的结果是 ${m[1]}，期望 ${m[2]}` : zhLine(g.what)}（这是第一个不同的 ${g.u}）`;
    },
  },

  // ── isolate.ts: what this process decides without an output ──
  {
    code: "protocol",
    en: /^the result your code's process sent for this case does not fit the grading protocol \((?<w>.*)\): something in the code under test wrote to the grading channel$/s,
    zh: (g) => `你的代码所在的进程为这个用例发回的结果不符合评分协议（${g.w}）：被测代码里有东西写入了评分通道`,
  },
  { code: "second-result", en: /^a second result arrived for this case: something in the code under test wrote to the grading channel$/, zh: () => "这个用例收到了第二个结果：被测代码里有东西写入了评分通道" },
  {
    code: "file-missing",
    en: /^(?<f>\S+) is missing: restore it with `npm run reset (?<l>[\w-]+)` or `git checkout -- (?<g>\S+)`$/,
    zh: (g) => `${g.f} 不见了：用 \`npm run reset ${g.l}\` 或 \`git checkout -- ${g.g}\` 恢复它`,
  },
  { code: "stopped-loading", en: /^your code stopped the grading process while loading \((?<w>.*)\)$/s, zh: (g) => `你的代码在加载时让评分进程停了下来（${zhLine(g.w)}）` },
  { code: "no-reason", en: /^no reason given$/, zh: () => "没有给出原因" },
  { code: "load-timeout", en: /^loading took longer than (?<s>\S+) s \(does a module run an endless loop at import time\?\)$/, zh: (g) => `加载用了超过 ${g.s} s（是不是某个模块在 import 时就进入了死循环？）` },
  { code: "case-timeout", en: /^timed out after (?<s>\S+) s: an endless loop, or far too slow\?$/, zh: (g) => `运行 ${g.s} s 后超时：是死循环，还是慢得太多？` },
  { code: "stalled", en: /^the grading process stalled between cases$/, zh: () => "评分进程在两个用例之间停住了" },
  {
    code: "exited",
    en: /^(?<p>the grading process )?exited \((?<w>[^)]*)\) during this case: does the code call process\.exit, or run out of memory\?$/,
    zh: (g) => `${g.p ? "评分进程" : ""}在这个用例运行时退出了（${ended(g.w)}）：代码是否调用了 process.exit，或者耗尽了内存？`,
  },
  { code: "not-run", en: /^not run: an earlier case of (?<e>\w+) (?<why>timed out|crashed the grader)$/, zh: (g) => `未运行：${g.e} 的前一个用例${g.why === "timed out" ? "超时了" : "让评分器崩溃了"}` },
  { code: "no-expected", en: /^the reference process sent no expected value$/, zh: () => "参考进程没有发回期望值" },
  {
    code: "frozen-inputs",
    en: /^grader bug: this case's inputs differ from those its expectations were frozen with \(a changed generator\?\): ask for a new release of the course$/,
    zh: () => "评分器的 bug：这个用例的输入与冻结期望值时的输入不同（生成器改过了？）：请索取课程的新版本",
  },
  {
    code: "no-result",
    en: /^no result came back for this case: the grading process stopped early, or the code under test interfered with it$/,
    zh: () => "这个用例没有返回结果：评分进程提前停止了，或者被测代码干扰了它",
  },
  // Why a whole lesson could not be graded (IsolatedRun.fatal).
  {
    code: "no-reference",
    en: /^(?<l>[\w-]+) has neither its reference solution \((?<s>[^)]*)\) nor frozen expectations \((?<f>[^)]*)\) to grade against$/,
    zh: (g) => `${g.l} 既没有参考答案（${g.s}），也没有冻结的期望值（${g.f}），无法评分`,
  },
  { code: "reference-timeout", en: /^the reference process took longer than (?<s>\S+) s$/, zh: (g) => `参考进程运行超过了 ${g.s} s` },
  { code: "reference-stopped", en: /^the reference process stopped \((?<w>[^)]*)\)$/, zh: (g) => `参考进程停止了（${ended(g.w)}）` },
  { code: "reference-load", en: /^the reference solution failed to load: (?<m>.*)$/s, zh: (g) => `参考答案加载失败：${g.m}` },
  {
    code: "folder-in-solutions",
    en: /^(?<d>.+?) resolves into solutions\/ \((?<r>.*?)\): the grader grades your own files, so make (?<l>[\w-]+)'s folder a real folder of yours \(npm run reset \k<l> restores the stubs\)$/s,
    zh: (g) => `${g.d} 指向了 solutions/（${g.r}）：评分器只给你自己的文件评分，所以请把 ${g.l} 的文件夹换成你自己的真实文件夹（npm run reset ${g.l} 会恢复存根）`,
  },
  {
    code: "node-too-old",
    en: /^this Node \((?<v>[^)]*)\) has no permission model, so the grader cannot build the sandbox your code runs in: install Node 20\.19 or newer, 22 or 24 \(https:\/\/nodejs\.org\)$/,
    zh: (g) => `这个 Node（${g.v}）没有权限模型（permission model），评分器无法搭建运行你的代码的沙箱：请安装 Node 20.19 或更新的版本、22 或 24（https://nodejs.org）`,
  },

  // ── bundle.ts, answers.ts: files that cannot be loaded, imports that are refused ──
  {
    code: "symlink",
    en: /^(?<f>\S+) is a symbolic link: the grader grades only real files in your lesson folder, so replace the link with the file itself$/,
    zh: (g) => `${g.f} 是一个符号链接：评分器只给你课程文件夹里的真实文件评分，所以请用文件本身替换这个链接`,
  },
  {
    code: "imports-reference",
    en: /^imports the reference solution \((?<r>[^)]*)\): a grade must come from your own code, so remove that import$/,
    zh: (g) => `导入了参考答案（${g.r}）：成绩必须来自你自己的代码，所以请删掉这个 import`,
  },
  { code: "imports-grader", en: /^imports a grader file \((?<r>[^)]*)\), which an exercise may not do$/, zh: (g) => `导入了评分器的文件（${g.r}），练习不允许这样做` },
  {
    code: "imports-answer-module",
    en: /^imports (?<chain>.+?), which computes (?<id>lesson-\d+)'s (?<what>.+?): while \k<id> is graded your code may not use it — write the functions? yourself$/s,
    zh: (g) => {
      const [first, ...rest] = g.chain.split(", which imports ");
      const what = g.what === "graded functions" ? "评分函数" : g.what;
      const via = rest.map((c) => `，它又导入了 ${c}`).join("");
      return `导入了 ${first}${via}，${rest.length > 0 ? "后者" : "它"}计算的正是 ${g.id} 的 ${what}：给 ${g.id} 评分时，你的代码不能使用它——请自己写出来`;
    },
  },
  // "<file> imports …": a refusal the bundler prefixed with the learner's file (only when the rest is one).
  { code: "file-imports", en: /^(?<f>\S+) (?<rest>imports .*)$/s, zh: (g) => `${g.f} ${known(g.rest) ?? g.rest}` },
  {
    code: "not-loaded-at",
    en: /^(?<f>\S+) could not be loaded: (?<at>\S+:\d+:\d+): (?<rest>.*)$/s,
    zh: (g) => `${g.f} 无法加载（${g.at}）：${zhLine(g.rest)}`,
  },
  { code: "not-loaded", en: /^(?<f>\S+) could not be loaded: (?<m>.*)$/s, zh: (g) => `${g.f} 无法加载：${g.m}` },

  // ── learner-child.ts, run.ts, outputs.ts (built in the learner's process, translated here) ──
  { code: "threw-loading", en: /^(?<f>\S+) threw while loading: (?<m>.*?)(?: \(at (?<at>\S+)\))?$/s, zh: (g) => `${g.f} 在加载时抛出了异常：${g.m}${g.at === undefined ? "" : `（位置 ${g.at}）`}` },
  { code: "no-export", en: /^(?<f>\S+) does not export a function named (?<n>[\w$]+)$/, zh: (g) => `${g.f} 没有导出名为 ${g.n} 的函数` },
  {
    code: "backend-switched",
    en: /^your code switched TensorFlow\.js from the (?<a>\w+) backend to (?<b>\w+): grading runs on \k<a>, so leave the backend alone in an exercise$/,
    zh: (g) => `你的代码把 TensorFlow.js 从 ${g.a} 后端切换到了 ${g.b}：评分在 ${g.a} 上进行，所以练习里不要改动后端`,
  },
  { code: "unreadable-result", en: /^the result could not be read: (?<m>.*)$/s, zh: (g) => `无法读取结果：${g.m}` },
  { code: "it-was", en: /^it was (?<v>(?:a |an |number |string |boolean |undefined|null).*)$/s, zh: (g) => `它是 ${zhValue(g.v)}` },
  { code: "threw-value", en: /^threw (?<v>(?:a |an |number |string |boolean |undefined|null).*)$/s, zh: (g) => `抛出了 ${zhValue(g.v)}` },
  { code: "inputs-not-built", en: /^grader bug: the case's inputs could not be built \((?<m>.*)\)$/s, zh: (g) => `评分器的 bug：这个用例的输入无法构造（${g.m}）` },
  {
    code: "no-gradient-op",
    en: /^TensorFlow\.js has no gradient for this op: see the lesson's note on ops without gradients$/,
    zh: () => "TensorFlow.js 没有这个算子的梯度：参见本课关于没有梯度的算子的说明",
  },
  {
    code: "no-gradient-input",
    en: /^your result does not depend on the input this case differentiates: a constant \(tf\.scalar\(0\)\), or a value that left TensorFlow\.js \(dataSync, arraySync, a JS number\) and came back, has no gradient; build the result from the inputs with tf ops$/,
    zh: () => "你的结果不依赖这个用例求导的输入：常量（tf.scalar(0)），或者离开过 TensorFlow.js（dataSync、arraySync、JS 数字）又回来的值，都没有梯度；请用 tf 算子从输入构造结果",
  },
  { code: "used-after-dispose", en: /^a tensor was used after it was disposed \(did a tf\.tidy free something you return\?\)$/, zh: () => "一个张量在释放（dispose）之后又被使用了（是不是 tf.tidy 释放了你要返回的东西？）" },
  {
    code: "no-broadcast",
    en: /^the shapes of the two operands do not broadcast: line them up with expandDims\/reshape \(e\.g\. \[B\] → \[B, 1\]\)$/,
    zh: () => "两个操作数的形状无法广播：用 expandDims/reshape 把它们对齐（例如 [B] → [B, 1]）",
  },
  // The sandbox's resolver (bundle.ts), inside the learner's process.
  {
    code: "uses-unwritten",
    en: /^(?<g>[\w-]+) uses (?<n>[\w$]+) from (?<l>[\w-]+), which you have not written yet: finish \k<l> first \(npm run grade \k<l>\)$/,
    zh: (g) => `${g.g} 用到了 ${g.l} 的 ${g.n}，而你还没有写它：先完成 ${g.l}（npm run grade ${g.l}）`,
  },
  {
    code: "not-available",
    en: /^(?<l>[\w-]+)'s (?<n>[\w$]+) is not available while (?<g>[\w-]+) is graded(?<rest>: an exercise may use other lessons' functions only|: no file of your [\w-]+ folder exports it)?$/,
    zh: (g) => {
      const rest = g.rest === undefined ? "" : g.rest.startsWith(": an exercise") ? "：练习只能使用其他课程的函数" : `：你的 ${g.l} 文件夹里没有文件导出它`;
      return `给 ${g.g} 评分时不能使用 ${g.l} 的 ${g.n}${rest}`;
    },
  },

  // grader/vitest/suite.ts: a lesson the grade project could not grade.
  { code: "could-not-grade", en: /^could not grade (?<l>[\w-]+): (?<m>.*)$/s, zh: (g) => `无法评分 ${g.l}：${zhLine(g.m)}` },
  { code: "no-case-result", en: /^this case reported no result$/, zh: () => "这个用例没有报告结果" },
  { code: "no-plan", en: /^the grading made no plan$/, zh: () => "评分没有生成用例计划" },

  // ── sandbox.ts osSandboxNote: the note under a report ──
  {
    code: "no-os-sandbox",
    en: /^no OS sandbox here \((?<w>.*)\): your code runs under Node's permission model only, and can see and signal other processes of your user$/s,
    zh: (g) => `这里没有操作系统级的沙箱（${zhLine(g.w)}）：你的代码只受 Node 权限模型（permission model）的约束，能看到你这个用户的其他进程并向它们发送信号`,
  },
  { code: "no-namespaces", en: /^no namespaces on (?<p>\w+)$/, zh: (g) => `${g.p} 上没有命名空间（namespaces）` },
  { code: "no-userns", en: /^unprivileged user namespaces are not available \((?<w>.*)\)$/s, zh: (g) => `无特权用户命名空间（unprivileged user namespaces）不可用（${g.w}）` },
  { code: "no-unshare", en: /^unshare could not start \((?<w>.*); it is in util-linux\)$/s, zh: (g) => `unshare 无法启动（${g.w}；它在 util-linux 软件包里）` },
];

/** The Chinese text of one English line, or undefined when no rule knows it. */
function known(line: string): string | undefined {
  for (const r of RULES) {
    const m = r.en.exec(line);
    if (!m) continue;
    const zhText = r.zh(m.groups ?? {});
    // "<file> imports …" only when what follows is itself a refusal this table knows.
    if (r.code === "file-imports" && zhText === `${m.groups!.f} ${m.groups!.rest}`) continue;
    return zhText;
  }
  return undefined;
}

/** One line of an engine message in Chinese; unchanged when no rule knows it. */
function zhLine(line: string): string {
  return known(line) ?? line;
}

/** The code of the rule that translates `line` (tests check that every English family has one). */
export function messageCode(line: string): string | undefined {
  for (const r of RULES) {
    if (!r.en.test(line)) continue;
    if (r.code === "file-imports" && known(line) === undefined) continue;
    return r.code;
  }
  return undefined;
}

/**
 * An engine message (a case's message or detail line, a load error, a fatal message, the sandbox
 * note) in Chinese, line by line, under zh(); the text itself otherwise.
 */
export function zhMessage(text: string): string {
  if (!zh()) return text;
  return text
    .split("\n")
    .map((l) => {
      const indent = /^\s*/.exec(l)![0];
      return indent + zhLine(l.slice(indent.length));
    })
    .join("\n");
}

/** A case result with its message and details in Chinese under zh(); the same object otherwise. */
export function localiseCase<R extends { message?: string; details?: readonly string[] }>(r: R): R {
  if (!zh()) return r;
  return { ...r, ...(r.message !== undefined ? { message: zhMessage(r.message) } : {}), ...(r.details ? { details: r.details.map(zhMessage) } : {}) };
}
