"""Golden fixtures for lesson 3: MiniMind's next-token filters, in PyTorch.

filtered_probabilities restates model/model_minimind.py:267-278 at d65ef2c (same ops, same order,
float32) up to the softmax that torch.multinomial samples from. The sampled tokens replace
torch.multinomial with the course's rule (lib/random.ts's mulberry32 `Rng`, one uniform
per row, inverse CDF in float64), ported below, so the draw is reproducible in TypeScript.
Run: npm run fixtures lesson-3
"""
import torch

from common import MINIMIND, write_fixture

M32 = 0xFFFFFFFF


class Rng:
    """lib/random.ts, `next()` only: mulberry32 on unsigned 32-bit integers."""

    def __init__(self, seed):
        self.state = seed & M32

    def next(self):
        self.state = (self.state + 0x6D2B79F5) & M32
        t = self.state
        t = ((t ^ (t >> 15)) * (t | 1)) & M32
        t ^= (t + (((t ^ (t >> 7)) * (t | 61)) & M32)) & M32
        return ((t ^ (t >> 14)) & M32) / 4294967296


def filtered_probabilities(logits, temperature, top_k, top_p, repetition_penalty, input_ids):
    """model_minimind.py:267-278, with `logits` the last position's [B, V] and input_ids the history."""
    logits = logits / temperature
    if repetition_penalty != 1.0:
        for i in range(input_ids.shape[0]):
            seen = torch.unique(input_ids[i]); score = logits[i, seen]; logits[i, seen] = torch.where(score > 0, score / repetition_penalty, score * repetition_penalty)
    if top_k > 0:
        logits[logits < torch.topk(logits, top_k)[0][..., -1, None]] = -float('inf')
    if top_p < 1.0:
        sorted_logits, sorted_indices = torch.sort(logits, descending=True)
        mask = torch.cumsum(torch.softmax(sorted_logits, dim=-1), dim=-1) > top_p
        mask[..., 1:], mask[..., 0] = mask[..., :-1].clone(), 0
        logits[mask.scatter(1, sorted_indices, mask)] = -float('inf')
    return torch.softmax(logits, dim=-1)


def draw(probabilities, seed):
    """The course's sampling rule: u_b from one Rng(seed); the first token whose running sum exceeds u_b."""
    rng = Rng(seed)
    tokens = []
    for row in probabilities.tolist():
        u, cumulative, last, token = rng.next(), 0.0, -1, None
        for i, p in enumerate(row):
            if p <= 0:
                continue
            cumulative += p
            last = i
            if u < cumulative:
                token = i
                break
        tokens.append(last if token is None else token)
    return torch.tensor(tokens, dtype=torch.int32)


def case(seed, B, V, temperature, top_k, top_p, penalty, seen, spread):
    g = torch.Generator().manual_seed(seed)
    logits = spread * torch.randn(B, V, generator=g)
    history = torch.randint(0, V, (B, seen), generator=g)
    history[:, : seen // 2] = torch.randint(0, 3, (B, seen // 2), generator=g)  # repeated ids
    probabilities = filtered_probabilities(logits.clone(), temperature, top_k, top_p, penalty, history)
    draw_seed = 1000 + seed
    opts = {"temperature": temperature, "topK": top_k, "topP": top_p, "repetitionPenalty": penalty,
            "previousTokens": history, "seed": draw_seed}
    name = f"seed {seed}, B={B} V={V}, T={temperature} k={top_k} p={top_p} theta={penalty}, {seen} seen"
    inputs = {"logits": logits, "opts": opts}
    return ({"name": name, "inputs": inputs, "expected": probabilities},
            {"name": f"{name}, draw seed {draw_seed}", "inputs": inputs, "expected": draw(probabilities, draw_seed)})


def main():
    specs = [(400, 4, 50, 0.85, 50, 0.85, 1.0, 5, 2.0),
             (401, 3, 64, 0.7, 10, 0.9, 1.3, 12, 2.0),
             (402, 8, 16, 1.5, 0, 0.6, 1.1, 6, 3.0),
             (403, 2, 1000, 0.85, 50, 0.95, 1.2, 40, 2.0),
             (404, 16, 8, 1.0, 4, 1.0, 2.0, 3, 1.0)]
    pairs = [case(*spec) for spec in specs]
    write_fixture("lesson-3", f"{MINIMIND} model/model_minimind.py:267-278",
                  {"filteredProbabilities": [p for p, _ in pairs], "sampleNextToken": [s for _, s in pairs]})


if __name__ == "__main__":
    main()
