"""Golden fixtures for lesson 5: MiniMind's SFT sample (dataset/lm_dataset.py:9-35, 65-113 @ d65ef2c)
restated in minimind_data.py, with replayed uniforms and a character-level tokenizer.
Run: npm run fixtures lesson-5
"""
import json
import random

from common import MINIMIND, write_fixture
from minimind_data import encode, generate_labels, post_processing_chat, pre_processing_chat, replay, sft_sample

# solutions/lesson-5/sft.ts SYSTEM_PROMPTS (the course's own wording).
SYSTEM_PROMPTS = [
    "You are a helpful assistant.",
    "You are a small language model trained in this course. Answer clearly.",
    "You are a careful assistant: check your arithmetic before you answer.",
    "Answer briefly and accurately.",
    "你是一个乐于助人的助手。",
    "请用简洁准确的语言回答用户的问题。",
]

CALC_TOOLS = json.dumps([{"type": "function", "function": {"name": "calculate", "description": "Evaluate arithmetic",
                          "parameters": {"type": "object", "properties": {"expression": {"type": "string"}}}}}])
CONVERSATIONS = {
    "one turn": [{"role": "user", "content": "What is 7 + 8?"}, {"role": "assistant", "content": "7 + 8 = 15."}],
    "two turns, Chinese": [{"role": "user", "content": "你好"}, {"role": "assistant", "content": "你好！"},
                           {"role": "user", "content": "1+1=?"}, {"role": "assistant", "content": "2"}],
    "system prompt and reasoning": [{"role": "system", "content": "Think first."}, {"role": "user", "content": "Is 9 odd?"},
                                    {"role": "assistant", "content": "Yes.", "reasoning_content": "9 = 2*4 + 1."}],
    "tool call and response (tools as a JSON string)": [
        {"role": "system", "content": "Use tools.", "tools": CALC_TOOLS}, {"role": "user", "content": "17*23?"},
        {"role": "assistant", "content": "", "tool_calls": json.dumps([{"name": "calculate", "arguments": {"expression": "17*23"}}])},
        {"role": "tool", "content": "391"}, {"role": "assistant", "content": "391"}],
}


def main():
    rng = random.Random(5)
    labels = []
    start, end = [9, 8, 7], [6, 5]
    for n, length, max_length in ((1, 40, 40), (2, 64, 64), (3, 80, 60)):
        ids = [rng.randint(10, 20) for _ in range(length)]
        for _ in range(n):
            at = rng.randint(0, length - 12)
            ids[at:at + 3] = start
            stop = at + 3 + rng.randint(1, 6)
            ids[stop:stop + 2] = end
        if n == 3:
            ids[-5:-2] = start  # an unterminated span at the end
        ids = ids[:length]
        labels.append({"name": f"{n} assistant span(s) in {length} ids, maxLength {max_length}",
                       "inputs": {"inputIds": ids, "assistantStart": start, "assistantEnd": end, "maxLength": max_length},
                       "expected": generate_labels(ids, start, end, max_length)})

    pre = []
    for name, conv, draws in (("no system, draw below the ratio: a prompt is added", CONVERSATIONS["one turn"], [0.1, 0.7]),
                              ("no system, draw above the ratio: unchanged", CONVERSATIONS["one turn"], [0.5]),
                              ("a system message already: no draw", CONVERSATIONS["system prompt and reasoning"], []),
                              ("tools anywhere: unchanged, no draw", CONVERSATIONS["tool call and response (tools as a JSON string)"], [])):
        pre.append({"name": name, "inputs": {"conversations": conv, "random": draws, "systemPrompts": SYSTEM_PROMPTS, "addSystemRatio": 0.2},
                    "expected": pre_processing_chat(conv, replay(draws), SYSTEM_PROMPTS)})

    post = []
    text = "<|im_start|>assistant\n<think>\n\n</think>\n\nA<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\nB<|im_end|>\n"
    for name, prompt, draws in (("empty think blocks, draw above the ratio: all removed", text, [0.9]),
                                ("empty think blocks, draw at the ratio: kept", text, [0.2]),
                                ("a non-empty think block: no draw", "<think>\nx\n</think>\n\ny", [])):
        post.append({"name": name, "inputs": {"prompt": prompt, "random": draws, "emptyThinkRatio": 0.2},
                     "expected": post_processing_chat(prompt, replay(draws))})

    samples = []
    for (name, conv), draws, max_length in zip(CONVERSATIONS.items(), ([0.05, 0.4, 0.9], [0.9, 0.1], [0.5], [0.3]), (120, 90, 150, 700)):
        samples.append({"name": f"{name}, maxLength {max_length}", "inputs": {"conversations": conv, "random": draws, "maxLength": max_length},
                        "expected": sft_sample(conv, replay(draws), SYSTEM_PROMPTS, max_length)})

    write_fixture("lesson-5", f"{MINIMIND} dataset/lm_dataset.py:9-35, 65-113 (character-level tokenizer, replayed uniforms)",
                  {"sftLabels": labels, "preProcessingChat": pre, "postProcessingChat": post, "sftSample": samples})


if __name__ == "__main__":
    main()
