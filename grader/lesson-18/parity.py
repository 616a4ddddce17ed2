"""Golden fixtures for lesson 18: MiniMind's LoRA layer and its merge, in PyTorch on seeded inputs.

Re-expresses model/model_lora.py at d65ef2c: the LoRA module (6-18: A = Linear(in, r) drawn from
N(0, 0.02²), B = Linear(r, out) zeroed, forward B(A(x))), the patched forward that adds it to the
frozen layer (29-30), and merge_lora's weight update W + B.weight @ A.weight (56-65). MiniMind has
no α, so every case here has α = r (scale 1). B is then filled with seeded values so that the
adapter does something; gradients come from autograd. Run: npm run fixtures lesson-18
"""
import torch
from torch import nn

from common import MINIMIND, write_fixture


class LoRA(nn.Module):
    """model_lora.py:6-18."""

    def __init__(self, in_features, out_features, rank):
        super().__init__()
        self.rank = rank
        self.A = nn.Linear(in_features, rank, bias=False)
        self.B = nn.Linear(rank, out_features, bias=False)
        self.A.weight.data.normal_(mean=0.0, std=0.02)
        self.B.weight.data.zero_()

    def forward(self, x):
        return self.B(self.A(x))


def case(seed, shape_x, n_in, n_out, rank, trained_b=True):
    g = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    layer = nn.Linear(n_in, n_out, bias=False)
    layer.weight.data = torch.randn(n_out, n_in, generator=g) * 0.5
    lora = LoRA(n_in, n_out, rank)
    if trained_b:  # as after some training steps: B no longer zero, A moved too
        lora.B.weight.data = torch.randn(n_out, rank, generator=g) * 0.3
        lora.A.weight.data += torch.randn(rank, n_in, generator=g) * 0.1
    x = torch.randn(*shape_x, n_in, generator=g)
    upstream = torch.randn(*shape_x, n_out, generator=g)
    a = lora.A.weight
    b = lora.B.weight

    y = layer(x) + lora(x)  # model_lora.py:29-30
    (y * upstream).sum().backward()
    merged = layer.weight.data.clone() + (b.data @ a.data)  # model_lora.py:62-64

    inputs = {"x": x, "weight": layer.weight.data, "loraA": a.data.clone(), "loraB": b.data.clone(), "alpha": rank}
    return inputs, upstream, y.detach(), a.grad.clone(), b.grad.clone(), merged


def main():
    specs = [
        ("seed 1, x [3, 8], square 8→8, r=2", 1, (3,), 8, 8, 2, True),
        ("seed 2, x [2, 5, 16], square 16→16, r=4", 2, (2, 5), 16, 16, 4, True),
        ("seed 3, x [2, 4, 12], 12→20, r=3", 3, (2, 4), 12, 20, 3, True),
        ("seed 4, fresh adapter (B = 0), x [2, 3, 8], r=4", 4, (2, 3), 8, 8, 4, False),
    ]
    cases = {"loraLinear": [], "loraLinear.gradient.loraA": [], "loraLinear.gradient.loraB": [], "mergeLora": []}
    for name, seed, shape_x, n_in, n_out, rank, trained in specs:
        inputs, upstream, y, ga, gb, merged = case(seed, shape_x, n_in, n_out, rank, trained)
        cases["loraLinear"].append({"name": name, "inputs": inputs, "expected": y})
        with_up = {**inputs, "upstream": upstream}
        cases["loraLinear.gradient.loraA"].append({"name": name, "inputs": with_up, "expected": ga})
        cases["loraLinear.gradient.loraB"].append({"name": name, "inputs": with_up, "expected": gb})
        merge_inputs = {k: inputs[k] for k in ("weight", "loraA", "loraB", "alpha")}
        cases["mergeLora"].append({"name": name, "inputs": merge_inputs, "expected": merged})
    write_fixture("lesson-18", f"{MINIMIND} model/model_lora.py:6-18, 29-30, 56-65", cases)


if __name__ == "__main__":
    main()
