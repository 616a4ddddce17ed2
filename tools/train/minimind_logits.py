"""Loads a course checkpoint into MiniMind's own MiniMindForCausalLM and prints its logits.

Used by test/train.test.ts: the test hands over MiniMind's model/model_minimind.py (fetched at test
time at commit d65ef2c, never committed) and a folder holding a minimal stand-in for the four
`transformers` names that file imports (the model's math is all in the file itself). The weights
are read from the safetensors file by hand (no safetensors package needed) and loaded by
MiniMind's parameter names with load_state_dict(strict=False), as trainer/trainer_utils.py:119-127
loads a .pth. Prints one JSON line: {"missing", "unexpected", "shape", "logits"}.

Usage: /usr/bin/python3 tools/train/minimind_logits.py <model_minimind.py> <shim dir> <weights> '<ids json>'
"""
import importlib.util
import json
import struct
import sys

import torch


def read_safetensors(path):
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    meta = header.pop("__metadata__", {})
    data = raw[8 + n:]
    tensors = {}
    for name, entry in header.items():
        assert entry["dtype"] == "F32", f"{name} is {entry['dtype']}"
        begin, end = entry["data_offsets"]
        tensors[name] = torch.frombuffer(bytearray(data[begin:end]), dtype=torch.float32).reshape(entry["shape"])
    return tensors, meta


def main():
    model_file, shim_dir, weights_path, ids = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
    sys.path.insert(0, shim_dir)
    spec = importlib.util.spec_from_file_location("model_minimind", model_file)
    mm = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mm)
    weights, meta = read_safetensors(weights_path)
    c = json.loads(meta["config"])
    config = mm.MiniMindConfig(hidden_size=c["hiddenSize"], num_hidden_layers=c["numHiddenLayers"], use_moe=c["useMoe"],
                               vocab_size=c["vocabSize"], num_attention_heads=c["numAttentionHeads"],
                               num_key_value_heads=c["numKeyValueHeads"], intermediate_size=c["intermediateSize"],
                               max_position_embeddings=c["maxPositionEmbeddings"], rms_norm_eps=c["rmsNormEps"],
                               rope_theta=c["ropeTheta"], tie_word_embeddings=c["tieWordEmbeddings"])
    model = mm.MiniMindForCausalLM(config)
    result = model.load_state_dict(weights, strict=False)
    model.eval()
    with torch.no_grad():
        logits = model(torch.tensor(ids, dtype=torch.long)).logits
    print(json.dumps({"missing": list(result.missing_keys), "unexpected": list(result.unexpected_keys),
                      "shape": list(logits.shape), "logits": logits.reshape(-1).tolist()}))


if __name__ == "__main__":
    main()
