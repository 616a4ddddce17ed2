"""Golden fixtures for lesson 9: MiniMind's RMSNorm and the pre-norm residual, in PyTorch.

RMSNorm restates model/model_minimind.py:50-60 at d65ef2c (same ops, same order, float32); the
residual branch restates the block's pattern at 186-194 with h -> tanh(h W^T) standing in for the
sublayer. Run: npm run fixtures lesson-9
"""
import torch

from common import MINIMIND, write_fixture


class RMSNorm(torch.nn.Module):
    """model_minimind.py:50-60."""

    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = torch.nn.Parameter(torch.ones(dim))

    def norm(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)

    def forward(self, x):
        return (self.weight * self.norm(x.float())).type_as(x)


def rms_norm(x, weight, eps):
    module = RMSNorm(x.shape[-1], eps)
    with torch.no_grad():
        module.weight.copy_(weight)
        return module(x)


def pre_norm_residual(x, weight, eps, sublayer_weight):
    """model_minimind.py:187-193: residual = h; h = sublayer(norm(h)); h += residual."""
    residual = x
    hidden = torch.tanh(rms_norm(x, weight, eps) @ sublayer_weight.T)
    hidden += residual
    return hidden


def inputs(seed, shape, eps, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    H = shape[-1]
    x = torch.randn(*shape, generator=g) * scale
    weight = 1 + 0.2 * torch.randn(H, generator=g)
    sublayer_weight = torch.randn(H, H, generator=g) / H ** 0.5
    return x, weight, eps, sublayer_weight


def main():
    torch.manual_seed(0)
    specs = [(100, (2, 5, 16), 1e-6, 1.0), (101, (3, 64), 1e-5, 1.0), (102, (4, 8), 1e-3, 0.05), (103, (1, 2, 768), 1e-6, 3.0)]
    norm_cases, residual_cases = [], []
    for seed, shape, eps, scale in specs:
        x, weight, eps, sublayer_weight = inputs(seed, shape, eps, scale)
        name = f"seed {seed}, x {list(shape)}, eps={eps}, scale {scale}"
        norm_cases.append({"name": name, "inputs": {"x": x, "weight": weight, "eps": eps},
                           "expected": rms_norm(x, weight, eps)})
        if shape[-1] > 64:
            continue  # an [H, H] sublayer weight at H=768 would make the fixture megabytes
        residual_cases.append({"name": name,
                               "inputs": {"x": x, "weight": weight, "eps": eps, "sublayerWeight": sublayer_weight},
                               "expected": pre_norm_residual(x, weight, eps, sublayer_weight)})
    write_fixture("lesson-9", f"{MINIMIND} model/model_minimind.py:50-60, 186-194",
                  {"rmsNorm": norm_cases, "preNormResidual": residual_cases})


if __name__ == "__main__":
    main()
