"""Golden fixtures for lesson 22: MiniMind's DPO log-probs and loss in PyTorch, on seeded inputs.

The two functions below restate trainer/train_dpo.py:25-50 at d65ef2c line for line (same ops,
same order, float32). Gradients come from autograd: the logits' gradient of Σ upstream·logp, and
the loss's gradient with respect to the policy log-probs (the reference's are computed under
no_grad in MiniMind, train_dpo.py:74-77). Run: npm run fixtures lesson-22
"""
import torch
import torch.nn.functional as F

from common import MINIMIND, write_fixture


def logits_to_log_probs(logits, labels):
    """train_dpo.py:25-31."""
    log_probs = F.log_softmax(logits, dim=2)
    log_probs_per_token = torch.gather(log_probs, dim=2, index=labels.unsqueeze(2)).squeeze(-1)
    return log_probs_per_token


def dpo_loss(ref_log_probs, policy_log_probs, mask, beta):
    """train_dpo.py:34-50."""
    ref_log_probs = (ref_log_probs * mask).sum(dim=1)
    policy_log_probs = (policy_log_probs * mask).sum(dim=1)

    batch_size = ref_log_probs.shape[0]
    chosen_ref_log_probs = ref_log_probs[:batch_size // 2]
    reject_ref_log_probs = ref_log_probs[batch_size // 2:]
    chosen_policy_log_probs = policy_log_probs[:batch_size // 2]
    reject_policy_log_probs = policy_log_probs[batch_size // 2:]

    pi_logratios = chosen_policy_log_probs - reject_policy_log_probs
    ref_logratios = chosen_ref_log_probs - reject_ref_log_probs
    logits = pi_logratios - ref_logratios
    loss = -F.logsigmoid(beta * logits)
    return loss.mean()


def response_mask(g, B, T):
    """Like DPODataset.generate_loss_mask shifted by one (lm_dataset.py:156-165): a prompt of 0s,
    the response of 1s, then padding of 0s."""
    mask = torch.zeros(B, T)
    for b in range(B):
        start = int(torch.randint(0, max(T // 2, 1), (1,), generator=g))
        end = int(torch.randint(start + 1, T + 1, (1,), generator=g))
        mask[b, start:end] = 1.0
    return mask


def scenario(name, seed, pairs, T, V, beta, drift):
    """One DPO batch: reference logits, policy logits = reference + drift·noise, labels, a mask."""
    g = torch.Generator().manual_seed(seed)
    B = 2 * pairs
    ref_logits = torch.randn(B, T, V, generator=g) * 2
    policy_logits = (ref_logits + torch.randn(B, T, V, generator=g) * drift).requires_grad_(True)
    labels = torch.randint(0, V, (B, T), generator=g)
    mask = response_mask(g, B, T)
    upstream = torch.randn(B, T, generator=g)

    with torch.no_grad():
        ref_log_probs = logits_to_log_probs(ref_logits, labels)
    policy_log_probs = logits_to_log_probs(policy_logits, labels)
    (logits_grad,) = torch.autograd.grad((policy_log_probs * upstream).sum(), policy_logits)

    policy_leaf = policy_log_probs.detach().clone().requires_grad_(True)
    loss = dpo_loss(ref_log_probs, policy_leaf, mask, beta)
    (loss_grad,) = torch.autograd.grad(loss, policy_leaf)

    token_inputs = {"logits": policy_logits.detach(), "labels": labels.int()}
    dpo_inputs = {"refLogProbs": ref_log_probs, "policyLogProbs": policy_leaf.detach(), "mask": mask, "beta": beta}
    return {
        "tokenLogProbs": {"name": name, "inputs": token_inputs, "expected": policy_log_probs.detach()},
        "tokenLogProbs.gradient": {"name": name, "inputs": {**token_inputs, "upstream": upstream}, "expected": logits_grad},
        "dpoLoss": {"name": name, "inputs": dpo_inputs, "expected": loss.detach()},
        "dpoLoss.gradient": {"name": name, "inputs": dpo_inputs, "expected": loss_grad},
    }


def main():
    torch.manual_seed(0)
    scenarios = [
        ("PyTorch seed 1: 2 pairs, T=8, V=16, β=0.15 (MiniMind's default)", 1, 2, 8, 16, 0.15, 0.5),
        ("PyTorch seed 2: 4 pairs, T=12, V=8, β=0.1", 2, 4, 12, 8, 0.1, 1.0),
        ("PyTorch seed 3: 1 pair, T=1, V=4, β=0.5", 3, 1, 1, 4, 0.5, 1.0),
        ("PyTorch seed 4: 1 pair, T=512, V=2, β=0.15", 4, 1, 512, 2, 0.15, 0.3),
    ]
    cases = {}
    for args in scenarios:
        for ex, case in scenario(*args).items():
            cases.setdefault(ex, []).append(case)
    write_fixture("lesson-22", f"{MINIMIND}:trainer/train_dpo.py", cases)


if __name__ == "__main__":
    main()
