"""Golden fixtures for lesson 33: AReaL's advantage pipeline in PyTorch, on seeded inputs.

The functions below restate AReaL at 4aef98d8 line for line (same ops, same order, float32):
the KL estimators (areal/utils/data.py:1619-1656), the overlong penalty
(areal/utils/functional/functional.py:782-804) and PPOActor._compute_advantages
(areal/trainer/ppo/actor.py:145-249, the branch without recompute_logprob, without reward_norm and
adv_norm). Run: npm run fixtures lesson-33
"""
import torch

from common import AREAL, write_fixture


def approx_kl(log_probs, log_probs_base, kl_estimator="k1", apply_clamp=True):
    """data.py:1635-1656."""
    if kl_estimator == "k1":
        log_ratio = log_probs.float() - log_probs_base.float()
    if kl_estimator == "k2":
        log_ratio = log_probs.float() - log_probs_base.float()
        log_ratio = log_ratio**2 / 2.0
    if kl_estimator == "k3":
        log_ratio = log_probs.float() - log_probs_base.float()
        log_ratio = -log_ratio
        log_ratio = log_ratio.exp() - 1 - log_ratio
    if apply_clamp:
        log_ratio = log_ratio.clamp(min=-10, max=10)
    return log_ratio


def reward_overlong_penalty(data, overlong_tokens, overlong_penalty_factor, max_response_length):
    """functional.py:782-804: edits data["rewards"] in place, one sample at a time."""
    reward_score = data["rewards"]
    response_lengths = (data["loss_mask"].sum(dim=-1)).long()
    for sample_idx in range(data["input_ids"].shape[0]):
        expected_len = max_response_length - overlong_tokens
        exceed_len = response_lengths[sample_idx] - expected_len
        overlong_reward = min(-exceed_len / overlong_tokens * overlong_penalty_factor, 0)
        reward_score_cur = reward_score[sample_idx]
        reward_score_cur += overlong_reward
        reward_score[sample_idx] = reward_score_cur
    data["rewards"] = reward_score
    return data


def compute_advantages(data, cfg):
    """actor.py:145-249 with use_decoupled_loss or not recompute_logprob, reward_norm = adv_norm = None."""
    bs, max_seqlen = data["input_ids"].shape
    batch_indices = torch.arange(bs, dtype=torch.long)
    reward_score = data["rewards"]
    reward_score = (reward_score + cfg["rewardBias"]) * cfg["rewardScaling"]
    reward_score = torch.clip(reward_score, max=cfg["rewardClip"], min=-cfg["rewardClip"])
    loss_mask = data["loss_mask"].float()
    loss_mask = torch.roll(loss_mask, shifts=-1, dims=-1)
    old_logp = torch.roll(data["logprobs"], shifts=-1, dims=-1)
    ref_logp = data.get("ref_logp")
    if ref_logp is None:
        ref_logp = torch.zeros_like(old_logp)
    ref_logp *= loss_mask
    old_logp *= loss_mask
    attn_mask = data["attention_mask"]
    seqlens = attn_mask.sum(-1).long()
    seq_no_eos_mask = seqlens == attn_mask.shape[1]
    rewards = -cfg["klCtl"] * approx_kl(old_logp, ref_logp, cfg["klEstimator"])
    kl_rewards = rewards.clone()
    rewards[batch_indices, seqlens - 1] = 0
    indices = torch.clip(seqlens - 2, min=0)
    if cfg["maskNoEosWithZero"]:
        rewards[batch_indices, indices] += torch.where(seq_no_eos_mask, 0, reward_score)
    else:
        rewards[batch_indices, indices] += reward_score
    values = torch.zeros_like(rewards) if "values" not in data else data["values"]
    advantages_reversed = [torch.zeros(bs, dtype=torch.float32)]
    lastgaelam = 0
    nextvalues = values[:, max_seqlen - 1] * seq_no_eos_mask
    for t in reversed(range(max_seqlen - 1)):
        delta = rewards[:, t] + cfg["discount"] * nextvalues - values[:, t]
        newgaelam = delta + cfg["discount"] * cfg["gaeLambda"] * lastgaelam
        mask = loss_mask[:, t]
        nextvalues = nextvalues * (1 - mask) + values[:, t] * mask
        lastgaelam = lastgaelam * (1 - mask) + newgaelam * mask
        advantages_reversed.append(lastgaelam)
    advantages = torch.stack(advantages_reversed[::-1], dim=1)
    return {
        "advantages": advantages,
        "returns": advantages + values,
        "lossMask": loss_mask.bool(),
        "klRewards": kl_rewards,
        "totRewards": rewards,
    }


def random_rollout(g, B, T, holes):
    """Left prompt, response, right padding; rows 0 and 1 hit the limit (no EOS); `holes` masks a
    span inside some responses (tool output in a multi-turn rollout)."""
    attention = torch.zeros(B, T, dtype=torch.bool)
    loss_mask = torch.zeros(B, T, dtype=torch.bool)
    for b in range(B):
        prompt = int(torch.randint(1, max(2, T // 3), (1,), generator=g))
        seqlen = T if b < 2 else int(torch.randint(min(prompt + 1, T), T + 1, (1,), generator=g))
        attention[b, :seqlen] = True
        loss_mask[b, prompt:seqlen] = True
        if holes and seqlen - prompt > 4 and b % 2 == 0:
            start = prompt + int(torch.randint(1, seqlen - prompt - 2, (1,), generator=g))
            loss_mask[b, start:start + 2] = False
    logprobs = torch.where(loss_mask, -torch.rand(B, T, generator=g) * 2.5, torch.zeros(B, T))
    return {
        "attentionMask": attention,
        "lossMask": loss_mask,
        "logprobs": logprobs,
        "refLogp": -torch.rand(B, T, generator=g) * 2.5,
        "values": torch.randn(B, T, generator=g),
        "rewards": torch.randn(B, generator=g) * 2,
    }


def advantage_case(name, rollout, cfg):
    data = {
        "input_ids": torch.zeros(rollout["attentionMask"].shape, dtype=torch.long),
        "attention_mask": rollout["attentionMask"],
        "loss_mask": rollout["lossMask"],
        "logprobs": rollout["logprobs"].clone(),
        "rewards": rollout["rewards"].clone(),
    }
    if "refLogp" in rollout:
        data["ref_logp"] = rollout["refLogp"].clone()
    if "values" in rollout:
        data["values"] = rollout["values"].clone()
    return {"name": name, "inputs": {**rollout, **cfg}, "expected": compute_advantages(data, cfg)}


def overlong_case(name, g, B, T, overlong_tokens, factor, max_len):
    lengths = torch.randint(0, T + 1, (B,), generator=g)
    loss_mask = torch.arange(T).unsqueeze(0) < lengths.unsqueeze(1)
    rewards = torch.randn(B, generator=g)
    data = {"input_ids": torch.zeros(B, T, dtype=torch.long), "loss_mask": loss_mask, "rewards": rewards.clone()}
    expected = reward_overlong_penalty(data, overlong_tokens, factor, max_len)["rewards"]
    inputs = {"rewards": rewards, "lossMask": loss_mask, "overlongTokens": overlong_tokens,
              "overlongPenaltyFactor": factor, "maxResponseLength": max_len}
    return {"name": name, "inputs": inputs, "expected": expected}


def kl_case(name, g, shape, kind, apply_clamp, scale):
    log_probs = -torch.rand(*shape, generator=g) * scale
    base = -torch.rand(*shape, generator=g) * scale
    return {"name": name, "inputs": {"logProbs": log_probs, "logProbsBase": base, "kind": kind, "applyClamp": apply_clamp},
            "expected": approx_kl(log_probs, base, kind, apply_clamp)}


def config(**kw):
    cfg = {"discount": 1.0, "gaeLambda": 1.0, "klCtl": 0.1, "klEstimator": "k1", "maskNoEosWithZero": False,
           "rewardBias": 0.0, "rewardScaling": 1.0, "rewardClip": 20.0}
    cfg.update(kw)
    return cfg


def main():
    g = torch.Generator().manual_seed(33)
    kl = [kl_case(f"PyTorch seed 33: [4, 16], {k}, clamp", g, (4, 16), k, True, 3.0) for k in ("k1", "k2", "k3")]
    kl += [kl_case(f"PyTorch seed 33: [3, 8], {k}, no clamp, log-probs down to -12", g, (3, 8), k, False, 12.0) for k in ("k1", "k2", "k3")]
    kl += [kl_case("PyTorch seed 33: [2, 512], k3, clamp, log-probs down to -15", g, (2, 512), "k3", True, 15.0)]
    overlong = [
        overlong_case("PyTorch seed 33: B=16 T=64, max 64, tail 16, factor 1", g, 16, 64, 16, 1.0, 64),
        overlong_case("PyTorch seed 33: B=8 T=40, max 32, tail 8, factor 0.5 (rows may pass the limit)", g, 8, 40, 8, 0.5, 32),
        overlong_case("PyTorch seed 33: B=4 T=512, max 512, tail 128, factor 2", g, 4, 512, 128, 2.0, 512),
    ]
    advantages = [
        advantage_case("PyTorch seed 33: B=4 T=12, AReaL defaults (γ=λ=1, k1)", random_rollout(g, 4, 12, False), config()),
        advantage_case("PyTorch seed 33: B=6 T=16, holes in the loss mask, γ=0.9 λ=0.95, k3, shaped and clipped rewards",
                       random_rollout(g, 6, 16, True),
                       config(discount=0.9, gaeLambda=0.95, klEstimator="k3", rewardBias=-0.5, rewardScaling=2.0, rewardClip=1.5)),
        advantage_case("PyTorch seed 33: B=5 T=10, mask_no_eos_with_zero, k2", random_rollout(g, 5, 10, True),
                       config(discount=0.95, gaeLambda=0.9, klEstimator="k2", maskNoEosWithZero=True, klCtl=0.05)),
        advantage_case("PyTorch seed 33: B=3 T=9, no values and no reference log-probs",
                       {k: v for k, v in random_rollout(g, 3, 9, False).items() if k not in ("values", "refLogp")}, config()),
        advantage_case("PyTorch seed 33: B=3 T=512, γ=0.99 λ=0.95", random_rollout(g, 3, 512, True),
                       config(discount=0.99, gaeLambda=0.95, klCtl=0.02)),
    ]
    write_fixture("lesson-33", f"{AREAL}:areal/trainer/ppo/actor.py, areal/utils/functional/functional.py, areal/utils/data.py",
                  {"klEstimator": kl, "overlongPenalty": overlong, "arealAdvantages": advantages})


if __name__ == "__main__":
    main()
