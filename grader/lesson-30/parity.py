"""Golden fixtures for lesson 30: AReaL's proximal log-prob approximations and staleness stats.

compute_prox_logp_approximations restates areal/trainer/ppo/actor.py:629-684 at 4aef98d8 line for
line (all three methods); staleness_stats restates _log_version_staleness_stats (1081-1108) with
_tensor_scalar_stats (889-904), returning what it would log instead of logging it. mismatch_kl
restates the three drift estimators (1045-1062) averaged as the stats tracker does
(areal/utils/stats_tracker.py:244-261); resolve_logps restates should_compute_prox_logp
(areal/api/cli_args.py:1534-1545), the choice of old_logp in _compute_advantages (actor.py:178-191)
and _resolve_proximal_logp (716-766).
Run: npm run fixtures lesson-30
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


def mismatch_kl(logprobs, old_logp, n_valid_tokens):
    """actor.py:1045-1062, each estimator averaged over n_valid_tokens (stats_tracker.py:251-261)."""
    log_ratio = (logprobs.float() - old_logp.float()).detach()
    kl_div_estimator_direct = -log_ratio
    kl_div_estimator_taylor = log_ratio**2 / 2.0
    kl_div_estimator_dual = log_ratio.exp() - 1 - log_ratio
    d = n_valid_tokens.sum()
    if d == 0:
        return None
    avg = lambda v: torch.where(n_valid_tokens, v, 0.0).sum() / d
    return {"direct": avg(kl_div_estimator_direct), "taylor": avg(kl_div_estimator_taylor), "dual": avg(kl_div_estimator_dual)}


PROX_LOGP_METHODS = ["recompute", "loglinear", "metrics"]


def resolve_logps(config, inference_logp, recomputed_logp, logprobs, versions, current_version):
    """cli_args.py:1534-1545, actor.py:178-191 (which tensor is old_logp, what prox_logp holds) and 716-766."""
    method = config["proxLogpMethod"]
    assert method in PROX_LOGP_METHODS
    skips = method == "loglinear"
    needs = (config["useDecoupledLoss"] and not skips) or (not config["useDecoupledLoss"] and config["recomputeLogprob"])
    data = {"logprobs": inference_logp, "prox_logp": recomputed_logp}
    if not config["useDecoupledLoss"] and config["recomputeLogprob"]:
        prox_logp_value = data["prox_logp"]
        assert prox_logp_value is not None
        old_logp = data["logprobs"] = prox_logp_value
    else:
        old_logp = data["logprobs"]
        if not config["useDecoupledLoss"]:
            data["prox_logp"] = old_logp
    prox_logp_gt = data["prox_logp"]
    prox_logp = prox_logp_gt
    if method == "loglinear":
        if prox_logp_gt is None and versions is not None and current_version is not None:
            prox_logp = compute_prox_logp_approximations(old_logp, logprobs, versions, current_version)["loglinear"]
    assert prox_logp is not None and not (torch.isnan(prox_logp).any() or torch.isinf(prox_logp).any())
    return {"needsForwardPass": torch.tensor(int(needs), dtype=torch.int32), "behave": old_logp.clone(), "proximal": prox_logp.clone()}


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
    cases["mismatchKl"] = []
    for name, batch in scenarios:
        cases["mismatchKl"].append({"name": name, "inputs": {k: batch[k] for k in ("logprobs", "oldLogp", "mask")},
                                    "expected": mismatch_kl(batch["logprobs"], batch["oldLogp"], batch["mask"])})
    cases["resolveLogps"] = []
    configs = [("coupled", False, False, "recompute", False), ("coupled, recompute_logprob", False, True, "recompute", True),
               ("decoupled recompute", True, False, "recompute", True), ("decoupled metrics", True, False, "metrics", True),
               ("decoupled loglinear", True, False, "loglinear", False)]
    for (name, batch), (label, decoupled, recompute, method, has_recomputed) in zip(scenarios, configs):
        g = torch.Generator().manual_seed(len(name))
        recomputed = (batch["oldLogp"] + torch.randn(batch["oldLogp"].shape, generator=g) * 0.2).clamp(max=0) if has_recomputed else None
        config = {"useDecoupledLoss": decoupled, "recomputeLogprob": recompute, "proxLogpMethod": method}
        inputs = {"config": config, "inferenceLogp": batch["oldLogp"], "recomputedLogp": recomputed, "logprobs": batch["logprobs"],
                  "versions": batch["versions"], "currentVersion": batch["currentVersion"]}
        cases["resolveLogps"].append({"name": f"{name}, {label}", "inputs": inputs,
                                      "expected": resolve_logps(config, batch["oldLogp"], recomputed, batch["logprobs"],
                                                                batch["versions"], batch["currentVersion"])})
    write_fixture("lesson-30", AREAL, cases)


if __name__ == "__main__":
    main()
