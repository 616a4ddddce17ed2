"""Golden fixtures for lesson 11: MiniMind's repeat_kv and Attention.forward in PyTorch.

The functions below restate model/model_minimind.py at d65ef2c (same ops, same order, float32)
with the weights passed in rather than held by nn.Modules. torch 1.13 has no
scaled_dot_product_attention, so MiniMind's `self.flash` is False here and the explicit path
(lines 128-131) runs; the fused path computes the same numbers. lesson 12's parity.py imports these
functions for its whole-model fixture. Run: npm run fixtures lesson-11
"""
import math

import torch
import torch.nn.functional as F

from common import MINIMIND, write_fixture


def rms_norm(x, weight, eps):
    """model_minimind.py:56-60."""
    normed = x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + eps)
    return (weight * normed).type_as(x)


def precompute_freqs_cis(dim, end, rope_base=1e6, rope_scaling=None):
    """model_minimind.py:62-78; rope_scaling uses MiniMind's snake_case keys."""
    freqs = 1.0 / (rope_base ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    attn_factor = 1.0
    if rope_scaling is not None:
        orig_max = rope_scaling.get("original_max_position_embeddings", 2048)
        factor = rope_scaling.get("factor", 16)
        beta_fast = rope_scaling.get("beta_fast", 32.0)
        beta_slow = rope_scaling.get("beta_slow", 1.0)
        attn_factor = rope_scaling.get("attention_factor", 1.0)
        if end / orig_max > 1.0:
            def inv_dim(b):
                return (dim * math.log(orig_max / (b * 2 * math.pi))) / (2 * math.log(rope_base))
            low = max(math.floor(inv_dim(beta_fast)), 0)
            high = min(math.ceil(inv_dim(beta_slow)), dim // 2 - 1)
            ramp = torch.clamp((torch.arange(dim // 2).float() - low) / max(high - low, 0.001), 0, 1)
            freqs = freqs * (1 - ramp + ramp / factor)
    t = torch.arange(end)
    freqs = torch.outer(t, freqs).float()
    cos = torch.cat([torch.cos(freqs), torch.cos(freqs)], dim=-1) * attn_factor
    sin = torch.cat([torch.sin(freqs), torch.sin(freqs)], dim=-1) * attn_factor
    return cos, sin


def rotate_half(x):
    return torch.cat((-x[..., x.shape[-1] // 2:], x[..., : x.shape[-1] // 2]), dim=-1)


def apply_rotary_pos_emb(q, k, cos, sin, unsqueeze_dim=1):
    """model_minimind.py:80-84."""
    q_embed = (q * cos.unsqueeze(unsqueeze_dim)) + (rotate_half(q) * sin.unsqueeze(unsqueeze_dim))
    k_embed = (k * cos.unsqueeze(unsqueeze_dim)) + (rotate_half(k) * sin.unsqueeze(unsqueeze_dim))
    return q_embed.to(q.dtype), k_embed.to(k.dtype)


def repeat_kv(x, n_rep):
    """model_minimind.py:86-89."""
    bs, slen, num_key_value_heads, head_dim = x.shape
    if n_rep == 1:
        return x
    expanded = x[:, :, :, None, :].expand(bs, slen, num_key_value_heads, n_rep, head_dim)
    return expanded.reshape(bs, slen, num_key_value_heads * n_rep, head_dim)


def attention(x, w, n_heads, n_kv_heads, cos, sin, past_key_value=None, use_cache=False, attention_mask=None, eps=1e-6):
    """model_minimind.py:111-134 (explicit path; dropout 0). w: wq, wk, wv, wo, qNorm, kNorm."""
    bsz, seq_len, _ = x.shape
    head_dim = w["wq"].shape[0] // n_heads
    n_rep = n_heads // n_kv_heads
    xq, xk, xv = F.linear(x, w["wq"]), F.linear(x, w["wk"]), F.linear(x, w["wv"])
    xq = xq.view(bsz, seq_len, n_heads, head_dim)
    xk = xk.view(bsz, seq_len, n_kv_heads, head_dim)
    xv = xv.view(bsz, seq_len, n_kv_heads, head_dim)
    xq, xk = rms_norm(xq, w["qNorm"], eps), rms_norm(xk, w["kNorm"], eps)
    xq, xk = apply_rotary_pos_emb(xq, xk, cos, sin)
    if past_key_value is not None:
        xk = torch.cat([past_key_value[0], xk], dim=1)
        xv = torch.cat([past_key_value[1], xv], dim=1)
    past_kv = (xk, xv) if use_cache else None
    xq, xk, xv = xq.transpose(1, 2), repeat_kv(xk, n_rep).transpose(1, 2), repeat_kv(xv, n_rep).transpose(1, 2)
    scores = (xq @ xk.transpose(-2, -1)) / math.sqrt(head_dim)
    scores[:, :, :, -seq_len:] += torch.full((seq_len, seq_len), float("-inf")).triu(1)
    if attention_mask is not None:
        scores += (1.0 - attention_mask.unsqueeze(1).unsqueeze(2)) * -1e9
    output = F.softmax(scores.float(), dim=-1).type_as(xq) @ xv
    output = output.transpose(1, 2).reshape(bsz, seq_len, -1)
    return F.linear(output, w["wo"]), past_kv


def layer_case(seed, B, S, P, H, Hq, Hkv, left_pad=None, base=1e6):
    """A seeded layer and its expected output; every case keeps the cache so it is compared too."""
    g = torch.Generator().manual_seed(seed)
    D = H // Hq
    scale = 1 / math.sqrt(H)
    w = {
        "wq": torch.randn(Hq * D, H, generator=g) * scale,
        "wk": torch.randn(Hkv * D, H, generator=g) * scale,
        "wv": torch.randn(Hkv * D, H, generator=g) * scale,
        "wo": torch.randn(H, Hq * D, generator=g) * scale,
        "qNorm": 1 + 0.3 * torch.randn(D, generator=g),
        "kNorm": 1 + 0.3 * torch.randn(D, generator=g),
    }
    x = torch.randn(B, S, H, generator=g)
    past = (torch.randn(B, P, Hkv, D, generator=g), torch.randn(B, P, Hkv, D, generator=g)) if P > 0 else None
    cos, sin = precompute_freqs_cis(D, P + S, base)
    cos, sin = cos[P:P + S], sin[P:P + S]
    mask = None
    if left_pad is not None:
        mask = torch.tensor([[0.0 if j < pad else 1.0 for j in range(P + S)] for pad in left_pad])
    output, present = attention(x, w, Hq, Hkv, cos, sin, past, True, mask)
    name = f"PyTorch seed {seed}: B={B} S={S} P={P} H={H} Hq={Hq} Hkv={Hkv}" + (f", left padding {left_pad}" if left_pad else "")
    opts = {"numHeads": Hq, "numKvHeads": Hkv, "cos": cos, "sin": sin, "attentionMask": mask,
            "pastKv": {"k": past[0], "v": past[1]} if past else None, "useCache": True, "eps": 1e-6}
    return {"name": name, "inputs": {"x": x, "weights": w, "opts": opts},
            "expected": {"output": output, "presentKv": {"k": present[0], "v": present[1]}}}


def repeat_case(seed, shape, n_rep):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(*shape, generator=g)
    return {"name": f"PyTorch seed {seed}: x {list(shape)}, nRep={n_rep}", "inputs": {"x": x, "nRep": n_rep},
            "expected": repeat_kv(x, n_rep).contiguous()}


def main():
    cases = {
        "repeatKv": [repeat_case(1, (2, 4, 2, 3), 2), repeat_case(2, (1, 6, 1, 4), 3), repeat_case(3, (2, 3, 2, 2), 1)],
        "attention": [
            layer_case(3, 2, 5, 0, 16, 4, 2),
            layer_case(4, 2, 4, 3, 16, 4, 2, left_pad=[0, 2]),
            layer_case(5, 3, 1, 6, 8, 4, 2, left_pad=[0, 1, 3]),
            layer_case(6, 1, 7, 0, 8, 2, 2, base=1e4),
        ],
    }
    write_fixture("lesson-11", f"{MINIMIND}:model/model_minimind.py", cases)


if __name__ == "__main__":
    main()
