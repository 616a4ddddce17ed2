"""Reads and writes float32 safetensors files with torch alone (Debian has no python3-safetensors).

The format: an 8-byte little-endian header length, a JSON header mapping each tensor name to its
dtype, shape and byte range, then the raw little-endian data.
"""
import json
import struct

import torch


def load(path):
    """{name: float32 tensor} and the header's __metadata__."""
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n].decode("utf-8"))
    body = raw[8 + n:]
    meta = header.pop("__metadata__", {})
    out = {}
    for name, info in header.items():
        if info["dtype"] != "F32":
            raise ValueError(f"{name}: only F32 is read here, got {info['dtype']}")
        a, b = info["data_offsets"]
        out[name] = torch.frombuffer(bytearray(body[a:b]), dtype=torch.float32).reshape(info["shape"]).clone()
    return out, meta


def save(path, tensors, metadata=None):
    """Writes {name: tensor} as float32, names sorted (as the safetensors library does)."""
    header, chunks, offset = {}, [], 0
    for name in sorted(tensors):
        data = tensors[name].detach().to(torch.float32).contiguous().numpy().tobytes()
        header[name] = {"dtype": "F32", "shape": list(tensors[name].shape), "data_offsets": [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    if metadata:
        header["__metadata__"] = metadata
    blob = json.dumps(header, separators=(",", ":")).encode("utf-8")
    blob += b" " * (-len(blob) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(blob)) + blob + b"".join(chunks))
