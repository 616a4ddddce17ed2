"""Golden fixtures for lesson 15: what a resumed MiniMind run trains on, in PyTorch.

SkipBatchSampler restates trainer/trainer_utils.py:134-157 at d65ef2c and runs over
torch.randperm orders, as trainer/train_pretrain.py:159-161 builds them; the step rescale restates
the world-size change of trainer_utils.py:108-115. Run: npm run fixtures lesson-15
"""
import torch
from torch.utils.data import Sampler

from common import MINIMIND, write_fixture


class SkipBatchSampler(Sampler):
    """trainer_utils.py:134-157."""

    def __init__(self, sampler, batch_size, skip_batches=0):
        self.sampler = sampler
        self.batch_size = batch_size
        self.skip_batches = skip_batches

    def __iter__(self):
        batch = []
        skipped = 0
        for idx in self.sampler:
            batch.append(idx)
            if len(batch) == self.batch_size:
                if skipped < self.skip_batches:
                    skipped += 1
                    batch = []
                    continue
                yield batch
                batch = []
        if len(batch) > 0 and skipped >= self.skip_batches:
            yield batch


def rescale(step, saved_ws, current_ws):
    """trainer_utils.py:110-113."""
    if saved_ws != current_ws:
        step = step * saved_ws // current_ws
    return step


def skip_cases():
    cases = []
    for seed, (n, batch_size, skip) in enumerate([(100, 8, 5), (64, 8, 8), (33, 4, 9), (257, 32, 3), (20, 6, 0)]):
        torch.manual_seed(42 + seed)
        order = torch.randperm(n).tolist()
        batches = list(SkipBatchSampler(order, batch_size, skip))
        cases.append({"name": f"randperm seed {42 + seed}: {n} samples, batch {batch_size}, skip {skip}",
                      "inputs": {"order": order, "batchSize": batch_size, "skip": skip},
                      "expected": {"batchSizes": torch.tensor([len(b) for b in batches], dtype=torch.int32),
                                   "indices": torch.tensor([i for b in batches for i in b], dtype=torch.int32)}})
    return cases


def rescale_cases():
    g = torch.Generator().manual_seed(15)
    resumes = [[int(torch.randint(0, 50000, (1,), generator=g)), int(torch.randint(1, 9, (1,), generator=g)),
                int(torch.randint(1, 9, (1,), generator=g))] for _ in range(48)]
    expected = torch.tensor([rescale(*r) for r in resumes], dtype=torch.int32)
    return [{"name": "seed 15: 48 resumes (step, saved, current world size)", "inputs": {"resumes": resumes}, "expected": expected}]


def main():
    write_fixture("lesson-15", f"{MINIMIND} trainer/trainer_utils.py:108-115, 134-157; trainer/train_pretrain.py:159-161",
                  {"skipBatches": skip_cases(), "rescaleResumeStep": rescale_cases()})


if __name__ == "__main__":
    main()
