"""Golden fixtures for lesson 30: AReaL's proximal log-prob approximations and staleness stats.

compute_prox_logp_approximations restates areal/trainer/ppo/actor.py:629-684 at 4aef98d8 line for
line (all three methods); staleness_stats restates _log_version_staleness_stats (1081-1108) with
_tensor_scalar_stats (889-904), returning what it would log instead of logging it.
Run: /usr/bin/python3 tools/parity/lesson_30.py
"""
import torch

from common import AREAL, write_fixture


def compute_prox_logp_approximations(old_logp, logprobs, versions, current_version):
    """actor.py:629-684 with method=None (every method)."""
    v_proximal = current_version - 1
    v_behave = versions.float()
    v_theta = float(current_version)
    generated_tokens_mask = versions >= 0
    version_diff = v_theta - v_behave
    version_gap = v_proximal - v_behave
    alpha = torch.where(
        (version_diff > 0) & generated_tokens_mask,
        version_gap / version_diff,
        torch.zeros_like(v_behave),
    )
    alpha = torch.clamp(alpha, 0.0, 1.0)
    p_behave = torch.exp(old_logp)
    p_theta = torch.exp(logprobs)
    p_arithmetic = (1 - alpha) * p_behave + alpha * p_theta
    return {
        "loglinear": old_logp + alpha * (logprobs - old_logp),
        "linear": torch.log(p_arithmetic + 1e-10),
        "rollout": old_logp.clone(),
    }


def tensor_scalar_stats(tensor):
    """actor.py:889-904."""
    t = tensor.float()
    return {"avg": t.mean().item(), "max": t.max().item(), "min": t.min().item()}


def staleness_stats(versions, current_version, version_metrics_mask):
    """actor.py:1081-1108: None where AReaL returns before logging; numbers as float32 scalars."""
    v_proximal = current_version - 1
    v_theta = current_version
    v_behave = versions.float()
    valid_generated_mask = version_metrics_mask & (versions >= 0)
    if not valid_generated_mask.any():
        return None
    proximal = tensor_scalar_stats((v_proximal - v_behave)[valid_generated_mask])
    theta = tensor_scalar_stats((v_theta - v_behave)[valid_generated_mask])
    scalar = lambda x: torch.tensor(float(x), dtype=torch.float32)
    return {
        "proximal": {k: scalar(v) for k, v in proximal.items()},
        "theta": {k: scalar(v) for k, v in theta.items()},
        "validTokens": scalar(valid_generated_mask.sum().item()),
    }


def worked_example():
    """The batch of lessons/30-proximal-approximation-staleness.md § Worked example."""
    return {
        "oldLogp": torch.tensor([[0.0, 0.0, -1.2, -0.4, -2.0], [0.0, -0.7, -1.5, -0.9, -0.3]]),
        "logprobs": torch.tensor([[-3.1, -2.5, -0.8, -0.6, -1.9], [-2.2, -1.3, -1.1, -0.9, -0.35]]),
        "versions": torch.tensor([[-1, -1, 3, 3, 4], [-1, 0, 2, 4, 5]], dtype=torch.int32),
        "mask": torch.tensor([[False, True, True, True, True], [False, True, True, True, False]]),
        "currentVersion": 5,
    }


def rollout_batch(seed, B, T, current_version, oldest=0):
    """Prompt (version -1), a response whose version steps up mid-generation, zero padding; mask = rolled loss mask."""
    g = torch.Generator().manual_seed(seed)
    versions = torch.zeros(B, T, dtype=torch.int32)
    mask = torch.zeros(B, T, dtype=torch.bool)
    for b in range(B):
        prompt_len = int(torch.randint(1, max(2, T // 3 + 1), (1,), generator=g))
        end = T if b == 0 else int(torch.randint(prompt_len, T + 1, (1,), generator=g))
        version = int(torch.randint(oldest, current_version + 1, (1,), generator=g))
        versions[b, :prompt_len] = -1
        for t in range(prompt_len, end):
            if version < current_version and float(torch.rand(1, generator=g)) < 0.1:
                version += 1
            versions[b, t] = version
        mask[b, prompt_len - 1:max(end - 1, prompt_len - 1)] = True
    old = -torch.rand(B, T, generator=g) * 4
    logprobs = (old + torch.randn(B, T, generator=g) * 0.5).clamp(-8, 0)
    return {"oldLogp": old, "logprobs": logprobs, "versions": versions, "mask": mask, "currentVersion": current_version}


def cases_for(name, batch):
    approx_inputs = {k: batch[k] for k in ("oldLogp", "logprobs", "versions", "currentVersion")}
    stats_inputs = {k: batch[k] for k in ("versions", "currentVersion", "mask")}
    return {
        "proxLogpApproximations": {"name": name, "inputs": approx_inputs,
                                   "expected": compute_prox_logp_approximations(batch["oldLogp"], batch["logprobs"],
                                                                                batch["versions"], batch["currentVersion"])},
        "stalenessStats": {"name": name, "inputs": stats_inputs,
                           "expected": staleness_stats(batch["versions"], batch["currentVersion"], batch["mask"])},
    }


def main():
    scenarios = [
        ("worked example, current version 5", worked_example()),
        ("PyTorch seed 1: B=4 T=12, current version 6", rollout_batch(1, 4, 12, 6)),
        ("PyTorch seed 2: B=6 T=20, current version 30, oldest 20", rollout_batch(2, 6, 20, 30, 20)),
        ("PyTorch seed 3: B=3 T=9, current version 1", rollout_batch(3, 3, 9, 1)),
        ("PyTorch seed 4: B=4 T=512, current version 12", rollout_batch(4, 4, 512, 12)),
    ]
    cases = {"proxLogpApproximations": [], "stalenessStats": []}
    for name, batch in scenarios:
        for ex, c in cases_for(name, batch).items():
            cases[ex].append(c)
    write_fixture("lesson-30", AREAL, cases)


if __name__ == "__main__":
    main()
