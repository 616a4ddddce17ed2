"""Golden fixtures for lesson 32: AReaL's GSPO ratio and SAPO loss in PyTorch, on seeded inputs.

The two functions below restate areal/utils/functional/functional.py at 4aef98d8 line for line
(same ops, same order, float32): the 2-D branch of the sequence-level ratio (128-149) and the
SAPO loss (590-623). Run: npm run fixtures lesson-32
"""
import torch

from areal_functional import sequence_level_ratio
from common import AREAL, write_fixture


def sapo_loss(logprobs, old_logprobs, advantages, tau_pos, tau_neg, loss_mask, level):
    """functional.py:590-623."""
    if tau_pos <= 0 or tau_neg <= 0:
        raise ValueError("temperatures must be positive")
    loss_mask_count = loss_mask.count_nonzero() or 1
    advantages = advantages.detach()
    log_ratio = logprobs - old_logprobs
    if level == "sequence":
        ratio, advantages = sequence_level_ratio(log_ratio, advantages, loss_mask)
    else:
        ratio = torch.exp(log_ratio)
    gate_pos = torch.sigmoid(tau_pos * (ratio - 1.0))
    gate_neg = torch.sigmoid(tau_neg * (ratio - 1.0))
    scaled_gate_pos = gate_pos * (4.0 / tau_pos)
    scaled_gate_neg = gate_neg * (4.0 / tau_neg)
    soft_gate = torch.where(advantages > 0, scaled_gate_pos, scaled_gate_neg)
    pg_loss = -soft_gate * advantages
    return torch.where(loss_mask, pg_loss, 0).sum() / loss_mask_count


def worked_batch():
    """The batch of lessons/32-gspo-and-sapo.md § Worked example (B=2, T=4)."""
    return {
        "logprobs": torch.tensor([[-1.0, -0.8, -1.5, 0.0], [-0.5, -2.0, -1.2, -0.9]]),
        "oldLogprobs": torch.tensor([[-1.2, -0.7, -1.5, 0.0], [-0.6, -1.7, -1.2, -1.1]]),
        "advantages": torch.tensor([[0.8, 0.8, 0.8, 5.0], [-0.6, -0.2, -0.6, -0.6]]),
        "lossMask": torch.tensor([[True, True, True, False], [True, True, True, True]]),
    }


def random_batch(seed, B, T, log_ratio_std):
    """Ragged rows: a full row, an empty row (when B > 2), the rest random lengths; both advantage signs."""
    g = torch.Generator().manual_seed(seed)
    lengths = torch.randint(1, T + 1, (B,), generator=g)
    lengths[0] = T
    if B > 2:
        lengths[1] = 0
    loss_mask = torch.arange(T).unsqueeze(0) < lengths.unsqueeze(1)
    old = -torch.rand(B, T, generator=g) * 3
    return {
        "logprobs": old + torch.randn(B, T, generator=g) * log_ratio_std,
        "oldLogprobs": old,
        "advantages": torch.randn(B, T, generator=g),
        "lossMask": loss_mask,
    }


def main():
    scenarios = [
        ("worked example", worked_batch(), 1.0, 1.05),
        ("PyTorch seed 1: B=4 T=9, ratios near 1", random_batch(1, 4, 9, 0.2), 1.0, 1.05),
        ("PyTorch seed 2: B=6 T=16, ratios far from 1, sharp gates", random_batch(2, 6, 16, 0.8), 3.0, 0.5),
        ("PyTorch seed 3: B=1 T=1, a single token", random_batch(3, 1, 1, 0.5), 1.0, 1.05),
        ("PyTorch seed 4: B=3 T=512", random_batch(4, 3, 512, 0.3), 1.0, 1.05),
    ]
    cases = {"sequenceLevelRatio": [], "sapoLoss": []}
    for name, b, tau_pos, tau_neg in scenarios:
        log_ratio = b["logprobs"] - b["oldLogprobs"]
        ratio, adv = sequence_level_ratio(log_ratio, b["advantages"], b["lossMask"])
        cases["sequenceLevelRatio"].append({
            "name": name,
            "inputs": {"logRatio": log_ratio, "advantages": b["advantages"], "lossMask": b["lossMask"]},
            "expected": {"ratio": ratio, "advantages": adv},
        })
        for level in ("token", "sequence"):
            loss = sapo_loss(b["logprobs"], b["oldLogprobs"], b["advantages"], tau_pos, tau_neg, b["lossMask"], level)
            cases["sapoLoss"].append({
                "name": f"{name}, {level} level, τ+={tau_pos} τ-={tau_neg}",
                "inputs": {**b, "tauPos": tau_pos, "tauNeg": tau_neg, "importanceSamplingLevel": level},
                "expected": {"loss": loss},
            })
    write_fixture("lesson-32", f"{AREAL}:areal/utils/functional/functional.py", cases)


if __name__ == "__main__":
    main()
