"""Golden fixtures for lesson 23: MiniMind's PPO computations in PyTorch, on seeded inputs.

Each function below restates trainer/train_ppo.py at d65ef2c line for line (same ops, same
order, float32), without the models around them. Run: npm run fixtures lesson-23
"""
import torch

from common import MINIMIND, write_fixture

EOS, PAD = 2, 0


def response_masks(completion_ids, pad_mask):
    """train_ppo.py:122-127: response length = first EOS + 1, else the non-pad count, at least 1."""
    resp_idx = torch.arange(completion_ids.size(1)).unsqueeze(0)
    resp_pad_mask = pad_mask.bool()
    resp_lengths = resp_pad_mask.sum(dim=1)
    eos_mask = completion_ids.eq(EOS) & resp_pad_mask
    has_eos = eos_mask.any(dim=1)
    eos_pos = torch.argmax(eos_mask.int(), dim=1)
    resp_lengths = torch.where(has_eos, eos_pos + 1, resp_lengths).long().clamp(min=1)
    return ((resp_idx < resp_lengths.unsqueeze(1)) & resp_pad_mask).float(), resp_lengths


def logp_positions(prompt_lens, R):
    """train_ppo.py:120-121."""
    resp_idx = torch.arange(R).unsqueeze(0)
    return prompt_lens.unsqueeze(1) - 1 + resp_idx


def masked_gae(token_rewards, old_resp_values, resp_policy_mask, gamma, lam):
    """train_ppo.py:139-150."""
    B = token_rewards.size(0)
    gen_len = old_resp_values.size(1); lastgaelam = torch.zeros(B); advs_rev = []
    for t in reversed(range(gen_len)):
        nv = old_resp_values[:, t + 1] if t < gen_len - 1 else 0.0
        delta = token_rewards[:, t] + gamma * nv - old_resp_values[:, t]
        lastgaelam = delta + gamma * lam * lastgaelam
        advs_rev.append(lastgaelam)
    advantages = torch.stack(advs_rev[::-1], dim=1)
    returns = advantages + old_resp_values
    adv_mean = (advantages * resp_policy_mask).sum() / resp_policy_mask.sum().clamp(min=1)
    adv_var = ((advantages - adv_mean) ** 2 * resp_policy_mask).sum() / resp_policy_mask.sum().clamp(min=1)
    advantages = (advantages - adv_mean) * torch.rsqrt(adv_var + 1e-8) * resp_policy_mask
    return {"advantages": advantages, "returns": returns}


def policy_loss(mb_resp_logp, old_resp_logp, advantages, mask, clip_epsilon):
    """train_ppo.py:180, 204, 209-211 (without the kl_coef term added on 212)."""
    log_ratio = mb_resp_logp - old_resp_logp
    ratio = torch.exp(log_ratio)
    return (torch.max(-advantages * ratio, -advantages * torch.clamp(ratio, 1.0 - clip_epsilon, 1.0 + clip_epsilon))
            * mask).sum() / mask.sum().clamp(min=1)


def kl_ref(mb_resp_logp, ref_resp_logp, mask):
    """train_ppo.py:207-208."""
    return ((torch.exp(ref_resp_logp - mb_resp_logp) - (ref_resp_logp - mb_resp_logp) - 1.0)
            * mask).sum() / mask.sum().clamp(min=1)


def value_loss(mb_resp_values, old_resp_values, returns, mask, cliprange_value):
    """train_ppo.py:213-216."""
    return 0.5 * (torch.max((mb_resp_values - returns) ** 2,
                            (torch.clamp(mb_resp_values, old_resp_values - cliprange_value,
                                         old_resp_values + cliprange_value) - returns) ** 2)
                  * mask).sum() / mask.sum().clamp(min=1)


def worked_example():
    """The batch of lessons/23-ppo-training-flow.md § Worked example (B=2, R=4)."""
    completion_ids = torch.tensor([[7, 9, EOS, PAD], [5, 6, 8, 4]])
    mask, lengths = response_masks(completion_ids, completion_ids.ne(PAD))
    rewards = torch.tensor([1.0, -0.5])
    token_rewards = torch.zeros(2, 4)
    token_rewards[torch.arange(2), lengths - 1] += rewards
    values = torch.tensor([[0.5, 0.4, 0.6, 0.3], [0.2, -0.1, 0.3, 0.1]]) * mask
    return {
        "promptLens": torch.tensor([3, 5], dtype=torch.int32),
        "tokenRewards": token_rewards, "values": values, "mask": mask,
        "oldLogps": torch.tensor([[-1.2, -0.7, -2.0, 0.0], [-0.9, -1.5, -0.3, -2.2]]),
        "newLogps": torch.tensor([[-1.0, -0.9, -1.6, 0.0], [-0.9, -1.1, -0.4, -2.6]]),
        "refLogps": torch.tensor([[-1.1, -0.8, -1.9, 0.0], [-1.0, -1.3, -0.3, -2.4]]),
        "newValues": torch.tensor([[0.9, 0.3, 0.55, 0.0], [0.25, 0.2, -0.1, 0.4]]),
    }


def random_batch(seed, B, R, values_masked):
    g = torch.Generator().manual_seed(seed)
    completion_ids = torch.randint(3, 50, (B, R), generator=g)
    pad_mask = torch.ones(B, R, dtype=torch.bool)
    for b in range(B):
        kind = b % 4
        if kind == 0:  # EOS somewhere, then padding after it
            e = int(torch.randint(0, R, (1,), generator=g))
            completion_ids[b, e] = EOS
            completion_ids[b, e + 1:] = PAD
            pad_mask[b, e + 1:] = False
        elif kind == 1 and R > 1:  # no EOS, padded tail
            n = int(torch.randint(1, R, (1,), generator=g))
            completion_ids[b, n:] = PAD
            pad_mask[b, n:] = False
        elif kind == 2:  # EOS at position 0
            completion_ids[b, 0] = EOS
            completion_ids[b, 1:] = PAD
            pad_mask[b, 1:] = False
        # kind 3: no EOS, no padding: the whole window
    mask, lengths = response_masks(completion_ids, pad_mask)
    rewards = torch.randn(B, generator=g)
    token_rewards = torch.zeros(B, R)
    token_rewards[torch.arange(B), lengths - 1] += rewards
    values = torch.randn(B, R, generator=g)
    if values_masked:
        values = values * mask
    old = -torch.rand(B, R, generator=g) * 3
    return {
        "promptLens": torch.randint(1, 40, (B,), generator=g, dtype=torch.int32),
        "tokenRewards": token_rewards, "values": values, "mask": mask, "oldLogps": old,
        "newLogps": old + torch.randn(B, R, generator=g) * 0.3,
        "refLogps": old + torch.randn(B, R, generator=g) * 0.3,
        "newValues": values + torch.randn(B, R, generator=g) * 0.4,
    }


def cases_for(name, batch, gamma, lam, eps, cliprange):
    R = batch["mask"].size(1)
    gae = masked_gae(batch["tokenRewards"], batch["values"], batch["mask"], gamma, lam)
    return {
        "responseLogpPositions": {"name": name, "inputs": {"promptLens": batch["promptLens"], "responseLen": R},
                                  "expected": logp_positions(batch["promptLens"].long(), R).int()},
        "maskedGae": {"name": name, "inputs": {"tokenRewards": batch["tokenRewards"], "values": batch["values"],
                                               "mask": batch["mask"], "gamma": gamma, "lam": lam}, "expected": gae},
        "ppoPolicyLoss": {"name": name, "inputs": {"newLogps": batch["newLogps"], "oldLogps": batch["oldLogps"],
                                                   "advantages": gae["advantages"], "mask": batch["mask"], "clipEpsilon": eps},
                          "expected": policy_loss(batch["newLogps"], batch["oldLogps"], gae["advantages"], batch["mask"], eps)},
        "referenceKlPenalty": {"name": name, "inputs": {"policyLogps": batch["newLogps"], "refLogps": batch["refLogps"],
                                                        "mask": batch["mask"]},
                               "expected": kl_ref(batch["newLogps"], batch["refLogps"], batch["mask"])},
        "clippedValueLoss": {"name": name, "inputs": {"values": batch["newValues"], "oldValues": batch["values"],
                                                      "returns": gae["returns"], "mask": batch["mask"], "cliprangeValue": cliprange},
                             "expected": value_loss(batch["newValues"], batch["values"], gae["returns"], batch["mask"], cliprange)},
    }


def main():
    torch.manual_seed(0)
    scenarios = [
        ("worked example, MiniMind defaults (γ=1, λ=0.95, ε=0.2, c=0.2)", worked_example(), 1.0, 0.95, 0.2, 0.2),
        ("PyTorch seed 1: B=4 R=9, masked values, γ=1 λ=0.95", random_batch(1, 4, 9, True), 1.0, 0.95, 0.2, 0.2),
        ("PyTorch seed 2: B=6 R=16, raw values, γ=0.9 λ=0.8", random_batch(2, 6, 16, False), 0.9, 0.8, 0.1, 0.5),
        ("PyTorch seed 3: B=1 R=1, a single token", random_batch(3, 1, 1, True), 0.99, 0.95, 0.2, 0.2),
        ("PyTorch seed 4: B=3 R=512, γ=0.99 λ=0.9", random_batch(4, 3, 512, False), 0.99, 0.9, 0.2, 0.2),
    ]
    cases = {}
    for name, batch, gamma, lam, eps, cliprange in scenarios:
        for ex, case in cases_for(name, batch, gamma, lam, eps, cliprange).items():
            cases.setdefault(ex, []).append(case)
    write_fixture("lesson-23", f"{MINIMIND}:trainer/train_ppo.py", cases)


if __name__ == "__main__":
    main()
