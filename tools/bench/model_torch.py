"""PyTorch side of `npm run bench model`: training steps of the same tiny MiniMind in PyTorch.

The model is MiniMind's forward restated in grader/lesson-12/parity.py (model/model_minimind.py at
d65ef2c), with MiniMind's pretraining step around it (trainer/train_pretrain.py:35-49: shifted
cross-entropy, backward, clip_grad_norm_ 1.0, AdamW). Prints one JSON line:
{"median_ms", "runs", "threads", "torch", "blas"}.

Usage: /usr/bin/python3 tools/bench/model_torch.py '<config json>' <batch> <seq> <runs> <threads>
"""
import importlib.util
import json
import os
import re
import statistics
import sys
import time

import torch
import torch.nn.functional as F

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tools", "parity"))  # common.py, which the parity scripts import


def parity_module(lesson):
    """grader/lesson-NN/parity.py as the module lesson_NN (the name the parity scripts import each other by)."""
    name = f"lesson_{lesson}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, "grader", f"lesson-{lesson}", "parity.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


parity_module(11)
causal_lm_forward, model_weights = parity_module(12).causal_lm_forward, parity_module(12).model_weights


def main():
    config, batch, seq, runs, threads = json.loads(sys.argv[1]), *map(int, sys.argv[2:6])
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    weights = {name: w.clone().requires_grad_(True) for name, w in model_weights(1, 0.02, config).items()}
    optimizer = torch.optim.AdamW(weights.values(), lr=5e-4)
    ids = torch.randint(0, config["vocabSize"], (batch, seq))

    def step():
        logits, _ = causal_lm_forward(weights, ids, c=config)
        loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), ids[:, 1:].reshape(-1), ignore_index=-100)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(weights.values(), 1.0)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)

    step()
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        step()
        samples.append((time.perf_counter() - t0) * 1000)
    blas = re.search(r"BLAS_INFO=(\w+)", torch.__config__.show())
    print(json.dumps({"median_ms": statistics.median(samples), "runs": runs, "threads": torch.get_num_threads(),
                      "torch": torch.__version__, "blas": blas.group(1) if blas else "unknown", "libblas": loaded_blas()}))


def loaded_blas():
    """The BLAS library this process really loaded (torch's BLAS_INFO names the build's, not the runtime's)."""
    try:
        with open("/proc/self/maps") as f:
            paths = {line.split()[-1] for line in f if "libblas" in line or "libopenblas" in line}
        return sorted(paths)[0] if paths else "unknown"
    except OSError:
        return "unknown"


if __name__ == "__main__":
    main()
