/**
 * Golden fixtures for lesson 4's bpeEncode and bpeDecode: what Hugging Face's tokenizers library
 * (its JavaScript edition, @huggingface/tokenizers) gives for MiniMind's own tokenizer.json
 * (datasets/minimind-tokenizer/, model/tokenizer.json @ d65ef2c) on hard text. Python's
 * `tokenizers` package is not installable here; this is the same library's reference port.
 * Writes grader/lesson-4/fixture-tokenizers.json. Run: npx tsx grader/lesson-4/parity-tokenizers.ts
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Tokenizer } from "@huggingface/tokenizers";
import { ROOT, fixtureFile } from "../engine/paths.js";

const dir = join(ROOT, "datasets", "minimind-tokenizer");
const read = (f: string) => JSON.parse(readFileSync(join(dir, f), "utf8"));
const hf = new Tokenizer(read("tokenizer.json"), read("tokenizer_config.json"));

const TEXTS: Array<[string, string]> = [
  ["a system prompt and a question", "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nWhat is 17 × 23?<|im_end|>\n"],
  ["CJK with full-width punctuation", "星际航行是指在星系内甚至星系间的空间中进行的航行。「你好」，『世界』！"],
  ["emoji sequences and a flag", "🧑🏿‍🚀 ❤️‍🔥 🇫🇷 👩‍❤️‍💋‍👨 #️⃣"],
  ["combining marks and Hangul jamo", "Ṩ̣̇ q̣̇ 각 Zalgo: Z̴̡͔a̸̟l̷̰g̶̣o̵̜"],
  ["whitespace: tabs, CRLF, spaces before a newline, trailing spaces", "x\t\t\ty\r\n  \n    z   "],
  ["non-special added tokens and look-alikes", "<think>maybe</think> <tool_response>42</tool_response> <|buffer1|> <|im_start"],
];

const encode = TEXTS.map(([name, text]) => ({ name, text, expected: hf.encode(text, { add_special_tokens: false }).ids }));
const decode = [
  { name: "a whole chat turn", ids: hf.encode(TEXTS[0][1], { add_special_tokens: false }).ids },
  { name: "the first 7 ids of an emoji text (cut inside a character)", ids: hf.encode(TEXTS[2][1], { add_special_tokens: false }).ids.slice(0, 7) },
].map((c) => ({ ...c, expected: hf.decode(c.ids, { skip_special_tokens: false }) }));

const out = { generator: "grader/lesson-4/parity-tokenizers.ts", source: "jingyaogong/minimind@d65ef2c00ebc6082f9df11541e1b191655eddb00 model/tokenizer.json", library: "@huggingface/tokenizers 0.2.0", bpeEncode: encode, bpeDecode: decode };
const file = fixtureFile("lesson-4", "tokenizers");
writeFileSync(file, JSON.stringify(out) + "\n");
console.log(`wrote ${relative(ROOT, file)}: bpeEncode ${encode.length}, bpeDecode ${decode.length}`);
