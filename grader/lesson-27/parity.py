"""Golden fixtures for lesson 27: MiniMind's parse_response, which turns a reply into an OpenAI
message (scripts/serve_openai_api.py:83-102 at d65ef2c), on seeded replies with thinking blocks,
tool calls, broken JSON and whitespace. Python's own re, str.strip and json do the work, so the
fixture records what Python does. The call id is `f"{prefix}_{i}"`: MiniMind puts int(time.time())
where the fixture puts a fixed prefix, so that the expected values do not change by the second.
Run: npm run fixtures lesson-27
"""
import json
import random
import re

from common import MINIMIND, write_fixture


def parse_response(text, prefix):
    """serve_openai_api.py:83-102, with the id's time replaced by `prefix`."""
    reasoning = None
    found = re.search(r"<think>(.*?)</think>", text, re.DOTALL)
    if found:
        reasoning = found.group(1).strip()
        text = re.sub(r"<think>.*?</think>\s*", "", text, flags=re.DOTALL)
    elif "</think>" in text:
        head, tail = text.split("</think>", 1)
        reasoning = head.strip()
        text = tail.strip()
    calls = []
    for i, body in enumerate(re.findall(r"<tool_call>(.*?)</tool_call>", text, re.DOTALL)):
        try:
            call = json.loads(body.strip())
            calls.append({"id": f"{prefix}_{i}", "type": "function",
                          "function": {"name": call.get("name", ""),
                                       "arguments": json.dumps(call.get("arguments", {}), ensure_ascii=False)}})
        except Exception:
            pass
    if calls:
        text = re.sub(r"<tool_call>.*?</tool_call>", "", text, flags=re.DOTALL)
    return {"content": text.strip(), "reasoningContent": reasoning, "toolCalls": calls or None}


WORDS = ["the", "weather", "is", "sunny", "42", "你好", "模型", "café", "😀", "Paris", "x_1", "yes"]
SPACES = ["", " ", "\n", "\n\n", "\t", " \n ", "\u3000", "\x85"]
NAMES = ["get_weather", "search", "calc", "lookup"]


def words(rng, lo, hi):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))


def tool_block(rng):
    kind = rng.random()
    if kind < 0.55:
        args = {rng.choice(["city", "q", "n", "units"]): rng.choice(["Paris", "東京", 3, 2.5, True, None, ["a", "b"], {"deep": [1, {"x": "y"}]}]) for _ in range(rng.randint(0, 3))}
        body = json.dumps({"name": rng.choice(NAMES), "arguments": args}, ensure_ascii=False, separators=rng.choice([(",", ":"), (", ", ": ")]))
    elif kind < 0.7:
        body = json.dumps({"name": rng.choice(NAMES)})  # no arguments: {} is used
    elif kind < 0.8:
        body = json.dumps({"arguments": {"q": "no name"}})
    elif kind < 0.9:
        body = '{"name": "broken", "arguments": {'  # not JSON: skipped, but still numbered
    else:
        body = json.dumps(["not", "an", "object"])  # JSON, but not an object: skipped
    return f"<tool_call>{rng.choice(SPACES)}{body}{rng.choice(SPACES)}</tool_call>"


def reply(rng):
    parts = []
    shape = rng.random()
    if shape < 0.35:
        parts.append(f"{rng.choice(SPACES)}<think>{rng.choice(SPACES)}{words(rng, 0, 6)}{rng.choice(SPACES)}</think>{rng.choice(SPACES)}")
    elif shape < 0.55:
        parts.append(f"{words(rng, 0, 5)}{rng.choice(SPACES)}</think>{rng.choice(SPACES)}")  # the prompt opened the think block
    parts.append(words(rng, 0, 5))
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        parts.append(rng.choice(SPACES) + tool_block(rng))
    if rng.random() < 0.2:
        parts.append(f"{rng.choice(SPACES)}<think>{words(rng, 1, 3)}</think>")  # a second think block
    parts.append(rng.choice(SPACES) + words(rng, 0, 3) + rng.choice(SPACES))
    return "".join(parts)


def main():
    cases = []
    for seed in (1, 2, 3):
        rng = random.Random(seed)
        for k in range(8):
            text = reply(rng)
            prefix = f"call_{seed}{k}"
            cases.append({"name": f"seed {seed} reply {k}", "inputs": {"text": text, "idPrefix": prefix}, "expected": parse_response(text, prefix)})
    write_fixture("lesson-27", MINIMIND, {"parseAssistantText": cases})


if __name__ == "__main__":
    main()
