"""Golden fixtures for lesson 31: AReaL's M2PO loss mask in PyTorch, on seeded inputs.

apply_m2po_masking and get_m2po_loss_mask restate areal/trainer/ppo/actor.py:790-810 and 821-850
at 4aef98d8 line for line (float32, torch.sort descending).
Run: npm run fixtures lesson-31
"""
import torch

from common import AREAL, write_fixture


def get_m2po_loss_mask(sorted_m2, m2_threshold):
    """actor.py:821-850."""
    n = sorted_m2.numel()
    if n == 0:
        return torch.ones_like(sorted_m2, dtype=torch.bool)
    suffix_sums = sorted_m2.flip(0).cumsum(0).flip(0)
    counts = torch.arange(n, 0, -1, device=sorted_m2.device, dtype=sorted_m2.dtype)
    avg_m2_suffix = suffix_sums / counts
    below_threshold_indices = torch.where(avg_m2_suffix < m2_threshold)[0]
    if len(below_threshold_indices) > 0:
        num_to_mask = below_threshold_indices[0].item()
    else:
        num_to_mask = n - 1
    loss_mask = torch.ones_like(sorted_m2, dtype=torch.bool)
    if num_to_mask > 0:
        loss_mask[:num_to_mask] = False
    if loss_mask.sum() == 0:
        raise RuntimeError("All tokens are masked out when getting the m2po loss mask.")
    return loss_mask


def apply_m2po_masking(old_logp, prox_logp, loss_mask, m2_threshold):
    """actor.py:790-810."""
    delta = old_logp - prox_logp
    m2 = delta * delta
    mask_flat = loss_mask.view(-1)
    m2_selected = m2.view(-1)[mask_flat]
    if m2_selected.numel() == 0:
        return loss_mask
    sorted_m2, indices = torch.sort(m2_selected, descending=True)
    restored_indices = torch.argsort(indices)
    sorted_m2_loss_mask = get_m2po_loss_mask(sorted_m2=sorted_m2, m2_threshold=m2_threshold)
    m2_selected_mask = sorted_m2_loss_mask[restored_indices]
    m2_full_flat = torch.zeros_like(mask_flat, dtype=torch.bool, device=loss_mask.device)
    m2_full_flat[mask_flat] = m2_selected_mask
    return m2_full_flat.view_as(loss_mask)


def worked_example():
    """The batch of lessons/31-m2po.md § Worked example."""
    prox = torch.tensor([[-1.0, -0.8, -2.0, -0.5], [-1.2, -0.6, -1.5, -0.3]])
    delta = torch.tensor([[0.1, -0.5, 0.05, 0.3], [0.02, -0.4, 0.9, -0.15]])
    mask = torch.tensor([[True, True, True, True], [True, True, False, True]])
    return prox + delta, prox, mask


def stale_batch(seed, B, T, outlier_rate):
    """Small gaps N(0, 0.1^2), a share of outliers N(0, 1); ragged masks with one empty row."""
    g = torch.Generator().manual_seed(seed)
    prox = -torch.rand(B, T, generator=g) * 4
    outlier = torch.rand(B, T, generator=g) < outlier_rate
    gaps = torch.where(outlier, torch.randn(B, T, generator=g), torch.randn(B, T, generator=g) * 0.1)
    lengths = torch.randint(1, T + 1, (B,), generator=g)
    lengths[0] = T
    if B > 2:
        lengths[-1] = 0
    mask = torch.arange(T).unsqueeze(0) < lengths.unsqueeze(1)
    return prox + gaps, prox, mask


def case(name, batch, m2_threshold):
    old, prox, mask = batch
    return {"name": name, "inputs": {"oldLogp": old, "proxLogp": prox, "lossMask": mask, "m2Threshold": m2_threshold},
            "expected": apply_m2po_masking(old, prox, mask, m2_threshold)}


def main():
    cases = [
        case("worked example, τ=0.04", worked_example(), 0.04),
        case("PyTorch seed 1: B=4 T=10, 10% outliers, τ=0.04", stale_batch(1, 4, 10, 0.1), 0.04),
        case("PyTorch seed 2: B=6 T=24, 30% outliers, τ=0.04", stale_batch(2, 6, 24, 0.3), 0.04),
        case("PyTorch seed 3: B=5 T=16, 5% outliers, τ=0.01", stale_batch(3, 5, 16, 0.05), 0.01),
        case("PyTorch seed 4: B=4 T=512, 5% outliers, τ=0.04", stale_batch(4, 4, 512, 0.05), 0.04),
    ]
    write_fixture("lesson-31", AREAL, {"m2poMask": cases})


if __name__ == "__main__":
    main()
