"""Golden fixtures for lesson 25: MiniMind's per-token log-probs, PPO response masks, rule-based
rewards, approximate KL and clip fraction, in PyTorch on seeded inputs.

Each function restates the cited lines at d65ef2c (same ops, same order, float32) without the
models around them: a "model" is replaced by the logits it would return. The temperature cases of
perTokenLogps restate AReaL's _gather_logprobs (areal/utils/functional/vocab_parallel.py:15-20 at
4aef98d8): logits / T before the log-softmax, as its training engine computes log-probabilities.
Run: npm run fixtures lesson-25
"""
import re

import torch

from common import AREAL, MINIMIND, write_fixture

EOS, PAD = 2, 0


def compute_per_token_logps(full_logits, input_ids, n_keep):
    """rollout_engine.py:24-36; `full_logits[:, -(n_keep + 1):]` is what logits_to_keep=n_keep+1 returns
    (model/model_minimind.py:247-248)."""
    if n_keep <= 0:
        return input_ids.new_empty((input_ids.size(0), 0), dtype=torch.float32)
    logits = full_logits[:, -(n_keep + 1):, :][:, :-1, :]
    per_token_logps = []
    for logits_row, ids_row in zip(logits, input_ids[:, -n_keep:]):
        per_token_logps.append(torch.gather(logits_row.log_softmax(dim=-1), 1, ids_row.unsqueeze(1)).squeeze(1))
    return torch.stack(per_token_logps)


def gather_logprobs(logits, labels, temperature=1.0):
    """AReaL vocab_parallel.py:15-20 (_gather_logprobs), on the positions that score `labels`."""
    log_probs = torch.nn.functional.log_softmax(logits.float() / temperature, dim=-1)
    log_probs_labels = log_probs.gather(dim=-1, index=labels.unsqueeze(-1)).squeeze(-1)
    return log_probs_labels


def temperature_scenarios():
    """Seeded logits scored at temperatures below and above 1 (the labels are the next tokens)."""
    cases = []
    for seed, B, T, L, V, n_keep, temperature in [(11, 2, 10, 10, 16, 6, 0.7), (12, 3, 8, 5, 32, 4, 1.3), (13, 1, 520, 513, 8, 512, 0.5)]:
        g = torch.Generator().manual_seed(seed)
        cases.append((f"AReaL gather_logprobs, seed {seed}: B={B} T={T} L={L} V={V} nKeep={n_keep} T_sample={temperature:g}",
                      torch.randn(B, L, V, generator=g) * 3, torch.randint(0, V, (B, T), generator=g), n_keep, temperature))
    return cases


def response_policy_mask(resp_labels, completion_mask, eos_token_id):
    """train_ppo.py:120, 122-126."""
    resp_idx = torch.arange(resp_labels.size(1)).unsqueeze(0)
    resp_pad_mask = completion_mask.bool()
    resp_lengths = resp_pad_mask.sum(dim=1); eos_mask = resp_labels.eq(eos_token_id) & resp_pad_mask
    has_eos = eos_mask.any(dim=1); eos_pos = torch.argmax(eos_mask.int(), dim=1)
    resp_lengths = torch.where(has_eos, eos_pos + 1, resp_lengths).long().clamp(min=1)
    return ((resp_idx < resp_lengths.unsqueeze(1)) & resp_pad_mask).float()


def rep_penalty(text, n=3, cap=0.5):
    """train_ppo.py:29-32."""
    toks = re.findall(r"\w+|[^\w\s]", text.lower())
    grams = [tuple(toks[i:i + n]) for i in range(len(toks) - n + 1)]
    return min(cap, (len(grams) - len(set(grams))) * cap * 2 / len(grams)) if grams else 0.0


def rule_rewards(responses):
    """train_ppo.py:51-75 without the reward model (its prompt parsing and score are left out)."""
    rewards = torch.zeros(len(responses))
    for i, response in enumerate(responses):
        answer = response
        rewards[i] += 0.5 if 20 <= len(response.strip()) <= 800 else -0.5
        if '</think>' in response:
            thinking_content, answer_content = response.split('</think>', 1)
            rewards[i] += 1.0 if 20 <= len(thinking_content.strip()) <= 300 else -0.5
            rewards[i] += 0.25 if response.count('</think>') == 1 else -0.25
            answer = answer_content.strip()
        rewards[i] -= rep_penalty(answer)
    return rewards


def approx_kl(log_ratio, mask):
    """train_ppo.py:194."""
    return (0.5 * (log_ratio ** 2) * mask).sum() / mask.sum().clamp(min=1)


def clip_fraction(ratio, mask, clip_epsilon):
    """train_ppo.py:205-206."""
    return ((((ratio - 1.0).abs() > clip_epsilon).float() * mask).sum() / mask.sum().clamp(min=1))


# ----- inputs -----

def worked_batch():
    """lessons/25-reward-logprob-kl.md § Worked example: B=2, a 2-token prompt, R=3, V=4."""
    logits = torch.tensor([
        [[0.5, 1.0, -1.0, 2.0], [0.0, 0.5, 1.5, 0.5], [2.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0]],
        [[0.0, 1.0, 0.0, 1.0], [0.0, 2.0, -1.0, 0.0], [-1.0, 0.5, 0.5, 1.5], [0.0, 0.0, 3.0, 0.0]],
    ])
    input_ids = torch.tensor([[1, 3, 3, 2, 0], [1, 1, 3, 1, 3]])
    completion_ids = input_ids[:, 2:]
    pad_mask = torch.ones(2, 3)
    log_ratio = torch.tensor([[0.1, -0.3, 0.3], [0.05, 0.25, -0.2]])
    return logits, input_ids, completion_ids, pad_mask, log_ratio


def logp_scenarios():
    cases = []
    logits, input_ids, _, _, _ = worked_batch()
    cases.append(("worked example: B=2 T=5, logits for the last 4 positions, V=4, nKeep=3", logits, input_ids, 3))
    for seed, B, T, L, V, n_keep, scale in [
        (1, 3, 12, 12, 16, 5, 1.0),  # a full forward pass: L = T
        (2, 2, 9, 9, 32, 8, 1.0),  # every token but the first
        (3, 1, 3, 2, 8, 1, 1.0),  # one kept token, L = nKeep + 1
        (4, 2, 24, 17, 128, 16, 8.0),  # large logits: log_softmax must be stable
        (5, 2, 6, 6, 8, 0, 1.0),  # nKeep = 0: an empty result
    ]:
        g = torch.Generator().manual_seed(seed)
        cases.append((f"PyTorch seed {seed}: B={B} T={T} L={L} V={V} nKeep={n_keep}" + (f", logits ×{scale:g}" if scale != 1 else ""),
                      torch.randn(B, L, V, generator=g) * scale, torch.randint(0, V, (B, T), generator=g), n_keep))
    return cases


def mask_scenarios():
    _, _, completion_ids, pad_mask, _ = worked_batch()
    cases = [("worked example: one EOS row, one row without EOS, all positions real", completion_ids, pad_mask)]
    ids = torch.tensor([
        [5, 6, EOS, PAD, PAD, PAD],  # EOS then padding
        [5, 6, 7, 8, PAD, PAD],  # no EOS, padded tail
        [EOS, PAD, PAD, PAD, PAD, PAD],  # EOS first
        [5, EOS, 6, EOS, 7, 8],  # two EOS: the first counts
        [5, 6, 7, PAD, EOS, PAD],  # an EOS in the padding is ignored
        [5, PAD, 6, 7, 8, 9],  # a hole in the pad mask, no EOS: length = count of real positions
        [5, EOS, 6, 7, 8, PAD],  # an EOS in a hole of the pad mask is ignored too
        [PAD] * 6,  # nothing real: length clamps to 1, the mask is still empty
        [5, 6, 7, 8, 9, 10],  # no EOS, no padding: the whole window
    ])
    pad = torch.tensor([
        [1, 1, 1, 0, 0, 0], [1, 1, 1, 1, 0, 0], [1, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1],
        [1, 1, 1, 0, 0, 0], [1, 0, 1, 1, 1, 1], [1, 0, 1, 1, 1, 0], [0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1],
    ], dtype=torch.float32)
    cases.append(("hand-made rows: EOS, no EOS, EOS first, two EOS, EOS in padding, holes, all pad, full", ids, pad))
    for seed, B, R in [(1, 5, 12), (2, 4, 512)]:
        g = torch.Generator().manual_seed(seed)
        ids = torch.randint(3, 40, (B, R), generator=g)
        lengths = torch.randint(1, R + 1, (B,), generator=g)
        pad = (torch.arange(R).unsqueeze(0) < lengths.unsqueeze(1)).float()
        for b in range(B):
            for _ in range(b % 3):  # 0, 1 or 2 EOS tokens, possibly in the padding
                ids[b, int(torch.randint(0, R, (1,), generator=g))] = EOS
        ids = torch.where(pad.bool(), ids, torch.full_like(ids, PAD))
        ids[0, int(torch.randint(0, R, (1,), generator=g))] = EOS  # row 0 gets one more, real or in its padding
        cases.append((f"PyTorch seed {seed}: B={B} R={R}, ragged padding, 0-2 EOS per row", ids, pad))
    return cases


def text_scenarios():
    rep = [
        ("worked example", "The answer is 42. The answer is 42!", 3, 0.5),
        ("empty text", "", 3, 0.5),
        ("two tokens: no trigram", "hello world", 3, 0.5),
        ("one word repeated: capped", "a a a a a a a a", 3, 0.5),
        ("case folding", "The cat THE CAT the Cat", 2, 0.5),
        ("punctuation glued to words", "well,well,well,well,well", 3, 0.5),
        ("Chinese: one \\w+ token per run", "我喜欢学习。我喜欢学习。我喜欢学习。", 3, 0.5),
        ("mixed scripts", "今天天气很好，今天天气很好！Today is good, today is good.", 2, 0.5),
        ("emoji are single tokens", "😀😀😀 ok ok ok 😀😀😀", 3, 0.5),
        ("Greek final sigma", "ΟΔΟΣ ΟΔΟΣ ΟΔΟΣ ΟΔΟΣ", 2, 0.5),
        ("digits, underscores, superscripts", "x_1 = 2² + ½; x_1 = 2² + ½", 3, 0.5),
        ("Python whitespace: \\x1c and NEL are spaces, the BOM is a token", "\ufeff the cat\x1cthe cat\x85the dog", 2, 1.0),
        ("unigrams, cap 1", "to be or not to be", 1, 1.0),
        ("combining marks split words", "cafe\u0301 cafe\u0301 cafe\u0301", 2, 0.5),
    ]
    think = "<think>\n" + "x" * 12 + "\n</think>\n"
    rewards = [
        ("worked example, think block", "<think>\nA greeting: answer briefly.\n</think>\nHello! How can I help you today?"),
        ("worked example, repeated answer", "The answer is 42. The answer is 42!"),
        ("empty response", ""),
        ("19 characters", "a" * 19),
        ("20 characters", "b" * 20),
        ("19 characters and padding whitespace", "  " + "c" * 19 + "\n\n"),
        ("800 characters", "d" * 800),
        ("801 characters", "e" * 801),
        ("15 emoji: 15 code points, 30 UTF-16 units", "😀" * 15),
        ("401 emoji", "🙂" * 401),
        ("19 characters then NEL (Python strips it)", "f" * 19 + "\x85"),
        ("a BOM then 19 characters (Python keeps it)", "\ufeff" + "g" * 19),
        ("ideographic spaces around Chinese", "\u3000" + "你好" * 10 + "\u3000"),
        ("thinking of exactly 20 after strip", "<think>" + "h" * 13 + "  </think>The final answer is yes."),
        ("thinking of 300", "<think>" + "i" * 293 + "</think>ok"),
        ("thinking of 301", "<think>" + "j" * 294 + "</think>ok"),
        ("empty thinking", "</think>Just the answer, nothing else here."),
        ("two </think>", think + "answer one </think> answer two, and more words"),
        ("repetition inside the thinking only", "<think>go go go go go go go go go go</think>A short and varied answer."),
        ("repetition after the first </think>", think + "yes yes yes yes yes yes </think> no no no"),
        ("Chinese with a think block", "<think>用户在打招呼，我应该礼貌地回应并询问需要什么帮助。</think>你好！有什么可以帮你的吗？你好！"),
        ("no think tags, repeated", "Sure. Sure. Sure. Sure. Sure. Sure. Sure. Sure."),
    ]
    return rep, rewards


def ratio_scenarios():
    _, _, completion_ids, pad_mask, log_ratio = worked_batch()
    cases = [("worked example: B=2 R=3, ε=0.2", log_ratio, response_policy_mask(completion_ids, pad_mask, EOS), 0.2)]
    for seed, B, R, std, eps, all_masked in [(1, 4, 9, 0.3, 0.2, False), (2, 6, 16, 0.8, 0.1, False), (3, 1, 1, 0.5, 0.2, False),
                                             (4, 3, 512, 0.25, 0.2, False), (5, 2, 5, 0.5, 0.2, True)]:
        g = torch.Generator().manual_seed(seed)
        lengths = torch.randint(0, R + 1, (B,), generator=g)
        lengths[0] = R
        mask = (torch.arange(R).unsqueeze(0) < lengths.unsqueeze(1)).float()
        if all_masked:
            mask = torch.zeros(B, R)
        name = f"PyTorch seed {seed}: B={B} R={R}, log-ratio std {std}, ε={eps}" + (", every token masked" if all_masked else "")
        cases.append((name, torch.randn(B, R, generator=g) * std, mask, eps))
    boundary = torch.log(torch.tensor([[1.5, 0.5, 1.25, 0.75, 1.0, 2.0]]))
    cases.append(("ratios exactly on 1 ± ε (ε=0.5 and 0.25 rows)", torch.cat([boundary, boundary]), torch.ones(2, 6), 0.5))
    return cases


def main():
    torch.manual_seed(0)
    cases = {k: [] for k in ["perTokenLogps", "ppoResponseMask", "repetitionPenalty", "ruleReward", "approxKl", "clipFraction"]}
    for name, logits, ids, n_keep in logp_scenarios():
        cases["perTokenLogps"].append({"name": name, "inputs": {"logits": logits, "inputIds": ids, "nKeep": n_keep},
                                       "expected": compute_per_token_logps(logits, ids, n_keep)})
    for name, logits, ids, n_keep, temperature in temperature_scenarios():
        scoring, labels = logits[:, -(n_keep + 1):-1, :], ids[:, -n_keep:]
        cases["perTokenLogps"].append({"name": name, "inputs": {"logits": logits, "inputIds": ids, "nKeep": n_keep, "temperature": temperature},
                                       "expected": gather_logprobs(scoring, labels, temperature)})
    for name, ids, pad in mask_scenarios():
        cases["ppoResponseMask"].append({"name": name, "inputs": {"completionIds": ids, "padMask": pad, "eosTokenId": EOS},
                                         "expected": response_policy_mask(ids, pad, EOS)})
    rep, responses = text_scenarios()
    for name, text, n, cap in rep:
        cases["repetitionPenalty"].append({"name": f"{name} (n={n}, cap={cap:g})", "inputs": {"text": text, "n": n, "cap": cap},
                                           "expected": rep_penalty(text, n, cap)})
    rewards = rule_rewards([text for _, text in responses]).tolist()
    for (name, text), reward in zip(responses, rewards):
        cases["ruleReward"].append({"name": name, "inputs": {"response": text}, "expected": reward})
    for name, log_ratio, mask, eps in ratio_scenarios():
        cases["approxKl"].append({"name": name, "inputs": {"logRatio": log_ratio, "mask": mask}, "expected": approx_kl(log_ratio, mask)})
        ratio = torch.exp(log_ratio)
        cases["clipFraction"].append({"name": name, "inputs": {"ratio": ratio, "mask": mask, "eps": eps},
                                      "expected": clip_fraction(ratio, mask, eps)})
    write_fixture("lesson-25", f"{MINIMIND}:trainer/train_ppo.py, trainer/rollout_engine.py; {AREAL}:areal/utils/functional/vocab_parallel.py", cases)


if __name__ == "__main__":
    main()
