"""Golden fixtures for lesson 12: RoPE tables, the rotation, and generation with a KV cache.

precompute_freqs_cis and apply_rotary_pos_emb are model/model_minimind.py:62-84 at d65ef2c
(restated in grader/lesson-11/parity.py). For `generate`, the whole MiniMindForCausalLM forward (lines 178-194,
209-232, 245-248) runs on weights passed in by MiniMind's parameter names, and the generation loop
restates lines 257-288 with do_sample=False (greedy) and no top-k/top-p filter.
Run: npm run fixtures lesson-12
"""
import torch
import torch.nn.functional as F

from common import MINIMIND, write_fixture
from lesson_11 import apply_rotary_pos_emb, attention, precompute_freqs_cis, rms_norm

CONFIG = {"vocabSize": 32, "hiddenSize": 16, "numHiddenLayers": 2, "numAttentionHeads": 4,
          "numKeyValueHeads": 2, "intermediateSize": 32, "maxPositionEmbeddings": 64}
EPS = 1e-6
ROPE_THETA = 1e6


def model_weights(seed, std=0.6, c=CONFIG):
    """Weights by MiniMind's parameter names; multiples of 1/32 so the fixture stays small."""
    g = torch.Generator().manual_seed(seed)
    H, D = c["hiddenSize"], c["hiddenSize"] // c["numAttentionHeads"]
    Hq, Hkv, I = c["numAttentionHeads"], c["numKeyValueHeads"], c["intermediateSize"]

    def normal(*shape):
        return torch.round(torch.randn(*shape, generator=g) * std * 32) / 32

    w = {"model.embed_tokens.weight": normal(c["vocabSize"], H)}
    for l in range(c["numHiddenLayers"]):
        p = f"model.layers.{l}."
        w[p + "self_attn.q_proj.weight"] = normal(Hq * D, H)
        w[p + "self_attn.k_proj.weight"] = normal(Hkv * D, H)
        w[p + "self_attn.v_proj.weight"] = normal(Hkv * D, H)
        w[p + "self_attn.o_proj.weight"] = normal(H, Hq * D)
        w[p + "self_attn.q_norm.weight"] = 1 + normal(D) / 2
        w[p + "self_attn.k_norm.weight"] = 1 + normal(D) / 2
        w[p + "input_layernorm.weight"] = 1 + normal(H) / 2
        w[p + "post_attention_layernorm.weight"] = 1 + normal(H) / 2
        w[p + "mlp.gate_proj.weight"] = normal(I, H)
        w[p + "mlp.down_proj.weight"] = normal(H, I)
        w[p + "mlp.up_proj.weight"] = normal(I, H)
    w["model.norm.weight"] = 1 + normal(H) / 2
    return w


def causal_lm_forward(w, input_ids, attention_mask=None, past_key_values=None, use_cache=False, c=CONFIG):
    """MiniMindForCausalLM.forward without labels: lines 209-232 and 245-248 (tied lm_head)."""
    D = c["hiddenSize"] // c["numAttentionHeads"]
    past_key_values = past_key_values or [None] * c["numHiddenLayers"]
    start_pos = past_key_values[0][0].shape[1] if past_key_values[0] is not None else 0
    seq_length = input_ids.shape[1]
    hidden_states = F.embedding(input_ids, w["model.embed_tokens.weight"])
    freqs_cos, freqs_sin = precompute_freqs_cis(D, c["maxPositionEmbeddings"], ROPE_THETA)
    cos, sin = freqs_cos[start_pos:start_pos + seq_length], freqs_sin[start_pos:start_pos + seq_length]
    presents = []
    for l, past_key_value in enumerate(past_key_values):
        p = f"model.layers.{l}."
        attn_w = {"wq": w[p + "self_attn.q_proj.weight"], "wk": w[p + "self_attn.k_proj.weight"],
                  "wv": w[p + "self_attn.v_proj.weight"], "wo": w[p + "self_attn.o_proj.weight"],
                  "qNorm": w[p + "self_attn.q_norm.weight"], "kNorm": w[p + "self_attn.k_norm.weight"]}
        residual = hidden_states
        out, present = attention(rms_norm(hidden_states, w[p + "input_layernorm.weight"], EPS), attn_w,
                                 c["numAttentionHeads"], c["numKeyValueHeads"], cos, sin, past_key_value,
                                 use_cache, attention_mask, EPS)
        hidden_states = out + residual
        h = rms_norm(hidden_states, w[p + "post_attention_layernorm.weight"], EPS)
        mlp = F.linear(F.silu(F.linear(h, w[p + "mlp.gate_proj.weight"])) * F.linear(h, w[p + "mlp.up_proj.weight"]),
                       w[p + "mlp.down_proj.weight"])
        hidden_states = hidden_states + mlp
        presents.append(present)
    hidden_states = rms_norm(hidden_states, w["model.norm.weight"], EPS)
    return F.linear(hidden_states, w["model.embed_tokens.weight"]), presents


@torch.no_grad()
def generate(w, input_ids, attention_mask, max_new_tokens, eos_token_id, use_cache=True):
    """Lines 257-288 with do_sample=False, top_k=0, top_p=1.0, repetition_penalty=1.0."""
    past_key_values = None
    finished = torch.zeros(input_ids.shape[0], dtype=torch.bool)
    for _ in range(max_new_tokens):
        past_len = past_key_values[0][0].shape[1] if past_key_values else 0
        logits, presents = causal_lm_forward(w, input_ids[:, past_len:], attention_mask, past_key_values, use_cache)
        if attention_mask is not None:
            attention_mask = torch.cat([attention_mask, attention_mask.new_ones(attention_mask.shape[0], 1)], -1)
        next_token = torch.argmax(logits[:, -1, :], dim=-1, keepdim=True)
        if eos_token_id is not None:
            next_token = torch.where(finished.unsqueeze(-1), next_token.new_full((next_token.shape[0], 1), eos_token_id), next_token)
        input_ids = torch.cat([input_ids, next_token], dim=-1)
        past_key_values = presents if use_cache else None
        if eos_token_id is not None:
            finished |= next_token.squeeze(-1).eq(eos_token_id)
            if finished.all():
                break
    return input_ids


def yarn(orig, factor, attention_factor=1.0):
    snake = {"original_max_position_embeddings": orig, "factor": factor, "beta_fast": 32, "beta_slow": 1,
             "attention_factor": attention_factor, "type": "yarn"}
    camel = {"originalMaxPositionEmbeddings": orig, "factor": factor, "betaFast": 32, "betaSlow": 1,
             "attentionFactor": attention_factor, "type": "yarn"}
    return snake, camel


def table_case(dim, end, base, scaling=None):
    snake, camel = scaling if scaling else (None, None)
    cos, sin = precompute_freqs_cis(dim, end, base, snake)
    name = f"dim={dim} end={end} base={base:g}" + (f", YaRN factor {snake['factor']} over {snake['original_max_position_embeddings']}" if snake else "")
    return {"name": name, "inputs": {"dim": dim, "end": end, "base": base, "ropeScaling": camel},
            "expected": {"cos": cos, "sin": sin}}


def rotation_case(seed, B, S, Hq, Hkv, D, start, base):
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(B, S, Hq, D, generator=g)
    k = torch.randn(B, S, Hkv, D, generator=g)
    cos, sin = precompute_freqs_cis(D, start + S, base)
    cos, sin = cos[start:], sin[start:]
    q_embed, k_embed = apply_rotary_pos_emb(q, k, cos, sin)
    return {"name": f"PyTorch seed {seed}: B={B} S={S} Hq={Hq} Hkv={Hkv} D={D} from position {start}",
            "inputs": {"q": q, "k": k, "cos": cos, "sin": sin}, "expected": {"q": q_embed, "k": k_embed}}


def generate_case(name, w, prompts, max_new_tokens, eos, left_pad=None):
    ids = torch.tensor(prompts)
    mask = None
    if left_pad is not None:
        mask = torch.tensor([[0 if j < pad else 1 for j in range(ids.shape[1])] for pad in left_pad])
    out = generate(w, ids, mask, max_new_tokens, eos)
    cached_free = generate(w, ids, mask, max_new_tokens, eos, use_cache=False)
    assert torch.equal(out, cached_free), "cached and uncached generation disagree"
    return {"name": name, "inputs": {"config": CONFIG, "weights": w, "inputIds": ids.int(),
                                     "attentionMask": mask.float() if mask is not None else None,
                                     "maxNewTokens": max_new_tokens, "eosTokenId": eos, "useCache": True},
            "expected": out.int()}


def main():
    w = model_weights(11)
    cases = {
        "ropeFrequencies": [
            table_case(8, 64, 1e6),
            table_case(32, 48, 1e4),
            table_case(16, 128, 1e4, yarn(64, 4, 0.9)),
        ],
        "applyRope": [
            rotation_case(1, 2, 5, 4, 2, 8, 0, 1e6),
            rotation_case(2, 1, 3, 2, 2, 16, 40, 1e4),
        ],
        "generate": [
            generate_case("PyTorch weights (seed 11): 2 prompts, 8 greedy tokens", w, [[1, 5, 9, 3, 7], [1, 4, 4, 8, 6]], 8, None),
            generate_case("PyTorch weights (seed 11): left padding and EOS 16", w, [[1, 9, 9, 3, 7, 12], [0, 0, 1, 4, 8, 6]], 10, 16, left_pad=[0, 2]),
        ],
    }
    write_fixture("lesson-12", f"{MINIMIND}:model/model_minimind.py", cases)


if __name__ == "__main__":
    main()
