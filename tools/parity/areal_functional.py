"""AReaL computations shared by several parity scripts, restated in PyTorch.

Source: areal/utils/functional/functional.py at 4aef98d8 (inclusionAI/AReaL).
"""
import torch


def sequence_level_ratio(log_ratio, advantages, loss_mask):
    """functional.py:128-149 (the 2-D padded branch): GSPO's per-sequence geometric-mean ratio and mean advantage."""
    seq_log_ratio_mean = torch.where(loss_mask, log_ratio, 0.0).sum(dim=1) / loss_mask.sum(dim=1).clamp(min=1)
    ratio = torch.exp(seq_log_ratio_mean.unsqueeze(1).expand_as(log_ratio))
    ratio = torch.where(loss_mask, ratio, 0.0)
    seq_lengths = loss_mask.sum(dim=-1, keepdim=True).clamp(min=1)
    masked_advantages = torch.where(loss_mask, advantages, 0.0)
    advantages = (masked_advantages.sum(dim=-1, keepdim=True) / seq_lengths).expand_as(log_ratio)
    advantages = torch.where(loss_mask, advantages, 0.0)
    return ratio, advantages
