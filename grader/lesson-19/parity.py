"""Golden fixtures for lesson 19: which layers MiniMind's apply_lora adapts, and what LoRA trains.

Builds MiniMind's module tree with grader/lesson-8/parity.py's re-expression of model/model_minimind.py at
d65ef2c (same names, same shapes), fills it with seeded values, then restates model_lora.py:21-25
(an adapter on every nn.Linear whose in_features == out_features; A ~ N(0, 0.02²), B = 0, from the
LoRA module at 6-15) and trainer/train_lora.py:132-146 (counts, and requires_grad by 'lora' in the
name). The A values drawn here are inputs of the case (`initialA`), so the TypeScript run draws the
same. Run: npm run fixtures lesson-19
"""
import torch
from torch import nn

from common import MINIMIND, write_fixture
from lesson_8 import CausalLM, Config


def build(c, seed):
    """The model on the cpu with seeded weights; the tied embedding is tied again after to_empty."""
    model = CausalLM(c).to_empty(device="cpu")
    if c.tie_word_embeddings:
        model.model.embed_tokens.weight = model.lm_head.weight
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            p.copy_(torch.ones_like(p) if "norm" in name else torch.randn(p.shape, generator=g) * 0.02)
    return model


class LoRA(nn.Module):
    """model_lora.py:6-15 (the forward is lesson 18's)."""

    def __init__(self, in_features, out_features, rank):
        super().__init__()
        self.rank = rank
        self.A = nn.Linear(in_features, rank, bias=False)
        self.B = nn.Linear(rank, out_features, bias=False)
        self.A.weight.data.normal_(mean=0.0, std=0.02)
        self.B.weight.data.zero_()


def apply_lora(model, rank):
    """model_lora.py:21-25 (the forward patch of 26-32 is not needed to list the adapters)."""
    for name, module in model.named_modules():
        if isinstance(module, nn.Linear) and module.in_features == module.out_features:
            lora = LoRA(module.in_features, module.out_features, rank=rank)
            setattr(module, "lora", lora)


def case(name, c, rank, seed):
    torch.manual_seed(seed)
    model = build(c, seed)
    # The base weights as the course stores them: one entry per distinct parameter (no tied lm_head).
    weights = {n: p.detach().clone() for n, p in model.named_parameters()}
    apply_lora(model, rank)
    adapters = {n: p.detach().clone() for n, p in model.named_parameters() if ".lora." in n}
    initial_a = {n: t for n, t in adapters.items() if n.endswith(".lora.A.weight")}

    # train_lora.py:133-134, 140-146
    total_params = sum(p.numel() for p in model.parameters())
    lora_params_count = sum(p.numel() for n, p in model.named_parameters() if "lora" in n)
    lora_params = []
    for n, p in model.named_parameters():
        if "lora" in n:
            p.requires_grad = True
            lora_params.append(n)
        else:
            p.requires_grad = False
    shapes = {n: list(p.shape) for n, p in model.named_parameters()}
    print(f"  {name}: {len(adapters) // 2} adapters, {lora_params_count} of {total_params} parameters train")
    return (
        {"name": name, "inputs": {"weights": weights, "rank": rank, "initialA": initial_a},
         "expected": {"names": list(adapters.keys()), "adapters": adapters}},
        {"name": name, "inputs": {"shapes": shapes},
         "expected": {"trainable": lora_params, "trainableCount": lora_params_count, "totalCount": total_params}},
    )


def main():
    configs = [
        ("H=16, 4 heads over 2 kv heads, 2 layers, r=4", Config(hidden_size=16, num_hidden_layers=2, vocab_size=40,
                                                              num_attention_heads=4, num_key_value_heads=2), 4, 1),
        ("no GQA (kv heads = heads): k_proj and v_proj are square too, r=2",
         Config(hidden_size=16, num_hidden_layers=1, vocab_size=40, num_attention_heads=4, num_key_value_heads=4), 2, 2),
        ("MoE, 3 experts, r=4", Config(hidden_size=16, num_hidden_layers=1, vocab_size=40, num_attention_heads=4,
                                       num_key_value_heads=2, use_moe=True, num_experts=3), 4, 3),
        ("untied lm_head with V = H = 16: the square lm_head is adapted, r=8",
         Config(hidden_size=16, num_hidden_layers=1, vocab_size=16, num_attention_heads=2, num_key_value_heads=1,
                tie_word_embeddings=False), 8, 4),
    ]
    pairs = [case(name, c, rank, seed) for name, c, rank, seed in configs]
    write_fixture("lesson-19", f"{MINIMIND} model/model_lora.py:6-25; trainer/train_lora.py:132-146",
                  {"applyLora": [p[0] for p in pairs], "trainableParams": [p[1] for p in pairs]})


if __name__ == "__main__":
    main()
