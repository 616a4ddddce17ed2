"""Golden fixtures for lesson 34: AReaL's normalisation, rejection sampling and FFD micro-batching.

Each function below restates the cited AReaL lines at 4aef98d8 (same ops, same order, same dtypes:
normalisation in float64 as AReaL's high_precision default, rejection sampling in float32, FFD in
plain Python with numpy's argsort), without the distributed all-reduce and the 1-D packed layout.
Run: npm run fixtures lesson-34
"""
import bisect

import numpy as np
import torch

from common import AREAL, write_fixture

# ---------------------------------------------------------------------------------------------
# areal/utils/data.py:1378-1595 — Normalization (reduce_group=None, high_precision=True)
# ---------------------------------------------------------------------------------------------


def _mean(x, mask, leave_one_out):
    """data.py:1498-1553."""
    x = x.to(torch.float64)
    dim = tuple(range(len(x.shape)))
    if mask is None:
        factor = torch.tensor(float(np.prod(x.shape)), dtype=torch.float64)
        x_masked = x
        x_sum = x.sum(dim=dim, keepdim=True)
    else:
        mask = mask.to(torch.float64)
        x_masked = x * mask
        factor = mask.sum(dim, keepdim=True)
        x_sum = x_masked.sum(dim=dim, keepdim=True)
    if leave_one_out:
        if factor.item() <= 1:
            return torch.zeros_like(x_sum)
        if mask is None:
            return (x_sum.expand_as(x) - x) / (factor - 1)
        loo = (x_sum.expand_as(x) - x_masked) / torch.clamp(factor - mask, min=1.0)
        return torch.where(mask > 0, loo, (x_sum / factor).expand_as(x))
    if factor.item() == 0:
        return torch.zeros_like(x_sum)
    return x_sum / factor


def _std(x, mask, mean, unbiased):
    """data.py:1555-1595."""
    x = x.to(torch.float64)
    mean = mean.to(torch.float64)
    dim = tuple(range(len(x.shape)))
    if mask is None:
        factor = torch.tensor(float(np.prod(x.shape)), dtype=torch.float64)
        x_sum_sq = ((x - mean) ** 2).sum(dim=dim, keepdim=True)
    else:
        mask = mask.to(torch.float64)
        factor = mask.sum(dim, keepdim=True)
        x_sum_sq = ((x * mask - mean * mask) ** 2).sum(dim=dim, keepdim=True)
    if unbiased:
        if factor.item() <= 1:
            return torch.ones_like(x_sum_sq)
        return (x_sum_sq / (factor - 1)).sqrt()
    if factor.item() == 0:
        return torch.ones_like(x_sum_sq)
    return (x_sum_sq / factor).sqrt()


def normalization(x, mask, mean_level, std_level, group_size, leave1out, unbiased, eps):
    """data.py:1396-1496 (mean_level / std_level None is "none" here)."""
    bs = x.size(0)
    if mask is not None and mask.sum().item() == 0:
        return x.float()
    if mean_level == "batch":
        mean = _mean(x, mask, leave1out).expand_as(x)
    elif mean_level == "group":
        mean = torch.zeros_like(x)  # x.dtype: AReaL stores group means in float32
        for i in range(bs // group_size):
            s = slice(i * group_size, (i + 1) * group_size)
            m = mask[s] if mask is not None else None
            if group_size == 1 and leave1out:
                group_mean = torch.zeros((1, *x[s].shape[1:]), dtype=torch.float64)
            else:
                group_mean = _mean(x[s], m, leave1out)
            mean[s] = group_mean.expand_as(x[s])
    else:
        mean = torch.zeros_like(x)
    x_centered = x - mean
    if mask is not None:
        x_centered = x_centered * mask
    if std_level == "batch":
        std = _std(x, mask, mean, unbiased).expand_as(x)
    elif std_level == "group":
        std = torch.zeros_like(x)  # likewise for group stds
        for i in range(bs // group_size):
            s = slice(i * group_size, (i + 1) * group_size)
            m = mask[s] if mask is not None else None
            if group_size == 1 and unbiased:
                group_std = torch.ones((1, *x[s].shape[1:]), dtype=torch.float64)
            else:
                group_std = _std(x[s], m, mean[s], unbiased)
            std[s] = group_std.expand_as(x[s])
    else:
        std = torch.ones_like(x)
        eps = 0.0
    return (x_centered / (std + eps)).float()


# ---------------------------------------------------------------------------------------------
# areal/utils/functional/functional.py:167-426 — rejection sampling, 2-D padded branch
# ---------------------------------------------------------------------------------------------


def kl_estimate(log_probs, log_probs_base, kind):
    """data.py:1620-1656 with apply_clamp=False."""
    log_ratio = log_probs.float() - log_probs_base.float()
    if kind == "k2":
        log_ratio = log_ratio ** 2 / 2.0
    if kind == "k3":
        log_ratio = -log_ratio
        log_ratio = log_ratio.exp() - 1 - log_ratio
    return log_ratio


def check_bounds(metric, upper, lower):
    """functional.py:167-182."""
    if lower is not None:
        return (metric >= lower) & (metric <= upper)
    return metric <= upper


def rejection_sampling(prox, old, loss_mask, level, action, metric, agg, upper, lower):
    """functional.py:185-426 (2-D inputs). `lower` is None when unset; clamping then uses 0."""
    log_ratio = prox.float() - old.float()
    log_ratio = torch.where(torch.isfinite(log_ratio), log_ratio, torch.zeros_like(log_ratio))
    if metric == "ratio":
        token_metric = torch.exp(log_ratio)
    else:
        token_metric = kl_estimate(prox, old, metric.replace("kl_", ""))
    weight = torch.exp(log_ratio)
    original = weight
    lo = lower if lower is not None else 0.0
    if level == "sequence":
        log_agg = metric == "ratio"
        agg_values = log_ratio if log_agg else token_metric
        masked_agg = torch.where(loss_mask.bool(), agg_values, torch.zeros_like(agg_values))
        valid_count = loss_mask.sum(dim=-1, keepdim=True).clamp(min=1)
        if log_agg:
            weight = torch.exp(masked_agg.sum(dim=-1, keepdim=True) / valid_count).expand_as(log_ratio)
            original = weight
        if agg == "sum":
            seq_agg = masked_agg.sum(dim=-1, keepdim=True)
        elif agg == "mean":
            seq_agg = masked_agg.sum(dim=-1, keepdim=True) / valid_count
        else:
            seq_agg = agg_values.masked_fill(~loss_mask.bool(), float("-inf")).max(dim=-1, keepdim=True)[0]
            all_masked = loss_mask.sum(dim=-1, keepdim=True) == 0
            seq_agg = torch.where(all_masked, torch.zeros_like(seq_agg), seq_agg)
        seq_metric = torch.exp(seq_agg) if log_agg else seq_agg
        if action == "mask":
            in_bounds = check_bounds(seq_metric, upper, lower).expand_as(loss_mask)
        else:
            out = (~check_bounds(seq_metric, upper, lower)).expand_as(loss_mask)
            weight = torch.where(out, weight.clamp(min=lo, max=upper), weight)
    elif action == "mask":
        in_bounds = check_bounds(token_metric, upper, lower)
    else:
        weight = weight.clamp(min=lo, max=upper)
    if action == "mask":
        candidates = loss_mask.bool()
        updated = (candidates & in_bounds).to(loss_mask.dtype)
        filtered = (candidates & ~in_bounds).sum().item()
        total = candidates.sum().item()
    else:
        updated = loss_mask
        filtered = (loss_mask.bool() & (original != weight)).sum().item()
        total = loss_mask.bool().sum().item()
    weight = torch.where(updated.bool(), weight, torch.zeros_like(weight))
    return {"lossMask": updated, "behaveImpWeight": weight, "filteredFraction": filtered / max(total, 1)}


# ---------------------------------------------------------------------------------------------
# areal/utils/seqpack.py:195-255 (FFD) and areal/utils/data.py:448-472 (final sort)
# ---------------------------------------------------------------------------------------------


def ffd_groups(values, capacity, min_groups, argsort_kind=None):
    """seqpack.py:195-231; argsort_kind None is numpy's default, as in AReaL."""
    values = np.array(values)
    order = np.argsort(-values) if argsort_kind is None else np.argsort(-values, kind=argsort_kind)
    group_indices, group_values, group_cnt = [], [], 0
    for idx in order:
        if len(group_values) < min_groups or group_values[0][0] + values[idx] > capacity:
            bisect.insort(group_values, (float(values[idx]), group_cnt))
            group_indices.append([int(idx)])
            group_cnt += 1
        else:
            i = bisect.bisect_right(group_values, (capacity - values[idx], len(values)))
            candidates = [group_values[j][1] for j in range(i)]
            j = int(np.argmin([len(group_indices[g]) for g in candidates]))
            v, group_idx = group_values.pop(j)
            bisect.insort(group_values, (float(values[idx] + v), group_idx))
            group_indices[group_idx].append(int(idx))
    return group_indices


def allocate_balanced_mbs(lens, n_mbs, max_tokens_per_mb, argsort_kind=None):
    """data.py:463-472 with seqpack.py:234-255 (n_mbs_divisor = 1, packing_algorithm "ffd")."""
    assert all(v <= max_tokens_per_mb for v in lens) and len(lens) >= n_mbs
    return sorted([sorted(g) for g in ffd_groups(lens, max_tokens_per_mb, n_mbs, argsort_kind)])


def micro_batch_case(name, lens, n_mbs, max_tokens_per_mb=int(1e12)):
    """AReaL's own order; checked equal to a stable sort (equal lengths in index order)."""
    groups = allocate_balanced_mbs(lens, n_mbs, max_tokens_per_mb)
    assert groups == allocate_balanced_mbs(lens, n_mbs, max_tokens_per_mb, "stable"), f"{name}: ties ordered differently"
    return {"name": name, "inputs": {"seqLens": list(lens), "nMbs": n_mbs, "maxTokensPerMb": max_tokens_per_mb},
            "expected": [torch.tensor(g, dtype=torch.int32) for g in groups]}


# ---------------------------------------------------------------------------------------------
# Seeded scenarios
# ---------------------------------------------------------------------------------------------


def ragged_mask(g, B, T, min_len=1):
    lengths = torch.randint(min_len, T + 1, (B,), generator=g)
    lengths[0] = T
    return (torch.arange(T).unsqueeze(0) < lengths.unsqueeze(1)).float()


def normalize_case(name, x, mask, mean_level="batch", std_level="batch", group_size=1, leave1out=False, unbiased=True, eps=1e-5):
    options = {"meanLevel": mean_level, "stdLevel": std_level, "groupSize": group_size,
               "leaveOneOut": leave1out, "unbiased": unbiased, "eps": eps}
    if mask is not None:
        options["mask"] = mask
    expected = normalization(x, mask, None if mean_level == "none" else mean_level,
                             None if std_level == "none" else std_level, group_size, leave1out, unbiased, eps)
    return {"name": name, "inputs": {"x": x, "options": options}, "expected": expected}


def normalize_cases():
    def g(seed):
        return torch.Generator().manual_seed(seed)

    cases = [normalize_case("AReaL test vector (tests/test_adv_norm_config.py:1107-1177): batch, leave-one-out, unbiased",
                            torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
                            torch.tensor([[1.0, 1.0], [1.0, 0.0], [0.0, 1.0]]), leave1out=True)]
    r = g(1)
    cases.append(normalize_case("seed 1: advantages [8, 12], ragged mask, AReaL defaults",
                                torch.randn(8, 12, generator=r) * 2 + 0.5, ragged_mask(r, 8, 12)))
    r = g(2)
    cases.append(normalize_case("seed 2: rewards [16], group mean and std, groups of 4 (GRPO)",
                                torch.randint(0, 2, (16,), generator=r).float() + 0.1 * torch.randn(16, generator=r), None,
                                "group", "group", 4))
    r = g(3)
    cases.append(normalize_case("seed 3: [8, 6] group leave-one-out mean, batch biased std, groups of 2",
                                torch.randn(8, 6, generator=r), ragged_mask(r, 8, 6, 0), "group", "batch", 2, True, False))
    r = g(4)
    cases.append(normalize_case("seed 4: [6, 5] no mean, group std, groups of 3, eps 1e-3",
                                torch.randn(6, 5, generator=r) + 1.0, ragged_mask(r, 6, 5), "none", "group", 3, False, True, 1e-3))
    r = g(5)
    cases.append(normalize_case("seed 5: [4, 7] batch leave-one-out mean, no std",
                                torch.randn(4, 7, generator=r), ragged_mask(r, 4, 7), "batch", "none", 1, True))
    r = g(6)
    cases.append(normalize_case("seed 6: [5, 4] groups of 1 with leave-one-out and unbiased std",
                                torch.randn(5, 4, generator=r), None, "group", "group", 1, True, True))
    r = g(7)
    cases.append(normalize_case("seed 7: [3, 4] every element masked: x comes back unchanged",
                                torch.randn(3, 4, generator=r), torch.zeros(3, 4)))
    r = g(8)
    cases.append(normalize_case("seed 8: [4, 512] AReaL defaults, ragged mask",
                                torch.randn(4, 512, generator=r), ragged_mask(r, 4, 512)))
    return cases


def rejection_case(name, prox, old, mask, **config):
    full = {"level": "token", "action": "mask", "metric": "ratio", "agg": "mean", "upper": 5.0, "lower": None}
    full.update(config)
    inputs = {"proximalLogprobs": prox, "oldLogprobs": old, "lossMask": mask,
              "config": {k: v for k, v in full.items() if v is not None}}
    return {"name": name, "inputs": inputs, "expected": rejection_sampling(prox, old, mask, **full)}


def rejection_cases():
    def batch(seed, B, T, drift, min_len=1):
        r = torch.Generator().manual_seed(seed)
        old = -torch.rand(B, T, generator=r) * 3
        prox = old + torch.randn(B, T, generator=r) * drift
        return prox, old, ragged_mask(r, B, T, min_len)

    return [
        rejection_case("seed 1: token level, ratio in [0.5, 2], mask", *batch(1, 4, 10, 0.6), lower=0.5, upper=2.0),
        rejection_case("seed 2: token level, ratio clamped to [0, 1.5]", *batch(2, 4, 10, 0.6), action="clamp", upper=1.5),
        rejection_case("seed 3: sequence level, geometric-mean ratio ≤ 1.2, mask", *batch(3, 6, 8, 0.4, 0), level="sequence", upper=1.2),
        rejection_case("seed 4: sequence level, ratio sum in [0.5, 3], clamp", *batch(4, 6, 8, 0.3), level="sequence",
                       action="clamp", agg="sum", lower=0.5, upper=3.0),
        rejection_case("seed 5: sequence level, max k2 ≤ 0.3, mask", *batch(5, 6, 8, 0.5, 0), level="sequence", metric="kl_k2",
                       agg="max", upper=0.3),
        rejection_case("seed 6: sequence level, mean k3 ≤ 0.05, mask", *batch(6, 6, 8, 0.4), level="sequence", metric="kl_k3",
                       upper=0.05),
        rejection_case("seed 7: token level, k1 in [-0.3, 0.3], mask", *batch(7, 4, 10, 0.4), metric="kl_k1", lower=-0.3, upper=0.3),
        rejection_case("seed 8: sequence level, max ratio in [0.7, 2], clamp", *batch(8, 6, 8, 0.5), level="sequence", action="clamp",
                       agg="max", lower=0.7, upper=2.0),
        rejection_case("seed 9: [3, 512] sequence level, geometric-mean ratio ≤ 1.02, mask", *batch(9, 3, 512, 0.3),
                       level="sequence", upper=1.02),
    ]


def micro_batch_cases():
    def lens(seed, n, lo, hi, distinct=False):
        r = torch.Generator().manual_seed(seed)
        if distinct:
            return (torch.randperm(hi - lo + 1, generator=r)[:n] + lo).tolist()
        return torch.randint(lo, hi + 1, (n,), generator=r).tolist()

    return [
        micro_batch_case("seed 1: 8 sequences, 2 micro-batches", lens(1, 8, 16, 512), 2),
        micro_batch_case("seed 2: 16 sequences with many equal lengths, 4 micro-batches", lens(2, 16, 1, 4), 4),
        micro_batch_case("seed 3: 12 sequences, budget 2048 tokens, at least 1 micro-batch", lens(3, 12, 100, 1000), 1, 2048),
        micro_batch_case("seed 4: 64 distinct lengths, budget 8192 tokens, at least 4", lens(4, 64, 64, 4096, True), 4, 8192),
        micro_batch_case("seed 5: 512 distinct lengths, 8 micro-batches", lens(5, 512, 1, 8192, True), 8),
        micro_batch_case("seed 6: as many micro-batches as sequences", lens(6, 5, 1, 50), 5),
    ]


def global_token_mean(per_token_losses, masks):
    """areal/engine/core/train_engine.py:54-65 (the all-reduce is a sum over the simulated ranks) and
    fsdp_engine.py:1987-1989, 2045-2046 with loss_weight_fn = count_nonzero of the loss mask
    (actor.py:363); each micro-batch's loss is its own token-mean, as functional.py:542 computes it;
    the ranks' gradients are averaged, as data-parallel training does."""
    dp_size = len(masks)
    loss_weight_fn = lambda mask: mask.count_nonzero()
    total_weight = sum(torch.stack([loss_weight_fn(m) for m in rank]).sum().to(dtype=torch.float32) for rank in masks)
    assert total_weight > 0
    sums, counts, scales, total = [], [], [], torch.tensor(0.0)
    for rank_losses, rank_masks in zip(per_token_losses, masks):
        sums.append([]); counts.append([]); scales.append([])
        for loss_tokens, mask in zip(rank_losses, rank_masks):
            local_weight = loss_weight_fn(mask)
            loss_scale = local_weight / total_weight * dp_size
            sums[-1].append(float(torch.where(mask, loss_tokens, 0.0).sum()))
            counts[-1].append(int(local_weight))
            scales[-1].append(loss_scale.float())
            if local_weight == 0:
                continue
            loss = torch.where(mask, loss_tokens, 0.0).sum() / mask.count_nonzero()
            total = total + loss * loss_scale
    scales = [torch.stack(row).float() if row else torch.zeros(0) for row in scales]
    return sums, counts, {"loss": total / dp_size, "scales": scales}


def token_mean_cases():
    cases = []
    for seed, ranks, mbs, max_len in [(1, 1, 4, 12), (2, 2, 3, 40), (3, 4, 2, 7), (4, 2, 4, 512)]:
        g = torch.Generator().manual_seed(seed)
        losses, masks = [], []
        for _ in range(ranks):
            losses.append([]); masks.append([])
            for _ in range(mbs):
                n = int(torch.randint(0, max_len + 1, (1,), generator=g))
                losses[-1].append(torch.randn(max_len, generator=g))
                masks[-1].append(torch.arange(max_len) < n)
        sums, counts, expected = global_token_mean(losses, masks)
        cases.append({"name": f"PyTorch seed {seed}: {ranks} ranks × {mbs} micro-batches of 0-{max_len} tokens",
                      "inputs": {"microBatchLossSums": sums, "microBatchTokenCounts": counts}, "expected": expected})
    return cases


def main():
    torch.manual_seed(0)
    write_fixture("lesson-34", f"{AREAL}:areal/utils/data.py, areal/utils/functional/functional.py, areal/utils/seqpack.py, areal/engine/core/train_engine.py, areal/engine/fsdp_engine.py", {
        "normalize": normalize_cases(),
        "rejectionSampling": rejection_cases(),
        "splitMicroBatches": micro_batch_cases(),
        "globalTokenMean": token_mean_cases(),
    })


if __name__ == "__main__":
    main()
