"""PyTorch half of tools/serve/make-tiny-chat.ts: trains the tiny chat model on the rendered
exchanges with MiniMind's forward (restated in grader/lesson-12/parity.py), the shifted
cross-entropy and AdamW with clipping of trainer/train_full_sft.py, starting from the weights the
TypeScript side initialised. One thread, seeded. The exchanges come in batches of similar length
(the long tool prompts apart from the short ones), and every step sees all of them; training stops
once every reply token has been the model's argmax choice on `extra_steps` steps in a row (then
greedy decoding repeats each reply exactly; make-tiny-chat.ts checks that it does).

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
import common  # noqa: E402,F401  (imports lesson_12 from grader/lesson-12/parity.py)
import safetensors_io  # noqa: E402
from lesson_12 import causal_lm_forward  # noqa: E402


def main():
    job = json.load(open(sys.argv[1]))
    weights, _ = safetensors_io.load(sys.argv[2])
    torch.manual_seed(0)
    torch.set_num_threads(1)
    w = {k: v.clone().requires_grad_(True) for k, v in weights.items()}
    batches = [(torch.tensor(b["ids"], dtype=torch.long), torch.tensor(b["labels"], dtype=torch.long)) for b in job["batches"]]
    labelled = sum(int((y[:, 1:] != -100).sum()) for _, y in batches)
    opt = torch.optim.AdamW(w.values(), lr=job["lr"])
    steps, extra = job["steps"], job["extra_steps"]
    started = time.time()
    streak = 0
    for step in range(1, steps + 1):
        lr = job["lr"] * (0.1 + 0.45 * (1 + math.cos(math.pi * step / steps)))
        for g in opt.param_groups:
            g["lr"] = lr
        total, right = 0.0, 0
        for ids, labels in batches:
            logits, _ = causal_lm_forward(w, ids, c=job["config"])
            x, y = logits[:, :-1], labels[:, 1:]
            # Summed over this batch's labelled tokens, divided by all batches' count: one mean over every reply token.
            loss = F.cross_entropy(x.reshape(-1, x.size(-1)), y.reshape(-1), ignore_index=-100, reduction="sum") / labelled
            loss.backward()
            total += loss.item()
            right += int(((x.argmax(-1) == y) & (y != -100)).sum())
        torch.nn.utils.clip_grad_norm_(w.values(), 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)
        streak = streak + 1 if right == labelled else 0
        if step == 1 or step % 25 == 0 or streak == 1:
            print(f"step {step}: loss {total:.4f}, next-token argmax right on {right}/{labelled} reply tokens ({time.time() - started:.1f} s)", flush=True)
        if streak >= extra:
            print(f"every reply token right on the last {extra} steps; stopped at step {step}", flush=True)
            break
    safetensors_io.save(sys.argv[3], w)


if __name__ == "__main__":
    main()
