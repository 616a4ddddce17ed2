"""Golden fixtures for lesson 4: MiniMind's chat template rendered by jinja2, as transformers does.

renderChat must reproduce the `chat_template` string of model/tokenizer_config.json:333 at
d65ef2c character for character. This script renders MiniMind's own template (read from the
committed copy, datasets/minimind-tokenizer/tokenizer_config.json) with the environment that
transformers' apply_chat_template builds: a sandboxed jinja2 environment with trim_blocks,
lstrip_blocks, the loopcontrols extension and a `tojson` filter that is
json.dumps(x, ensure_ascii=False). No torch is needed for these cases.
Run: npm run fixtures lesson-4
"""
import json
import os

import re

import jinja2
import jinja2.ext
from jinja2.sandbox import ImmutableSandboxedEnvironment

from common import MINIMIND, ROOT, write_fixture


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def template():
    with open(os.path.join(ROOT, "datasets", "minimind-tokenizer", "tokenizer_config.json"), encoding="utf-8") as f:
        source = json.load(f)["chat_template"]
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[jinja2.ext.loopcontrols])
    env.filters["tojson"] = tojson
    return env.from_string(source)


WEATHER = {"type": "function", "function": {"name": "get_weather", "description": "Current weather for a city",
           "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "城市名"}}, "required": ["city"]}}}
CALC = {"type": "function", "function": {"name": "calculate", "description": "Evaluate an arithmetic expression",
        "parameters": {"type": "object", "properties": {"expression": {"type": "string"}}, "required": ["expression"]}}}

CASES = [
    ("system, user, assistant", [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "What is 2+3?"},
        {"role": "assistant", "content": "2+3 = 5."}], {}),
    ("two turns, no system, Chinese", [
        {"role": "user", "content": "你来自哪里？"},
        {"role": "assistant", "content": "我来自一个小小的训练脚本。"},
        {"role": "user", "content": "真的吗？"},
        {"role": "assistant", "content": "真的。"}], {}),
    ("reasoning_content given", [
        {"role": "user", "content": "Is 91 prime?"},
        {"role": "assistant", "content": "\n\nNo: 91 = 7 × 13.", "reasoning_content": "\nTry 7: 7 × 13 = 91.\n\n"}], {}),
    ("think block inside content", [
        {"role": "user", "content": "Count the r's in 'mirror'."},
        {"role": "assistant", "content": "<think>\n\nm-i-r-r-o-r: three.\n</think>\n\nThere are 3."}], {}),
    ("content with a closing think only", [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "thinking aloud\n</think>\nHello!"}], {}),
    ("empty reasoning_content keeps a think block in content as text", [
        {"role": "user", "content": "x"},
        {"role": "assistant", "content": "<think>a</think>b", "reasoning_content": ""}], {}),
    ("missing content", [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": None},
        {"role": "assistant"}], {}),
    ("tools with a system prompt, object and string arguments, two tool responses", [
        {"role": "system", "content": "You can use tools."},
        {"role": "user", "content": "Weather in Paris and 17*23?"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"type": "function", "function": {"name": "get_weather", "arguments": {"city": "Paris"}}},
            {"name": "calculate", "arguments": "{\"expression\": \"17*23\"}"}]},
        {"role": "tool", "content": "{\"temp_c\": 18}"},
        {"role": "tool", "content": "391"},
        {"role": "assistant", "content": "Paris is 18 °C and 17*23 = 391."}], {"tools": [WEATHER, CALC]}),
    ("tools without a system prompt, a call after text", [
        {"role": "user", "content": "What is 12.5 * 4?"},
        {"role": "assistant", "content": "Let me compute that.", "tool_calls": [
            {"function": {"name": "calculate", "arguments": {"expression": "12.5 * 4", "precise": True, "digits": [1, 2]}}}]},
        {"role": "tool", "content": "50"},
        {"role": "assistant", "content": "<think>\nThe tool said 50.\n</think>\n\n50"}], {"tools": [CALC]}),
    ("a tool message first, a user turn after", [
        {"role": "tool", "content": "orphan"},
        {"role": "user", "content": "<tool_response>\nx\n</tool_response>"}], {}),
    ("a system message after the first", [
        {"role": "user", "content": "a"},
        {"role": "system", "content": "b"},
        {"role": "function", "content": "ignored role"},
        {"role": "assistant", "content": "c"}], {}),
    ("generation prompt, thinking closed", [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Say hi."}], {"add_generation_prompt": True}),
    ("generation prompt, thinking open", [
        {"role": "user", "content": "Say hi."}], {"add_generation_prompt": True, "open_thinking": True}),
    ("open_thinking without a generation prompt", [
        {"role": "user", "content": "tabs\tand  spaces"},
        {"role": "assistant", "content": "ok 👍🏽"}], {"open_thinking": True}),
    ("empty tools list is no tools", [
        {"role": "user", "content": "q"}], {"tools": [], "add_generation_prompt": True}),
]


# train_tokenizer.py:24-50 runs tokenizers' BpeTrainer with the ByteLevel pre-tokenizer and its full
# 256-character alphabet. Below, that trainer restated plainly for ASCII text (where GPT-2's \p{L}
# is [A-Za-z], \p{N} is [0-9] and \s is Python's): count pre-tokens, then repeatedly merge the
# most frequent adjacent pair, ties to the smallest (left id, right id) as tokenizers' heap does.
GPT2_ASCII = re.compile(r"'s|'t|'re|'ve|'m|'ll|'d| ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+(?!\S)|\s+")


def bytes_to_unicode():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {b: chr(c) for b, c in zip(bs, cs)}


def bpe_train(texts, vocab_size, special_tokens):
    table = bytes_to_unicode()
    tokens = list(special_tokens) + sorted(table.values())
    ids = {t: i for i, t in enumerate(tokens)}
    counts = {}
    for text in texts:
        for piece in GPT2_ASCII.findall(text):
            word = "".join(table[b] for b in piece.encode("utf-8"))
            counts[word] = counts.get(word, 0) + 1
    words = [(list(w), n) for w, n in counts.items()]
    merges = []
    while len(tokens) < vocab_size:
        pairs = {}
        for symbols, n in words:
            for a, b in zip(symbols, symbols[1:]):
                pairs[(a, b)] = pairs.get((a, b), 0) + n
        if not pairs:
            break
        (a, b), _ = min(pairs.items(), key=lambda kv: (-kv[1], ids[kv[0][0]], ids[kv[0][1]]))
        merges.append([a, b])
        if a + b not in ids:
            ids[a + b] = len(tokens)
            tokens.append(a + b)
        for k, (symbols, n) in enumerate(words):
            out, i = [], 0
            while i < len(symbols):
                if i + 1 < len(symbols) and symbols[i] == a and symbols[i + 1] == b:
                    out.append(a + b)
                    i += 2
                else:
                    out.append(symbols[i])
                    i += 1
            words[k] = (out, n)
    return {"merges": merges, "vocab": ids, "specialTokens": list(special_tokens)}


TRAIN_CASES = [
    ("MiniMind's 36 special tokens, English prose, 60 merges",
     ["The tokenizer learns merges from counts. The model then reads tokens, not bytes.",
      "Tokens that appear often become single ids; rare words stay split into pieces.",
      "It's the same rule at every step: count pairs, merge the most frequent, repeat."],
     None, 60),
    ("code-like text with digits and punctuation, 40 merges",
     ["def add(a, b):\n    return a + b\n\nprint(add(12, 30))  # 42\n", "x = [1, 2, 3]; y = x[::-1]\t# reversed\n"],
     ["<|endoftext|>"], 40),
]


def main():
    tpl = template()
    cases = []
    for name, messages, opts in CASES:
        kwargs = {"messages": messages, "tools": opts.get("tools"), "add_generation_prompt": opts.get("add_generation_prompt", False)}
        if "open_thinking" in opts:
            kwargs["open_thinking"] = opts["open_thinking"]
        text = tpl.render(**kwargs)
        ts_opts = {}
        if "tools" in opts:
            ts_opts["tools"] = opts["tools"]
        if "add_generation_prompt" in opts:
            ts_opts["addGenerationPrompt"] = opts["add_generation_prompt"]
        if "open_thinking" in opts:
            ts_opts["openThinking"] = opts["open_thinking"]
        cases.append({"name": name, "inputs": {"messages": messages, "options": ts_opts}, "expected": text})
    with open(os.path.join(ROOT, "datasets", "minimind-tokenizer", "tokenizer.json"), encoding="utf-8") as f:
        minimind_specials = [t["content"] for t in json.load(f)["added_tokens"]]
    train = []
    for name, texts, specials, n_merges in TRAIN_CASES:
        specials = minimind_specials if specials is None else specials
        size = len(specials) + 256 + n_merges
        train.append({"name": name, "inputs": {"texts": texts, "vocabSize": size, "specialTokens": specials},
                      "expected": bpe_train(texts, size, specials)})
    write_fixture("lesson-4", f"{MINIMIND} model/tokenizer_config.json:333 (jinja2 {jinja2.__version__}), "
                  "trainer/train_tokenizer.py:24-50", {"renderChat": cases, "bpeTrain": train})


if __name__ == "__main__":
    main()
