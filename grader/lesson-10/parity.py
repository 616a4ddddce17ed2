"""Golden fixtures for lesson 10: MiniMind's shifted next-token loss, in PyTorch.

Restates model/model_minimind.py:250-252 at d65ef2c (same ops, same order, float32) and records
both the loss and its gradient w.r.t. the logits. Run: npm run fixtures lesson-10
"""
import torch
import torch.nn.functional as F

from common import MINIMIND, write_fixture

IGNORE = -100


def causal_lm_loss(logits, labels):
    """model_minimind.py:251-252."""
    x, y = logits[..., :-1, :].contiguous(), labels[..., 1:].contiguous()
    return F.cross_entropy(x.view(-1, x.size(-1)), y.view(-1), ignore_index=IGNORE)


def batch(seed, B, T, V):
    """Logits ~ N(0, 2²); row b > 0 ignores a random prompt prefix and padding suffix."""
    g = torch.Generator().manual_seed(seed)
    logits = 2 * torch.randn(B, T, V, generator=g)
    labels = torch.randint(0, V, (B, T), generator=g)
    for b in range(1, B):
        prompt = int(torch.randint(0, T, (1,), generator=g))
        pad_from = int(torch.randint(prompt, T + 1, (1,), generator=g))
        labels[b, :prompt] = IGNORE
        labels[b, pad_from:] = IGNORE
    return logits, labels


def main():
    torch.manual_seed(0)
    values, gradients = [], []
    for seed, (B, T, V) in [(200, (2, 8, 32)), (201, (4, 5, 10)), (202, (1, 16, 64)), (203, (3, 2, 7))]:
        logits, labels = batch(seed, B, T, V)
        leaf = logits.clone().requires_grad_(True)
        loss = causal_lm_loss(leaf, labels)
        loss.backward()
        name = f"seed {seed}, B={B} T={T} V={V}"
        inputs = {"logits": logits, "labels": labels, "ignoreIndex": IGNORE}
        values.append({"name": name, "inputs": inputs, "expected": loss.detach()})
        gradients.append({"name": f"gradient, {name}", "inputs": inputs, "expected": leaf.grad})
    write_fixture("lesson-10", f"{MINIMIND} model/model_minimind.py:250-252",
                  {"causalLmLoss": values, "causalLmLossGradient": gradients})


if __name__ == "__main__":
    main()
