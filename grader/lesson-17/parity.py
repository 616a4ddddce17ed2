"""Golden fixtures for lesson 17: loading one stage's weights into the next stage's model by name.

MiniMind's init_model (trainer/trainer_utils.py:119-127 at d65ef2c) builds a fresh
MiniMindForCausalLM and calls model.load_state_dict(weights, strict=False). This script does the
same with PyTorch's own load_state_dict on grader/lesson-8/parity.py's re-expression of MiniMind's module tree
(model/model_minimind.py, same names and shapes), for checkpoints that fit, that come from another
architecture, that carry DDP's "module." prefix, that have the wrong width, and strict loads with
extra keys. The configs are untied (tie_word_embeddings=False) so that a parameter list and a
state dict name the same tensors. Run: npm run fixtures lesson-17
"""
import torch

from common import MINIMIND, write_fixture
from lesson_8 import CausalLM, Config


def build(c, seed):
    model = CausalLM(c).to_empty(device="cpu")
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            p.copy_(torch.ones_like(p) if "norm" in name else torch.randn(p.shape, generator=g) * 0.02)
    return model


def params(model):
    return {n: p.detach().clone() for n, p in model.named_parameters()}


def case(name, c_model, state_dict, strict, seed=1):
    model = build(c_model, seed)
    before = params(model)
    try:
        result = model.load_state_dict(state_dict, strict=strict)  # trainer_utils.py:127
    except RuntimeError as err:
        message = str(err)
        keys = [k for k in list(before) + list(state_dict) if k in message]
        print(f"  {name}: raised ({message.splitlines()[0][:90]}…)")
        mentions = keys[:1] if keys else ["?"]
        return {"name": name, "inputs": {"model": before, "stateDict": state_dict, "strict": strict, "mentions": mentions},
                "expected": {"threw": True, "namesTheTensor": True}}
    print(f"  {name}: missing {len(result.missing_keys)}, unexpected {len(result.unexpected_keys)}")
    return {"name": name, "inputs": {"model": before, "stateDict": state_dict, "strict": strict, "mentions": []},
            "expected": {"threw": False, "weights": params(model), "missing": list(result.missing_keys),
                         "unexpected": list(result.unexpected_keys)}}


def main():
    small = dict(hidden_size=16, num_hidden_layers=2, vocab_size=40, num_attention_heads=4, num_key_value_heads=2,
                 tie_word_embeddings=False)
    dense = Config(**small)
    moe = Config(**small, use_moe=True, num_experts=2)
    wide = Config(**{**small, "hidden_size": 32})
    pretrained = params(build(dense, 7))
    cases = [
        case("pretrain → SFT, same config, strict", dense, pretrained, True),
        case("pretrain → SFT, same config, not strict (MiniMind)", dense, pretrained, False),
        case("an MoE checkpoint into a dense model, not strict", dense, params(build(moe, 8)), False),
        case("a checkpoint saved through DDP ('module.' prefix), not strict: nothing loads", dense,
             {f"module.{k}": v for k, v in pretrained.items()}, False),
        case("a checkpoint without the final norm, not strict", dense,
             {k: v for k, v in pretrained.items() if k != "model.norm.weight"}, False),
        case("a wider model's checkpoint (H=32 into H=16), not strict: size mismatch", dense, params(build(wide, 9)), False),
        case("strict, with an extra LoRA adapter in the checkpoint", dense,
             {**pretrained, "model.layers.0.self_attn.q_proj.lora.A.weight": torch.zeros(4, 16)}, True),
    ]
    write_fixture("lesson-17", f"{MINIMIND} trainer/trainer_utils.py:119-127 (torch.nn.Module.load_state_dict)",
                  {"loadStateDict": cases})


if __name__ == "__main__":
    main()
