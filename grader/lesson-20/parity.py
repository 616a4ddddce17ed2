"""Golden fixtures for lesson 20: MiniMind's distillation loss, in PyTorch on seeded inputs.

Restates trainer/train_distillation.py at d65ef2c line for line: distillation_loss (25-36:
softmax of the teacher at temperature T under no_grad, log_softmax of the student, F.kl_div with
batchmean, times T²) and the loss of train_epoch (51, 59, 64-66, 70-93: the shift, the teacher's
vocabulary cut to the student's, the masked cross-entropy over sum(mask) + 1e-8, the KL over the
masked rows, α·CE + (1 − α)·distill). The student's logits get their gradient from autograd; the
teacher's need none. Run: npm run fixtures lesson-20
"""
import torch
import torch.nn.functional as F

from common import MINIMIND, write_fixture


def distillation_loss(student_logits, teacher_logits, temperature=1.0, reduction="batchmean"):
    """train_distillation.py:25-36."""
    with torch.no_grad():
        teacher_probs = F.softmax(teacher_logits / temperature, dim=-1).detach()
    student_log_probs = F.log_softmax(student_logits / temperature, dim=-1)
    kl = F.kl_div(student_log_probs, teacher_probs, reduction=reduction)
    return (temperature ** 2) * kl


def step_loss(student_full, teacher_full, labels, alpha, temperature):
    """train_distillation.py:51, 59, 64-66, 70-93 (no MoE aux loss, no accumulation)."""
    loss_mask = (labels[..., 1:] != -100).float()
    student_logits = student_full[..., :-1, :].contiguous()
    with torch.no_grad():
        teacher_logits = teacher_full[..., :-1, :].contiguous()
        vocab_size_student = student_logits.size(-1)
        teacher_logits = teacher_logits[..., :vocab_size_student]
    shift_labels = labels[..., 1:].contiguous()
    loss_mask_flat = loss_mask.view(-1)
    ce_loss = F.cross_entropy(student_logits.view(-1, student_logits.size(-1)), shift_labels.view(-1),
                              ignore_index=-100, reduction="none")
    ce_loss_raw = torch.sum(ce_loss * loss_mask_flat) / (loss_mask_flat.sum() + 1e-8)
    distill_loss = distillation_loss(student_logits.view(-1, student_logits.size(-1))[loss_mask_flat == 1],
                                     teacher_logits.view(-1, teacher_logits.size(-1))[loss_mask_flat == 1],
                                     temperature=temperature)
    loss = alpha * ce_loss_raw + (1 - alpha) * distill_loss
    return ce_loss_raw, distill_loss, loss


def sft_labels(g, B, T, V):
    """SFT-like labels: a prompt of −100, an answer of token ids, −100 padding after it."""
    labels = torch.full((B, T), -100, dtype=torch.int64)
    for b in range(B):
        start = int(torch.randint(1, max(2, T // 2), (1,), generator=g))
        end = int(torch.randint(start + 1, T + 1, (1,), generator=g))
        labels[b, start:end] = torch.randint(0, V, (end - start,), generator=g)
    return labels


def case(seed, B, T, V, Vt, alpha, temperature, teacher_scale=2.0):
    g = torch.Generator().manual_seed(seed)
    student = (torch.randn(B, T, V, generator=g) * 1.5).requires_grad_(True)
    teacher = torch.randn(B, T, Vt, generator=g) * teacher_scale
    labels = sft_labels(g, B, T, V)
    ce, distill, loss = step_loss(student, teacher, labels, alpha, temperature)
    loss.backward()
    inputs = {"studentLogits": student.detach(), "teacherLogits": teacher, "labels": labels,
              "alpha": alpha, "temperature": temperature}
    expected = {"ce": ce.detach(), "distill": distill.detach(), "loss": loss.detach()}
    return inputs, expected, student.grad.clone()


def main():
    specs = [
        ("seed 1, B=2 T=6 V=5, α=0.5 T=1.5 (MiniMind's defaults)", 1, 2, 6, 5, 5, 0.5, 1.5),
        ("seed 2, B=3 T=8 V=7, teacher vocabulary 10, α=0.3 T=2", 2, 3, 8, 7, 10, 0.3, 2.0),
        ("seed 3, B=2 T=5 V=4, pure distillation α=0 T=1", 3, 2, 5, 4, 4, 0.0, 1.0),
        ("seed 4, B=4 T=512 V=16, α=0.5 T=1.5", 4, 4, 512, 16, 16, 0.5, 1.5),
    ]
    cases = {"distillationLoss": [], "distillationLoss.gradient": []}
    for name, *spec in specs:
        inputs, expected, grad = case(*spec)
        print(f"  {name}: ce {float(expected['ce']):.4f} distill {float(expected['distill']):.4f} loss {float(expected['loss']):.4f}")
        cases["distillationLoss"].append({"name": name, "inputs": inputs, "expected": expected})
        cases["distillationLoss.gradient"].append({"name": name, "inputs": inputs, "expected": grad})
    write_fixture("lesson-20", f"{MINIMIND} trainer/train_distillation.py:25-36, 51-93", cases)


if __name__ == "__main__":
    main()
