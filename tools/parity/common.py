"""Shared helpers for the parity scripts: tensors to JSON, the fixture file layout, and imports.

Each grader/lesson-NN/parity.py re-expresses the cited MiniMind/AReaL lines in PyTorch on seeded
inputs and writes grader/lesson-NN/fixture.json, which the grader reads (CI needs no torch).
`npm run fixtures` runs them with this folder on PYTHONPATH.
"""
import importlib.abc
import importlib.util
import json
import os
import re
import sys

import torch

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


class LessonScripts(importlib.abc.MetaPathFinder):
    """Imports `lesson_NN` from grader/lesson-NN/parity.py: the name one parity script imports another by."""

    def find_spec(self, name, path=None, target=None):
        m = re.fullmatch(r"lesson_(\d+)", name)
        file = m and os.path.join(ROOT, "grader", f"lesson-{m[1]}", "parity.py")
        return importlib.util.spec_from_file_location(name, file) if file and os.path.exists(file) else None


sys.meta_path.append(LessonScripts())
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
    path = os.path.join(ROOT, "grader", lesson, "fixture.json")
    doc = {
        "lesson": lesson,
        "generator": f"grader/{lesson}/parity.py",
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
