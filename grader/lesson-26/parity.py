"""Golden fixtures for lesson 26: MiniMind's agent-RL pieces (trainer/train_agent.py at d65ef2c),
re-expressed on seeded inputs:
- parse_tool_calls (77-82) and the way the rollout reads each call (137-141),
- the packing of a multi-turn rollout into one training row (123-130, 148-152, 255-264),
- calculate_rewards without a reward model (183-239), with its rep_penalty (34-37).
Python's own re, json and str do the text work and a float32 tensor holds the rewards, as in
MiniMind. Inputs that would make MiniMind raise (a tool call that is a JSON list, whose .get fails)
are not generated. Run: npm run fixtures lesson-26
"""
import json
import random
import re

import torch

from common import MINIMIND, write_fixture


# ---- train_agent.py:34-37 ----
def rep_penalty(text, n=3, cap=0.5):
    toks = re.findall(r"\w+|[^\w\s]", text.lower())
    grams = [tuple(toks[i:i + n]) for i in range(len(toks) - n + 1)]
    return min(cap, (len(grams) - len(set(grams))) * cap * 2 / len(grams)) if grams else 0.0


# ---- train_agent.py:67-74, with the course's calculate tool beside calculate_math ----
CHECK_ARGS = {
    "calculate": lambda a: bool(a.get("expression")),
    "calculate_math": lambda a: bool(a.get("expression")),
    "unit_converter": lambda a: a.get("value") is not None and a.get("from_unit") and a.get("to_unit"),
    "get_current_weather": lambda a: bool(a.get("location")),
    "get_current_time": lambda a: True,
    "get_exchange_rate": lambda a: bool(a.get("from_currency")) and bool(a.get("to_currency")),
    "translate_text": lambda a: bool(a.get("text")) and bool(a.get("target_language")),
}


# ---- train_agent.py:77-82 ----
def parse_tool_calls(text):
    calls = []
    for m in re.findall(r'<tool_call>(.*?)</tool_call>', text, re.DOTALL):
        try: calls.append(json.loads(m.strip()))
        except: pass
    return calls


def read_call(call):
    """How the rollout reads one call (137-141): name, and arguments parsed when a string."""
    name, raw = call.get("name", ""), call.get("arguments", {})
    if isinstance(raw, str):
        try: raw = json.loads(raw)
        except: raw = {}
    return {"name": name if isinstance(name, str) else "", "arguments": raw if isinstance(raw, dict) else {}}


# ---- train_agent.py:183-239 (reward_model None) ----
def validate_gt_in_text(text, gt_list):
    text, text_num = str(text), str(text).replace(',', '')
    nums = [float(x) for x in re.findall(r'(?<![\w.])[-+]?\d+(?:\.\d+)?(?![\w.])', text_num)]
    return {g for g in gt_list if ((s := str(g).strip()) and s.lower() in text.lower()) or (re.fullmatch(r'[-+]?\d+(?:\.\d+)?', str(g).strip().replace(',', '')) and any(abs(float(str(g).strip().replace(',', '')) - n) < 1e-6 for n in nums))}


def calculate_rewards(completions, gt_batch, tools_batch, num_gen, turn_outputs_batch, unfinished_batch):
    rewards = torch.zeros(len(completions))
    for idx, response in enumerate(completions):
        reward, answer = 0.0, response
        sample_idx = idx // num_gen
        tools = tools_batch[sample_idx]
        turn_outputs = turn_outputs_batch[idx] if turn_outputs_batch is not None else [response]
        unfinished = unfinished_batch[idx] if unfinished_batch is not None else False
        turn_answers = [turn.split('</think>', 1)[-1].strip() if '</think>' in turn else turn.strip() for turn in turn_outputs]
        answer = turn_answers[-1] if turn_answers else response.strip()
        valid_names = {t['function']['name'] for t in tools} if tools else set()
        tool_calls = []
        for turn_answer in turn_answers: tool_calls.extend(parse_tool_calls(turn_answer))
        reward -= 0.5 * sum(abs(turn.count('<tool_call>') - turn.count('</tool_call>')) for turn in turn_answers)
        if not tool_calls:
            reward += 0.5 if 5 <= len(response.strip()) <= 800 else -0.5
            if '</think>' in response:
                think, answer = response.split('</think>', 1)
                reward += 1.0 if 20 <= len(think.strip()) <= 300 else -0.5
                reward += 0.25 if response.count('</think>') == 1 else -0.25
                answer = answer.strip()
            reward -= rep_penalty(answer)
            rewards[idx] = max(min(reward, 3.0), -3.0)
        else:
            gt = gt_batch[sample_idx]
            valid_call_count = 0
            for tool_call in tool_calls:
                name, raw = tool_call.get("name", ""), tool_call.get("arguments", {})
                if isinstance(raw, str):
                    try: raw = json.loads(raw)
                    except: raw = {}
                check = CHECK_ARGS.get(name)
                valid_call_count += int(bool(name in valid_names and check and check(raw)))
            tool_gap = abs(valid_call_count - len(gt)) + max(0, len(tool_calls) - valid_call_count)
            reward += 0.5 if tool_gap == 0 else -0.5 * tool_gap
            final_text = "" if unfinished else (answer.split('</tool_call>')[-1] if '</tool_call>' in answer else answer)
            verified = validate_gt_in_text(final_text, gt) if gt else set()
            if gt: reward += 2.5 * len(verified) / len(gt)
            if unfinished: reward -= 0.5
            reward -= rep_penalty(final_text if final_text else answer)
            rewards[idx] = max(min(reward, 3.0), -3.0)
    return rewards


# ---- train_agent.py:123-130, 148-152 (one rollout's lists) and 255-264 (the packing) ----
def pack(prompt_ids, turns, pad_id, eos_id, max_total_len):
    response_ids, response_mask, response_old_logps = [], [], []
    for turn in turns:
        pairs = [(t, lp) for t, lp in zip(turn["ids"], turn["logps"]) if t != pad_id and t != eos_id]
        new_ids = [t for t, _ in pairs]
        new_logps = [lp for _, lp in pairs]
        response_ids.extend(new_ids)
        response_mask.extend([1] * len(new_ids))
        response_old_logps.extend(new_logps)
        obs_delta = turn["observation"]
        response_ids.extend(obs_delta)
        response_mask.extend([0] * len(obs_delta))
        response_old_logps.extend([0.0] * len(obs_delta))
    p, r, m, old_lp = prompt_ids, response_ids, response_mask, response_old_logps
    ids = p + r
    mask = [0] * len(p) + m
    old_logps = [0.0] * max(len(p) - 1, 0) + old_lp
    if len(ids) > max_total_len:
        ids = ids[-max_total_len:]
        mask = mask[-max_total_len:]
        old_logps = old_logps[-(len(ids) - 1):]
    prompt_len = next((i for i, v in enumerate(mask) if v == 1), len(mask))
    return {"inputIds": ids, "mask": mask, "oldLogps": old_logps, "promptLen": prompt_len}


CALC = {"type": "function", "function": {"name": "calculate", "description": "Evaluate an arithmetic expression", "parameters": {"type": "object", "properties": {"expression": {"type": "string"}}, "required": ["expression"]}}}
WEATHER = {"type": "function", "function": {"name": "get_current_weather", "parameters": {}}}
UNITS = {"type": "function", "function": {"name": "unit_converter", "parameters": {}}}
SPACES = ["", " ", "\n", "\n\n", "\t", "\u3000", "\x85"]
WORDS = ["the", "answer", "is", "so", "café", "你好", "ok", "=", "+", "x5", "3.5", "1,200", "-7"]


def call_text(rng):
    kind = rng.random()
    if kind < 0.45:
        a, b = rng.randint(1, 9999), rng.randint(1, 999)
        body = json.dumps({"name": "calculate", "arguments": {"expression": f"{a}{rng.choice('+-*')}{b}"}}, separators=rng.choice([(",", ":"), (", ", ": ")]))
    elif kind < 0.55:
        body = json.dumps({"name": "calculate", "arguments": json.dumps({"expression": "2+2"})})  # arguments as a JSON string
    elif kind < 0.62:
        body = json.dumps({"name": "calculate", "arguments": {"expression": ""}})  # empty: not valid
    elif kind < 0.7:
        body = json.dumps({"name": rng.choice(["get_current_weather", "unit_converter", "no_such_tool"]), "arguments": rng.choice([{"location": "Paris"}, {"value": 0, "from_unit": "km", "to_unit": "miles"}, {}])})
    elif kind < 0.78:
        body = json.dumps({"name": "calculate"})  # no arguments
    elif kind < 0.86:
        body = json.dumps({"name": "calculate", "arguments": "not json"})
    else:
        body = '{"name": "calculate", "arguments": {'  # broken JSON: skipped
    return f"<tool_call>{rng.choice(SPACES)}{body}{rng.choice(SPACES)}</tool_call>"


def words(rng, lo, hi):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))


def turn_text(rng, gt, calls):
    parts = []
    if rng.random() < 0.3:
        parts.append(f"{words(rng, 0, 8)}{rng.choice(SPACES)}</think>{rng.choice(SPACES)}")
    parts.append(words(rng, 0, 4))
    for _ in range(calls):
        parts.append(rng.choice(SPACES) + call_text(rng))
    if rng.random() < 0.1:
        parts.append(rng.choice(["<tool_call>", "</tool_call>"]))  # an unbalanced tag
    if rng.random() < 0.5 and gt:
        parts.append(" " + rng.choice([gt[0], gt[0] + ".", f"{int(gt[0]):,}" if gt[0].isdigit() else gt[0], str(int(gt[0]) + 1) if gt[0].isdigit() else "nope"]))
    parts.append(rng.choice(SPACES) + words(rng, 0, 3))
    return "".join(parts)


def main():
    parse_cases = []
    for seed in (1, 2):
        rng = random.Random(260 + seed)
        for k in range(10):
            text = turn_text(rng, ["42"], rng.choice([0, 1, 1, 2, 3]))
            parse_cases.append({"name": f"seed {seed} text {k}", "inputs": {"text": text}, "expected": [read_call(c) for c in parse_tool_calls(text) if isinstance(c, dict)]})

    mask_cases = []
    for seed, max_total in ((1, 64), (2, 20), (3, 512)):
        rng = random.Random(2600 + seed)
        for k in range(4):
            prompt = [rng.randint(3, 2047) for _ in range(rng.randint(1, 12))]
            turns = []
            for t in range(rng.randint(0, 3)):
                n = rng.randint(0, 10 if max_total < 512 else 200)
                ids = [rng.choice([0, 2] + [rng.randint(3, 2047)] * 6) for _ in range(n)]
                logps = [round(-rng.random() * 4, 4) for _ in range(n)]
                obs = [rng.randint(3, 2047) for _ in range(rng.randint(0, 8 if max_total < 512 else 120))]
                turns.append({"ids": ids, "logps": logps, "observation": obs})
            inputs = {"promptIds": prompt, "turns": turns, "padId": 0, "eosId": 2, "maxTotalLen": max_total}
            mask_cases.append({"name": f"seed {seed} rollout {k} maxTotalLen={max_total}", "inputs": inputs, "expected": pack(prompt, turns, 0, 2, max_total)})

    reward_cases = []
    for seed in (1, 2, 3):
        rng = random.Random(26000 + seed)
        for k in range(8):
            gt = rng.choice([[str(rng.randint(10, 99999))], [], ["Paris"], ["12", "7"]])
            tools = rng.choice([[CALC], [CALC, WEATHER, UNITS], None])
            n_turns = rng.randint(1, 3)
            turns = [turn_text(rng, gt, rng.choice([0, 1, 1, 2]) if t < n_turns - 1 else rng.choice([0, 0, 0, 1])) for t in range(n_turns)]
            if rng.random() < 0.2:
                turns[-1] = rng.choice(["ok", "", "the answer is " * rng.randint(3, 12), "x" * rng.randint(790, 810)])
            unfinished = bool(parse_tool_calls(turns[-1])) and n_turns == 3
            rewards = calculate_rewards([turns[-1]], [gt], [tools], 1, [turns], [unfinished])
            reward_cases.append({
                "name": f"seed {seed} trajectory {k}",
                "inputs": {"trajectory": {"completion": turns[-1], "turnOutputs": turns, "unfinished": unfinished}, "gt": gt, "tools": tools},
                "expected": float(rewards[0]),
            })
    write_fixture("lesson-26", MINIMIND, {"parseToolCalls": parse_cases, "agentLossMask": mask_cases, "agentReward": reward_cases})


if __name__ == "__main__":
    main()
