"""Golden fixtures for lesson 13: MiniMind's SwiGLU FeedForward and MOEFeedForward, in PyTorch.

Restates model/model_minimind.py:136-176 at d65ef2c (same ops, same order, float32); ACT2FN["silu"]
is F.silu. Run: npm run fixtures lesson-13
"""
from types import SimpleNamespace

import torch
import torch.nn.functional as F
from torch import nn

from common import MINIMIND, write_fixture


class FeedForward(nn.Module):
    """model_minimind.py:136-146."""

    def __init__(self, config, intermediate_size=None):
        super().__init__()
        intermediate_size = intermediate_size or config.intermediate_size
        self.gate_proj = nn.Linear(config.hidden_size, intermediate_size, bias=False)
        self.down_proj = nn.Linear(intermediate_size, config.hidden_size, bias=False)
        self.up_proj = nn.Linear(config.hidden_size, intermediate_size, bias=False)
        self.act_fn = F.silu

    def forward(self, x):
        return self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))


class MOEFeedForward(nn.Module):
    """model_minimind.py:148-176."""

    def __init__(self, config):
        super().__init__()
        self.config = config
        self.gate = nn.Linear(config.hidden_size, config.num_experts, bias=False)
        self.experts = nn.ModuleList([FeedForward(config, intermediate_size=config.moe_intermediate_size) for _ in range(config.num_experts)])

    def forward(self, x):
        batch_size, seq_len, hidden_dim = x.shape
        x_flat = x.view(-1, hidden_dim)
        scores = F.softmax(self.gate(x_flat), dim=-1)
        topk_weight, topk_idx = torch.topk(scores, k=self.config.num_experts_per_tok, dim=-1, sorted=False)
        if self.config.norm_topk_prob: topk_weight = topk_weight / (topk_weight.sum(dim=-1, keepdim=True) + 1e-20)
        y = torch.zeros_like(x_flat)
        for i, expert in enumerate(self.experts):
            mask = (topk_idx == i)
            if mask.any():
                token_idx = mask.any(dim=-1).nonzero().flatten()
                weight = topk_weight[mask].view(-1, 1)
                y.index_add_(0, token_idx, (expert(x_flat[token_idx]) * weight).to(y.dtype))
            elif self.training:
                y[0, 0] += 0 * sum(p.sum() for p in expert.parameters())
        if self.training and self.config.router_aux_loss_coef > 0:
            load = F.one_hot(topk_idx, self.config.num_experts).float().mean(0)
            self.aux_loss = (load * scores.mean(0)).sum() * self.config.num_experts * self.config.router_aux_loss_coef
        else:
            self.aux_loss = scores.new_zeros(1).squeeze()
        return y.view(batch_size, seq_len, hidden_dim)


def ffn_weights(module):
    return {"gate": module.gate_proj.weight, "up": module.up_proj.weight, "down": module.down_proj.weight}


def ffn_case(seed, shape, intermediate):
    torch.manual_seed(seed)
    config = SimpleNamespace(hidden_size=shape[-1], intermediate_size=intermediate)
    module = FeedForward(config)
    x = torch.randn(*shape)
    with torch.no_grad():
        out = module(x)
    return {"name": f"seed {seed}, x {list(shape)}, I={intermediate}",
            "inputs": {"x": x, "w": ffn_weights(module)}, "expected": out}


def moe_case(seed, shape, experts, intermediate, top_k, norm, training, coef):
    torch.manual_seed(seed)
    config = SimpleNamespace(hidden_size=shape[-1], num_experts=experts, moe_intermediate_size=intermediate,
                             num_experts_per_tok=top_k, norm_topk_prob=norm, router_aux_loss_coef=coef)
    module = MOEFeedForward(config)
    with torch.no_grad():
        module.gate.weight.mul_(4)  # sharper routing than the default init, so top-k choices are clear
    module.train(training)
    x = torch.randn(*shape)
    with torch.no_grad():
        out = module(x)
    weights = {"gate": module.gate.weight, "experts": [ffn_weights(e) for e in module.experts]}
    opts = {"topK": top_k, "normTopkProb": norm, "routerAuxLossCoef": coef, "training": training}
    name = (f"seed {seed}, x {list(shape)}, E={experts} k={top_k}, norm={norm}, "
            f"{'training' if training else 'eval'}, alpha={coef}")
    return {"name": name, "inputs": {"x": x, "w": weights, "opts": opts},
            "expected": {"output": out, "auxLoss": module.aux_loss.detach()}}


def main():
    ffn = [ffn_case(300, (2, 4, 8), 24), ffn_case(301, (1, 3, 16), 16), ffn_case(302, (5, 12), 40)]
    moe = [moe_case(310, (2, 4, 8), 4, 16, 1, True, True, 5e-4),
           moe_case(311, (2, 3, 8), 4, 12, 2, False, True, 0.1),
           moe_case(312, (1, 6, 8), 6, 8, 3, True, True, 0.01),
           moe_case(313, (2, 2, 8), 4, 8, 2, False, False, 5e-4)]
    write_fixture("lesson-13", f"{MINIMIND} model/model_minimind.py:136-176",
                  {"feedForward": ffn, "moeFeedForward": moe})


if __name__ == "__main__":
    main()
