"""Golden fixtures for lesson 14: MiniMind's learning-rate schedule, its accumulation decisions, and
gradient clipping, in PyTorch.

get_lr restates trainer/trainer_utils.py:40-41 at d65ef2c; the stepping rule and the tail flush
restate the conditions of trainer/train_pretrain.py:42 and 75; clipping calls torch's own
torch.nn.utils.clip_grad_norm_ (train_pretrain.py:44) on the gradients of a small seeded model
that has a MiniMind-shaped block (embedding, RMSNorm gain, SwiGLU projections, tied head).
Run: npm run fixtures lesson-14
"""
import math

import torch
import torch.nn.functional as F

from common import MINIMIND, write_fixture


def get_lr(current_step, total_steps, lr):
    """trainer_utils.py:40-41."""
    return lr * (0.1 + 0.45 * (1 + math.cos(math.pi * current_step / total_steps)))


def steps_optimizer(step, accumulation_steps):
    """train_pretrain.py:42: `if step % args.accumulation_steps == 0`."""
    return step % accumulation_steps == 0


def flushes_tail(last_step, start_step, accumulation_steps):
    """train_pretrain.py:75: `if last_step > start_step and last_step % args.accumulation_steps != 0`."""
    return last_step > start_step and last_step % accumulation_steps != 0


def lr_cases():
    cases = []
    for seed, (total, lr) in enumerate([(100, 5e-4), (44160, 5e-4), (37, 1e-5), (1000, 2e-3)]):
        g = torch.Generator().manual_seed(seed)
        steps = torch.randint(0, total + 1, (48,), generator=g).tolist()
        values = torch.tensor([get_lr(s, total, lr) for s in steps], dtype=torch.float32)
        cases.append({"name": f"seed {seed}: 48 steps of T={total}, lr={lr}", "inputs": {"steps": steps, "total": total, "lr": lr},
                      "expected": values})
    return cases


def step_cases():
    cases = []
    for k, first, last in [(8, 1, 64), (5, 21, 70), (1, 1, 10), (16, 3, 40)]:
        steps = list(range(first, last + 1))
        cases.append({"name": f"K={k}, steps {first}-{last}", "inputs": {"steps": steps, "accumulationSteps": k},
                      "expected": torch.tensor([int(steps_optimizer(s, k)) for s in steps], dtype=torch.int32)})
    return cases


def flush_cases():
    g = torch.Generator().manual_seed(14)
    epochs = []
    for _ in range(48):
        k = int(torch.randint(1, 9, (1,), generator=g))
        start = int(torch.randint(0, 25, (1,), generator=g)) if bool(torch.rand(1, generator=g) < 0.5) else 0
        epochs.append([start + int(torch.randint(0, 18, (1,), generator=g)), start, k])
    expected = torch.tensor([int(flushes_tail(*e)) for e in epochs], dtype=torch.int32)
    return [{"name": "seed 14: 48 epochs (last, start, K)", "inputs": {"epochs": epochs}, "expected": expected}]


def model_grads(seed, vocab, hidden, inter, batch, seq):
    """Gradients of the shifted cross-entropy of a one-block model shaped like MiniMind's parts."""
    torch.manual_seed(seed)
    embed = (torch.randn(vocab, hidden) * 0.5).requires_grad_(True)
    norm = (1 + 0.1 * torch.randn(hidden)).requires_grad_(True)
    gate = (torch.randn(inter, hidden) * 0.3).requires_grad_(True)
    up = (torch.randn(inter, hidden) * 0.3).requires_grad_(True)
    down = (torch.randn(hidden, inter) * 0.3).requires_grad_(True)
    ids = torch.randint(0, vocab, (batch, seq))
    h = embed[ids]
    x = norm * (h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6))
    h = h + F.linear(F.silu(F.linear(x, gate)) * F.linear(x, up), down)
    logits = F.linear(h, embed)
    loss = F.cross_entropy(logits[:, :-1].reshape(-1, vocab), ids[:, 1:].reshape(-1))
    params = [embed, norm, gate, up, down]
    loss.backward()
    return [p.grad.detach().clone() for p in params]


def clip_cases():
    cases = []
    for seed, (vocab, hidden, inter, batch, seq, max_norm) in enumerate([(32, 16, 48, 4, 8, 1.0), (64, 32, 96, 2, 16, 0.1),
                                                                        (16, 8, 24, 2, 4, 50.0)]):
        grads = model_grads(seed, vocab, hidden, inter, batch, seq)
        before = [g.clone() for g in grads]
        params = []
        for g in grads:
            p = torch.nn.Parameter(torch.zeros_like(g))
            p.grad = g
            params.append(p)
        total = torch.nn.utils.clip_grad_norm_(params, max_norm)
        cases.append({"name": f"seed {seed}: one-block model V={vocab} H={hidden} I={inter}, maxNorm {max_norm}",
                      "inputs": {"grads": before, "maxNorm": max_norm},
                      "expected": {"grads": [p.grad for p in params], "totalNorm": total.reshape(())}})
    return cases


def main():
    write_fixture("lesson-14", f"{MINIMIND} trainer/trainer_utils.py:40-41; trainer/train_pretrain.py:38-49, 75-80 "
                               "(torch.nn.utils.clip_grad_norm_)",
                  {"cosineLr": lr_cases(), "shouldStepOptimizer": step_cases(), "shouldFlushTail": flush_cases(),
                   "clipGradNorm": clip_cases()})


if __name__ == "__main__":
    main()
