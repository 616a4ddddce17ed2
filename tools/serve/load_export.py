"""Loads a folder written by `npm run export` into MiniMind's own MiniMindForCausalLM and prints
its logits for the given token ids, as JSON: the test that the export is what MiniMind reads.

config.json goes into MiniMindConfig(**config) and model.safetensors into load_state_dict with
strict=True, as scripts/serve_openai_api.py:33-40 loads a checkpoint (d65ef2c).

Usage: /usr/bin/python3 tools/serve/load_export.py <export dir> <dir holding model/model_minimind.py> '<ids json>'
"""
import json
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "transformers_shim"))
import safetensors_io  # noqa: E402


def main():
    folder, source, ids = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    sys.path.insert(0, source)
    from model.model_minimind import MiniMindConfig, MiniMindForCausalLM

    config = json.load(open(os.path.join(folder, "config.json")))
    weights, _ = safetensors_io.load(os.path.join(folder, "model.safetensors"))
    model = MiniMindForCausalLM(MiniMindConfig(**config))
    missing, unexpected = model.load_state_dict(weights, strict=True)
    model.eval()
    with torch.no_grad():
        out = model(torch.tensor(ids, dtype=torch.long))
    print(json.dumps({"logits": out.logits.reshape(-1).tolist(), "shape": list(out.logits.shape),
                      "parameters": sum(p.numel() for p in model.parameters()), "missing": missing, "unexpected": unexpected}))


if __name__ == "__main__":
    main()
