"""MiniMind's data pipeline (dataset/lm_dataset.py @ d65ef2c) restated for the fixtures of lessons
5, 6 and 21, with two substitutions that make it reproducible in TypeScript:

- randomness is a replayed list of uniforms: `random.random()` becomes `r()`, and
  `random.choice(xs)` becomes `xs[int(r() * len(xs))]` (Python's choice draws differently; the
  course states its rule and both sides follow it);
- the tokenizer is a character-level stand-in: ids are code points, `<|im_start|>`/`<|im_end|>`
  are the bos/eos strings with ids 1/2, pad is 0. The label and mask scans see the markers as
  multi-id sequences, exactly as they see MiniMind's `<|im_start|>assistant\\n` (several ids).
The chat template is MiniMind's own, rendered by jinja2 as transformers does (grader/lesson-4/parity.py's template).
"""
import json

from lesson_4 import template

BOS, EOS, PAD_ID, BOS_ID, EOS_ID = "<|im_start|>", "<|im_end|>", 0, 1, 2


def replay(values):
    it = iter(values)
    return lambda: next(it)


def encode(text):
    return [ord(c) for c in text]


def pre_processing_chat(conversations, r, system_prompts, add_system_ratio=0.2):
    """lm_dataset.py:9-29."""
    if any(conv.get('tools') for conv in conversations): return conversations
    if conversations[0].get('role') != 'system':
        if r() < add_system_ratio:
            return [{'role': 'system', 'content': system_prompts[int(r() * len(system_prompts))]}] + conversations
    return conversations


def post_processing_chat(prompt_content, r, empty_think_ratio=0.2):
    """lm_dataset.py:31-35."""
    if '<think>\n\n</think>\n\n' in prompt_content and r() > empty_think_ratio:
        prompt_content = prompt_content.replace('<think>\n\n</think>\n\n', '')
    return prompt_content


def generate_labels(input_ids, bos_id, eos_id, max_length):
    """lm_dataset.py:88-104 (generate_loss_mask, 176-192, is the same scan writing 1s)."""
    labels = [-100] * len(input_ids)
    i = 0
    while i < len(input_ids):
        if input_ids[i:i + len(bos_id)] == bos_id:
            start = i + len(bos_id)
            end = start
            while end < len(input_ids):
                if input_ids[end:end + len(eos_id)] == eos_id:
                    break
                end += 1
            for j in range(start, min(end + len(eos_id), max_length)):
                labels[j] = input_ids[j]
            i = end + len(eos_id) if end < len(input_ids) else len(input_ids)
        else:
            i += 1
    return labels


def apply_chat_template(messages, tools=None, add_generation_prompt=False):
    return template().render(messages=messages, tools=tools, add_generation_prompt=add_generation_prompt)


def create_chat_prompt(conversations):
    """lm_dataset.py:71-86."""
    messages = []
    tools = None
    for message in conversations:
        message = dict(message)
        if message.get("role") == "system" and message.get("tools"):
            tools = json.loads(message["tools"]) if isinstance(message["tools"], str) else message["tools"]
        if message.get("tool_calls") and isinstance(message["tool_calls"], str):
            message["tool_calls"] = json.loads(message["tool_calls"])
        messages.append(message)
    return apply_chat_template(messages, tools=tools)


def sft_sample(conversations, r, system_prompts, max_length):
    """lm_dataset.py:65-66, 106-113."""
    bos_id = encode(f'{BOS}assistant\n')
    eos_id = encode(f'{EOS}\n')
    conversations = pre_processing_chat(conversations, r, system_prompts)
    prompt = create_chat_prompt(conversations)
    prompt = post_processing_chat(prompt, r)
    input_ids = encode(prompt)[:max_length]
    input_ids += [PAD_ID] * (max_length - len(input_ids))
    return {"inputIds": input_ids, "labels": generate_labels(input_ids, bos_id, eos_id, max_length)}


def pretrain_sample(text, max_length):
    """lm_dataset.py:47-55 (HF truncation to max_length - 2 is a slice)."""
    tokens = encode(str(text))[:max_length - 2]
    tokens = [BOS_ID] + tokens + [EOS_ID]
    input_ids = tokens + [PAD_ID] * (max_length - len(tokens))
    labels = [-100 if t == PAD_ID else t for t in input_ids]
    return {"inputIds": input_ids, "labels": labels}


def dpo_sample(chosen, rejected, r, max_length):
    """lm_dataset.py:135-174 (padding='max_length', truncation=True: a slice, then pad ids)."""
    bos_id = encode(f'{BOS}assistant\n')
    eos_id = encode(f'{EOS}\n')
    chosen_prompt = post_processing_chat(apply_chat_template(chosen), r)
    rejected_prompt = post_processing_chat(apply_chat_template(rejected), r)
    out = {}
    for key, prompt in (("Chosen", chosen_prompt), ("Rejected", rejected_prompt)):
        ids = encode(prompt)[:max_length]
        ids += [PAD_ID] * (max_length - len(ids))
        mask = [0 if v == -100 else 1 for v in generate_labels(ids, bos_id, eos_id, max_length)]
        out["x" + key] = ids[:-1]
        out["y" + key] = ids[1:]
        out["mask" + key] = mask[1:]
    return {k: out[k] for k in ("xChosen", "yChosen", "maskChosen", "xRejected", "yRejected", "maskRejected")}
