"""Golden fixtures for lesson 21: MiniMind's DPO sample (dataset/lm_dataset.py:135-192 @ d65ef2c)
restated in minimind_data.py (character-level tokenizer, replayed uniforms), and the batch layout
of trainer/train_dpo.py:59-67 (torch.cat of chosen rows, then rejected rows).
Run: npm run fixtures lesson-21
"""
import torch

from common import MINIMIND, write_fixture
from minimind_data import dpo_sample

PAIRS = [
    ("a one-turn pair, both with empty think blocks removed",
     [{"role": "user", "content": "2+2?"}, {"role": "assistant", "content": "4"}],
     [{"role": "user", "content": "2+2?"}, {"role": "assistant", "content": "5"}], [0.9, 0.9], 70),
    ("chosen keeps its empty think block, rejected loses it",
     [{"role": "user", "content": "Capital of France?"}, {"role": "assistant", "content": "Paris."}],
     [{"role": "user", "content": "Capital of France?"}, {"role": "assistant", "content": "I am not sure, maybe Lyon."}], [0.1, 0.6], 90),
    ("a reasoning chosen answer, cut by maxLength",
     [{"role": "system", "content": "Be exact."}, {"role": "user", "content": "Count the a's in banana."},
      {"role": "assistant", "content": "<think>\nb-a-n-a-n-a\n</think>\n\n3"}],
     [{"role": "system", "content": "Be exact."}, {"role": "user", "content": "Count the a's in banana."},
      {"role": "assistant", "content": "2"}], [0.5], 80),
]


def main():
    samples = []
    for name, chosen, rejected, draws, max_length in PAIRS:
        samples.append({"name": f"{name} (maxLength {max_length})",
                        "inputs": {"chosen": chosen, "rejected": rejected, "random": draws, "maxLength": max_length},
                        "expected": dpo_sample(chosen, rejected, iter(draws).__next__, max_length)})
    batch = []
    for k in (1, 3):
        picked = [s["expected"] for s in samples[:k]]
        n = min(len(p["xChosen"]) for p in picked)
        picked = [{key: v[:n] for key, v in p.items()} for p in picked]
        x = torch.cat([torch.tensor([p["xChosen"] for p in picked]), torch.tensor([p["xRejected"] for p in picked])], dim=0)
        y = torch.cat([torch.tensor([p["yChosen"] for p in picked]), torch.tensor([p["yRejected"] for p in picked])], dim=0)
        mask = torch.cat([torch.tensor([p["maskChosen"] for p in picked]), torch.tensor([p["maskRejected"] for p in picked])], dim=0)
        batch.append({"name": f"{k} pair(s) of length {n}", "inputs": {"samples": picked},
                      "expected": {"x": x.int(), "y": y.int(), "mask": mask.float()}})
    write_fixture("lesson-21", f"{MINIMIND} dataset/lm_dataset.py:135-192, trainer/train_dpo.py:59-67 (character-level tokenizer)",
                  {"dpoSample": samples, "dpoBatch": batch})


if __name__ == "__main__":
    main()
