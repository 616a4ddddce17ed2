"""Golden fixtures for lesson 24: MiniMind's GRPO/CISPO step in PyTorch, on seeded rollouts.

Each function below restates trainer/train_grpo.py at d65ef2c line for line (same ops, same
order, float32), without the models around them. Gradients are taken with autograd with respect to
per_token_logps, as loss.backward() on line 145 would. Log-prob inputs are quantised to multiples
of 1/256 so that the fixture file stays small. Run: npm run fixtures lesson-24
"""
import torch

from common import MINIMIND, write_fixture

EOS, PAD = 2, 0


def group_advantages(rewards, num_generations):
    """train_grpo.py:121-124."""
    grouped_rewards = rewards.view(-1, num_generations)
    mean_r = grouped_rewards.mean(dim=1).repeat_interleave(num_generations)
    std_r = grouped_rewards.std(dim=1, unbiased=False).repeat_interleave(num_generations)
    return (rewards - mean_r) / (std_r + 1e-4)


def completion_mask_of(completion_ids, completion_pad_mask):
    """train_grpo.py:126-130."""
    completion_pad_mask = completion_pad_mask.bool()
    is_eos = (completion_ids == EOS) & completion_pad_mask
    eos_idx = torch.full((is_eos.size(0),), is_eos.size(1) - 1, dtype=torch.long)
    eos_idx[is_eos.any(dim=1)] = is_eos.int().argmax(dim=1)[is_eos.any(dim=1)]
    return ((torch.arange(is_eos.size(1)).expand(is_eos.size(0), -1) <= eos_idx.unsqueeze(1)) & completion_pad_mask).int()


def per_token_kl_of(per_token_logps, ref_per_token_logps):
    """train_grpo.py:132-133."""
    kl_div = ref_per_token_logps - per_token_logps
    return torch.exp(kl_div) - kl_div - 1


def policy_loss(loss_type, per_token_logps, old_per_token_logps, ref_per_token_logps, advantages, completion_mask, epsilon, epsilon_high, beta):
    """train_grpo.py:132-143."""
    per_token_kl = per_token_kl_of(per_token_logps, ref_per_token_logps)
    ratio = torch.exp(per_token_logps - old_per_token_logps)
    if loss_type == "cispo":
        clamped_ratio = torch.clamp(ratio, max=epsilon_high).detach()
        per_token_loss = -(clamped_ratio * advantages.unsqueeze(1) * per_token_logps - beta * per_token_kl)
    else:
        clipped_ratio = torch.clamp(ratio, 1 - epsilon, 1 + epsilon)
        per_token_loss1 = ratio * advantages.unsqueeze(1)
        per_token_loss2 = clipped_ratio * advantages.unsqueeze(1)
        per_token_loss = -(torch.min(per_token_loss1, per_token_loss2) - beta * per_token_kl)
    return ((per_token_loss * completion_mask).sum(dim=1) / completion_mask.sum(dim=1).clamp(min=1)).mean()


def quantised(x):
    return torch.round(x * 256) / 256


def rollout(seed, N, G, R, sglang_padding, log_ratio_std):
    """N prompts × G completions: EOS at a random place, at 0, twice, or not at all; the pad mask
    all ones (torch engine, rollout_engine.py:92) or zero after the answer (SGLang engine, 172)."""
    g = torch.Generator().manual_seed(seed)
    B = N * G
    ids = torch.randint(3, 50, (B, R), generator=g)
    pad = torch.ones(B, R, dtype=torch.long)
    for b in range(B):
        kind = b % 4
        if kind == 0:  # an EOS somewhere, pad ids after it
            e = int(torch.randint(0, R, (1,), generator=g))
            ids[b, e] = EOS
            ids[b, e + 1:] = PAD
        elif kind == 1:  # no EOS: cut at the length limit
            e = R - 1
        elif kind == 2:  # EOS at position 0
            e = 0
            ids[b, 0] = EOS
            ids[b, 1:] = PAD
        else:  # two EOS: only the first ends the answer
            e = int(torch.randint(0, R, (1,), generator=g))
            ids[b, e] = EOS
            if e + 1 < R:
                ids[b, int(torch.randint(e + 1, R, (1,), generator=g))] = EOS
        if sglang_padding and kind != 3:
            pad[b, e + 1:] = 0
    rewards = torch.randn(B, generator=g)
    rewards[:G] = -0.5  # the first group scored alike: zero variance
    old = quantised(-torch.rand(B, R, generator=g) * 3)
    policy = quantised(old + torch.randn(B, R, generator=g) * log_ratio_std)
    ref = quantised(old + torch.randn(B, R, generator=g) * 0.3)
    return ids, pad, rewards, old, policy, ref


def scenario(name, seed, N, G, R, sglang_padding, log_ratio_std, epsilon, epsilon_high, beta, gradients):
    ids, pad, rewards, old, policy, ref = rollout(seed, N, G, R, sglang_padding, log_ratio_std)
    advantages = group_advantages(rewards, G)
    completion_mask = completion_mask_of(ids, pad)
    cases = {
        "groupRelativeAdvantages": {"name": name, "inputs": {"rewards": rewards, "numGenerations": G}, "expected": advantages},
        "grpoCompletionMask": {"name": name, "inputs": {"completionIds": ids.int(), "padMask": pad.int(), "eosTokenId": EOS},
                               "expected": completion_mask},
        "tokenKlPenalty": {"name": name, "inputs": {"policyLogps": policy, "refLogps": ref}, "expected": per_token_kl_of(policy, ref)},
    }
    common = {"policyLogps": policy, "oldLogps": old, "refLogps": ref, "advantages": advantages, "completionMask": completion_mask, "beta": beta}
    for exercise, loss_type, extra in [("grpoPolicyLoss", "grpo", {"epsilon": epsilon}), ("cispoPolicyLoss", "cispo", {"epsilonHigh": epsilon_high})]:
        leaf = policy.clone().requires_grad_(True)
        loss = policy_loss(loss_type, leaf, old, ref, advantages, completion_mask, epsilon, epsilon_high, beta)
        (grad,) = torch.autograd.grad(loss, leaf)
        cases[exercise] = {"name": name, "inputs": {**common, **extra}, "expected": loss.detach()}
        if gradients:
            cases[f"{exercise}.gradient"] = {"name": name, "inputs": {**common, **extra}, "expected": grad}
    return cases


def main():
    torch.manual_seed(0)
    scenarios = [
        ("PyTorch seed 1: N=2 G=6 R=12, torch-engine padding, MiniMind defaults (ε=0.2, ε_high=5, β=0.1)", 1, 2, 6, 12, False, 0.5, 0.2, 5.0, 0.1, True),
        ("PyTorch seed 2: N=3 G=4 R=20, SGLang padding, ε_high=1.5, β=0.04", 2, 3, 4, 20, True, 0.8, 0.2, 1.5, 0.04, True),
        ("PyTorch seed 3: N=1 G=2 R=1, a single token", 3, 1, 2, 1, True, 0.5, 0.2, 5.0, 0.1, True),
        ("PyTorch seed 4: N=1 G=2 R=512, SGLang padding", 4, 1, 2, 512, True, 1.0, 0.2, 5.0, 0.1, False),
    ]
    cases = {}
    for args in scenarios:
        for ex, case in scenario(*args).items():
            cases.setdefault(ex, []).append(case)
    write_fixture("lesson-24", f"{MINIMIND}:trainer/train_grpo.py", cases)


if __name__ == "__main__":
    main()
