"""Golden fixtures for lesson 29: AReaL's decoupled PPO actor loss in PyTorch, on seeded inputs.

ppo_actor_loss_fn below restates areal/utils/functional/functional.py:479-559 at 4aef98d8 line for
line (2-D padded inputs, no cu_seqlens); areal_functional.sequence_level_ratio restates 128-149 and rejection_sampling
the token-level, ratio-metric path of apply_rejection_sampling (229-252, 391-420).
joint_distillation restates the joint distillation branch of grpo_loss_fn (areal/trainer/ppo/actor.py:482-512),
with the loss's gradient with respect to the current log-probs from autograd.
Run: npm run fixtures lesson-29
"""
import torch

from areal_functional import sequence_level_ratio
from common import AREAL, write_fixture


def rejection_sampling(proximal_logprobs, old_logprobs, loss_mask, action, upper):
    """functional.py:229-252, 391-420 with level='token', metric='ratio', lower=None."""
    log_ratio = proximal_logprobs.detach().float() - old_logprobs.detach().float()
    log_ratio = torch.where(torch.isfinite(log_ratio), log_ratio, 0.0)
    metric = torch.exp(log_ratio)
    behave_imp_weight = torch.exp(log_ratio)
    if action == "mask":
        in_bounds = metric <= upper
    else:
        behave_imp_weight = behave_imp_weight.clamp(min=0.0, max=upper)
    if action == "mask":
        candidates = loss_mask.bool()
        updated_mask = (candidates & in_bounds).to(loss_mask.dtype)
    else:
        updated_mask = loss_mask
    behave_imp_weight = torch.where(updated_mask.bool(), behave_imp_weight, 0.0)
    return updated_mask, behave_imp_weight


def ppo_actor_loss_fn(logprobs, proximal_logprobs, old_logprobs, advantages, eps_clip, loss_mask,
                      eps_clip_higher=None, c_clip=None, rejection=None, importance_sampling_level="token"):
    """functional.py:479-559; `rejection` is (action, upper) or None."""
    loss_mask_count = loss_mask.count_nonzero() or 1
    if rejection is not None:
        loss_mask, behave_imp_weight = rejection_sampling(proximal_logprobs, old_logprobs, loss_mask, *rejection)
    if importance_sampling_level == "sequence":
        log_ratio = logprobs - proximal_logprobs
        ratio, advantages = sequence_level_ratio(log_ratio, advantages, loss_mask)
    else:
        ratio = torch.where(loss_mask, torch.exp(logprobs - proximal_logprobs), 0)
    clipped_ratio = torch.clamp(ratio, 1.0 - eps_clip, 1.0 + (eps_clip if eps_clip_higher is None else eps_clip_higher))
    pg_loss1 = -advantages * ratio
    pg_loss2 = -advantages * clipped_ratio
    clip_mask = pg_loss1.detach() < pg_loss2.detach()
    pg_loss = torch.max(pg_loss1, pg_loss2)
    if c_clip is not None:
        assert c_clip > 1.0, c_clip
        pg_loss3 = torch.sign(advantages) * c_clip * advantages
        dual_clip_mask = pg_loss3.detach() < pg_loss.detach()
        pg_loss = torch.min(pg_loss, pg_loss3)
    else:
        dual_clip_mask = torch.zeros_like(clip_mask)
    if rejection is not None:
        pg_loss = pg_loss * behave_imp_weight
    pg_loss = torch.where(loss_mask, pg_loss, 0).sum() / loss_mask_count
    clip_mask.logical_and_(loss_mask)
    dual_clip_mask.logical_and_(loss_mask)
    return {"loss": pg_loss, "clipMask": clip_mask, "dualClipMask": dual_clip_mask, "importanceWeight": ratio.detach()}


def worked_example():
    """The batch of lessons/29-decoupled-ppo.md § Worked example."""
    return {
        "logprobs": torch.tensor([[-1.0, -0.5, -2.0, -1.2], [-0.3, -1.5, -0.2, 0.0]]),
        "proximalLogprobs": torch.tensor([[-1.1, -0.9, -1.6, -1.2], [-1.6, -1.4, -0.6, 0.0]]),
        "oldLogprobs": torch.tensor([[-1.3, -0.9, -1.9, -2.0], [-1.7, -1.0, -0.7, 0.0]]),
        "advantages": torch.tensor([[1.0, 1.0, -0.5, 0.8], [-2.0, 0.5, -1.0, 0.0]]),
        "lossMask": torch.tensor([[True, True, True, True], [True, True, True, False]]),
    }


def random_batch(seed, B, T, stale_std, step_std):
    """Behaviour log-probs in [-3, 0); proximal and current ones drift away; ragged masks, one empty row."""
    g = torch.Generator().manual_seed(seed)
    old = -torch.rand(B, T, generator=g) * 3
    prox = old + torch.randn(B, T, generator=g) * stale_std
    logprobs = prox + torch.randn(B, T, generator=g) * step_std
    lengths = torch.randint(1, T + 1, (B,), generator=g)
    lengths[0] = T
    if B > 2:
        lengths[-1] = 0
    mask = torch.arange(T).unsqueeze(0) < lengths.unsqueeze(1)
    return {"logprobs": logprobs, "proximalLogprobs": prox, "oldLogprobs": old,
            "advantages": torch.randn(B, T, generator=g), "lossMask": mask}


def case(name, batch, eps_clip, eps_clip_higher=None, c_clip=None, rejection=None, level="token"):
    options = dict(batch, epsClip=eps_clip, importanceSamplingLevel=level)
    if eps_clip_higher is not None:
        options["epsClipHigher"] = eps_clip_higher
    if c_clip is not None:
        options["cClip"] = c_clip
    if rejection is not None:
        options["rejectionSampling"] = {"action": rejection[0], "upper": rejection[1]}
    expected = ppo_actor_loss_fn(batch["logprobs"], batch["proximalLogprobs"], batch["oldLogprobs"], batch["advantages"],
                                 eps_clip, batch["lossMask"], eps_clip_higher, c_clip, rejection, level)
    return {"name": name, "inputs": options, "expected": expected}


def joint_distillation(logprobs, old_logp, teacher_logp, loss_mask, loss, rl_loss_weight, distill_loss_weight):
    """actor.py:482-512 (input_data's weights passed in); returns the loss and rkl_stat."""
    teacher_logp = (
        teacher_logp.detach()
    )
    if rl_loss_weight == 0:
        rkl_reward = teacher_logp - logprobs.detach()
        importance_weight = torch.exp(logprobs - old_logp)
        rkl_weighted_term = importance_weight * rkl_reward * loss_mask
        kd_coef = -1 * distill_loss_weight
        loss = kd_coef * rkl_weighted_term.sum() / loss_mask.sum().clamp(min=1)
        rkl_stat = -1 * rkl_weighted_term
    else:
        rkl_penalty_per_token = (logprobs - teacher_logp) * loss_mask
        rkl_penalty = rkl_penalty_per_token.sum() / loss_mask.sum().clamp(min=1)
        loss = rl_loss_weight * loss + distill_loss_weight * rkl_penalty
        rkl_stat = rkl_penalty_per_token
    return loss, rkl_stat


def distill_cases():
    cases, gradients = [], []
    for seed, B, T, rl_w, kd_w in [(11, 3, 8, 0.0, 0.005), (12, 4, 10, 1.0, 0.005), (13, 2, 6, 0.5, 0.1), (14, 2, 512, 0.0, 1.0), (15, 3, 7, 1.0, 1.0)]:
        g = torch.Generator().manual_seed(seed)
        old = -torch.rand(B, T, generator=g) * 3
        logprobs = old + torch.randn(B, T, generator=g) * 0.3
        teacher = -torch.rand(B, T, generator=g) * 3
        lengths = torch.randint(0, T + 1, (B,), generator=g)
        mask = torch.arange(T).unsqueeze(0) < lengths.unsqueeze(1)
        rl_loss = torch.randn((), generator=g)
        leaf = logprobs.clone().requires_grad_(True)
        loss, stat = joint_distillation(leaf, old, teacher, mask, rl_loss, rl_w, kd_w)
        (grad,) = torch.autograd.grad(loss, leaf)
        name = f"PyTorch seed {seed}: B={B} T={T}, rl_loss_weight {rl_w:g}, distill_loss_weight {kd_w:g}"
        inputs = {"logprobs": logprobs, "oldLogp": old, "teacherLogp": teacher, "lossMask": mask, "rlLoss": rl_loss,
                  "rlLossWeight": rl_w, "distillLossWeight": kd_w}
        cases.append({"name": name, "inputs": inputs, "expected": {"loss": loss.detach(), "rklStat": stat.detach()}})
        gradients.append({"name": name, "inputs": inputs, "expected": grad})
    return cases, gradients


def main():
    cases = [
        case("worked example, ε=0.2 ε_high=0.28 c=3, token level", worked_example(), 0.2, 0.28, 3.0),
        case("worked example, rejection sampling mask ≤ 2", worked_example(), 0.2, 0.28, 3.0, ("mask", 2.0)),
        case("worked example, sequence level", worked_example(), 0.2, 0.28, 3.0, level="sequence"),
        case("PyTorch seed 1: B=4 T=9, token level, symmetric ε=0.2", random_batch(1, 4, 9, 0.3, 0.4), 0.2),
        case("PyTorch seed 2: B=5 T=12, ε_high=0.28, c=3", random_batch(2, 5, 12, 0.5, 0.6), 0.2, 0.28, 3.0),
        case("PyTorch seed 3: B=4 T=10, sequence level, c=2", random_batch(3, 4, 10, 0.3, 0.3), 0.2, 0.3, 2.0, level="sequence"),
        case("PyTorch seed 4: B=4 T=10, rejection mask ≤ 1.5", random_batch(4, 4, 10, 0.6, 0.4), 0.2, None, 3.0, ("mask", 1.5)),
        case("PyTorch seed 5: B=4 T=10, rejection clamp at 1.5", random_batch(5, 4, 10, 0.6, 0.4), 0.2, 0.28, None, ("clamp", 1.5)),
        case("PyTorch seed 6: B=3 T=8, rejection mask, sequence level", random_batch(6, 3, 8, 0.6, 0.4), 0.2, None, None, ("mask", 1.5), "sequence"),
        case("PyTorch seed 7: B=2 T=512, ε_high=0.28, c=3, rejection mask ≤ 2", random_batch(7, 2, 512, 0.4, 0.4), 0.2, 0.28, 3.0, ("mask", 2.0)),
    ]
    distill, distill_gradients = distill_cases()
    write_fixture("lesson-29", AREAL, {"decoupledPpoLoss": cases, "distillLoss": distill, "distillLoss.gradient": distill_gradients})


if __name__ == "__main__":
    main()
