"""Shared helpers for the parity scripts: tensors to JSON, and the fixture file layout.

Each tools/parity/lesson_NN.py re-expresses the cited MiniMind/AReaL lines in PyTorch on seeded
inputs and writes datasets/fixtures/lesson-NN.json, which the grader reads (CI needs no torch).
"""
import json
import os

import torch

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MINIMIND = "jingyaogong/minimind@d65ef2c00ebc6082f9df11541e1b191655eddb00"
AREAL = "inclusionAI/AReaL@4aef98d8d818af55b43621aaadba047ae10f4e77"

DTYPES = {torch.float32: "float32", torch.int64: "int32", torch.int32: "int32", torch.bool: "bool"}


def enc(x):
    """A tensor as {shape, dtype, data}; numbers, strings, lists and dicts as themselves."""
    if isinstance(x, torch.Tensor):
        dtype = DTYPES[x.dtype]
        data = x.detach().reshape(-1).tolist()
        if dtype == "bool":
            data = [bool(v) for v in data]
        return {"shape": list(x.shape), "dtype": dtype, "data": data}
    if isinstance(x, dict):
        return {k: enc(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [enc(v) for v in x]
    return x


def write_fixture(lesson, source, cases):
    """cases: {exercise: [{"name", "inputs", "expected"}]}."""
    path = os.path.join(ROOT, "datasets", "fixtures", f"{lesson}.json")
    doc = {
        "lesson": lesson,
        "generator": f"tools/parity/{lesson.replace('-', '_')}.py",
        "source": source,
        "torch": torch.__version__,
        "cases": {ex: [{"name": c["name"], "inputs": enc(c["inputs"]), "expected": enc(c["expected"])} for c in cs]
                  for ex, cs in cases.items()},
    }
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    os.replace(path + ".tmp", path)
    print(f"wrote {os.path.relpath(path, ROOT)}: " + ", ".join(f"{ex} {len(cs)}" for ex, cs in cases.items()))
