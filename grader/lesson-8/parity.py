"""Golden fixtures for lesson 8: MiniMind's parameter count, from the modules' own shapes.

Re-expresses the parameter-creating lines of model/model_minimind.py at d65ef2c (the config's
defaults, 10-45; Attention, 91-107; FeedForward and MOEFeedForward, 136-153; the block, 178-184;
the model, 196-204; the causal LM with its tied lm_head, 234-242) on PyTorch's meta device, so no
memory is allocated, and counts them as trainer/trainer_utils.py:18-28 does: distinct parameters
for the total, experts.0 of every layer for the active count.
Run: npm run fixtures lesson-8
"""
import math

import torch
from torch import nn

from common import MINIMIND, write_fixture

META = torch.device("meta")


class Config:
    """model_minimind.py:12-45, without PretrainedConfig (only the fields that shape parameters)."""

    def __init__(self, hidden_size=768, num_hidden_layers=8, use_moe=False, **kwargs):
        self.hidden_size = hidden_size
        self.num_hidden_layers = num_hidden_layers
        self.use_moe = use_moe
        self.vocab_size = kwargs.get("vocab_size", 6400)
        self.num_attention_heads = kwargs.get("num_attention_heads", 8)
        self.num_key_value_heads = kwargs.get("num_key_value_heads", 4)
        self.head_dim = kwargs.get("head_dim", self.hidden_size // self.num_attention_heads)
        self.intermediate_size = kwargs.get("intermediate_size", math.ceil(hidden_size * math.pi / 64) * 64)
        self.rms_norm_eps = kwargs.get("rms_norm_eps", 1e-6)
        self.tie_word_embeddings = kwargs.get("tie_word_embeddings", True)
        self.num_experts = kwargs.get("num_experts", 4)
        self.num_experts_per_tok = kwargs.get("num_experts_per_tok", 1)
        self.moe_intermediate_size = kwargs.get("moe_intermediate_size", self.intermediate_size)
        self.norm_topk_prob = kwargs.get("norm_topk_prob", True)
        self.router_aux_loss_coef = kwargs.get("router_aux_loss_coef", 5e-4)

    def as_course_config(self):
        """The full camelCase MiniMindConfig of lib/model/config.ts (remaining fields at their defaults)."""
        return {
            "hiddenSize": self.hidden_size, "numHiddenLayers": self.num_hidden_layers, "useMoe": self.use_moe,
            "dropout": 0.0, "vocabSize": self.vocab_size, "bosTokenId": 1, "eosTokenId": 2, "flashAttn": True,
            "numAttentionHeads": self.num_attention_heads, "numKeyValueHeads": self.num_key_value_heads,
            "headDim": self.head_dim, "hiddenAct": "silu", "intermediateSize": self.intermediate_size,
            "maxPositionEmbeddings": 32768, "rmsNormEps": self.rms_norm_eps, "ropeTheta": 1e6,
            "tieWordEmbeddings": self.tie_word_embeddings, "inferenceRopeScaling": False, "ropeScaling": None,
            "numExperts": self.num_experts, "numExpertsPerTok": self.num_experts_per_tok,
            "moeIntermediateSize": self.moe_intermediate_size, "normTopkProb": self.norm_topk_prob,
            "routerAuxLossCoef": self.router_aux_loss_coef,
        }


def linear(n_in, n_out):
    return nn.Linear(n_in, n_out, bias=False, device=META)


class RMSNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim, device=META))


class Attention(nn.Module):
    def __init__(self, c):
        super().__init__()
        kv_heads = c.num_attention_heads if c.num_key_value_heads is None else c.num_key_value_heads
        self.q_proj = linear(c.hidden_size, c.num_attention_heads * c.head_dim)
        self.k_proj = linear(c.hidden_size, kv_heads * c.head_dim)
        self.v_proj = linear(c.hidden_size, kv_heads * c.head_dim)
        self.o_proj = linear(c.num_attention_heads * c.head_dim, c.hidden_size)
        self.q_norm = RMSNorm(c.head_dim)
        self.k_norm = RMSNorm(c.head_dim)


class FeedForward(nn.Module):
    def __init__(self, c, intermediate_size=None):
        super().__init__()
        intermediate_size = intermediate_size or c.intermediate_size
        self.gate_proj = linear(c.hidden_size, intermediate_size)
        self.down_proj = linear(intermediate_size, c.hidden_size)
        self.up_proj = linear(c.hidden_size, intermediate_size)


class MOEFeedForward(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.gate = linear(c.hidden_size, c.num_experts)
        self.experts = nn.ModuleList([FeedForward(c, intermediate_size=c.moe_intermediate_size) for _ in range(c.num_experts)])


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.self_attn = Attention(c)
        self.input_layernorm = RMSNorm(c.hidden_size)
        self.post_attention_layernorm = RMSNorm(c.hidden_size)
        self.mlp = FeedForward(c) if not c.use_moe else MOEFeedForward(c)


class Model(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.embed_tokens = nn.Embedding(c.vocab_size, c.hidden_size, device=META)
        self.layers = nn.ModuleList([Block(c) for _ in range(c.num_hidden_layers)])
        self.norm = RMSNorm(c.hidden_size)


class CausalLM(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.model = Model(c)
        self.lm_head = linear(c.hidden_size, c.vocab_size)
        if c.tie_word_embeddings:
            self.model.embed_tokens.weight = self.lm_head.weight


def part(name):
    if "embed_tokens" in name or "lm_head" in name:
        return "embedding"
    if "norm" in name:
        return "norms"
    if ".mlp." in name:
        return "feedForward"
    if ".self_attn." in name:
        return "attention"
    raise ValueError(name)


def count(c):
    """trainer_utils.py:18-26 (in parameters, not millions), plus a breakdown by part."""
    model = CausalLM(c)
    total = sum(p.numel() for p in model.parameters())
    expert = sum(p.numel() for n, p in model.named_parameters() if "mlp.experts.0." in n)
    n_routed, n_active = c.num_experts, c.num_experts_per_tok
    base = total - expert * n_routed
    active = base + expert * n_active
    parts = {"embedding": 0, "attention": 0, "feedForward": 0, "norms": 0}
    for name, p in model.named_parameters():
        parts[part(name)] += p.numel()
    out = {"total": total, **parts, "active": active if c.use_moe else total}
    if c.use_moe:
        out["experts"] = sum(p.numel() for n, p in model.named_parameters() if ".mlp.experts." in n)
    return {k: torch.tensor(v, dtype=torch.int64) for k, v in out.items()}


def main():
    configs = [
        ("MiniMind-3 defaults (64M)", Config()),
        ("MiniMind-3-MoE defaults (198M-A64M)", Config(use_moe=True)),
        ("a narrower MiniMind: H=512, kv_heads=2", Config(hidden_size=512, num_key_value_heads=2)),
        ("untied lm_head, H=256, 4 layers", Config(hidden_size=256, num_hidden_layers=4, tie_word_embeddings=False)),
        ("MoE top-2 of 8, narrow experts", Config(hidden_size=128, num_hidden_layers=2, use_moe=True, num_experts=8,
                                                  num_experts_per_tok=2, moe_intermediate_size=96)),
        ("explicit head_dim=64 with 6 heads over H=256", Config(hidden_size=256, num_attention_heads=6,
                                                                 num_key_value_heads=2, head_dim=64, vocab_size=1000)),
    ]
    cases = [{"name": name, "inputs": {"config": c.as_course_config()}, "expected": count(c)} for name, c in configs]
    for case in cases:
        print(f"  {case['name']}: total {int(case['expected']['total'])}, active {int(case['expected']['active'])}")
    write_fixture("lesson-8", f"{MINIMIND} model/model_minimind.py:10-45, 91-107, 136-153, 178-204, 234-242; "
                              "trainer/trainer_utils.py:18-28", {"countParams": cases})


if __name__ == "__main__":
    main()
