"""PyTorch half of tools/serve/make-tiny-chat.ts: trains the tiny chat model on the rendered
exchanges with MiniMind's forward (restated in tools/parity/lesson_12.py), the shifted
cross-entropy and AdamW with clipping of trainer/train_full_sft.py, starting from the weights the
TypeScript side initialised. One thread, seeded.

Usage: /usr/bin/python3 tools/serve/train_tiny_chat.py <job.json> <init.safetensors> <out.safetensors>
"""
import json
import math
import os
import sys
import time

import torch
import torch.nn.functional as F

HERE = os.path.dirname(__file__)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "parity"))
import safetensors_io  # noqa: E402
from lesson_12 import causal_lm_forward  # noqa: E402


def main():
    job = json.load(open(sys.argv[1]))
    weights, _ = safetensors_io.load(sys.argv[2])
    torch.manual_seed(0)
    torch.set_num_threads(1)
    w = {k: v.clone().requires_grad_(True) for k, v in weights.items()}
    ids = torch.tensor(job["ids"], dtype=torch.long)
    labels = torch.tensor(job["labels"], dtype=torch.long)
    opt = torch.optim.AdamW(w.values(), lr=job["lr"])
    steps = job["steps"]
    started = time.time()
    for step in range(1, steps + 1):
        lr = job["lr"] * (0.1 + 0.45 * (1 + math.cos(math.pi * step / steps)))
        for g in opt.param_groups:
            g["lr"] = lr
        logits, _ = causal_lm_forward(w, ids, c=job["config"])
        loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), labels[:, 1:].reshape(-1), ignore_index=-100)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(w.values(), 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)
        if step == 1 or step % 100 == 0:
            print(f"step {step}: loss {loss.item():.4f} ({time.time() - started:.1f} s)", flush=True)
    safetensors_io.save(sys.argv[3], w)


if __name__ == "__main__":
    main()
