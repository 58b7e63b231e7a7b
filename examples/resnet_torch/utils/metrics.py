"""Accuracy and bookkeeping helpers used by the training loop."""

from collections import defaultdict

import numpy as np
import torch


class AverageMeter:
    """Running average of a scalar; plain Python lists and dicts (nothing to migrate here)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.values = []
        self.history = defaultdict(list)

    def update(self, value: float, n: int = 1) -> None:
        self.values.append((value, n))
        self.history[self.name].append(value)

    @property
    def avg(self) -> float:
        total = sum(v * n for v, n in self.values)
        count = sum(n for _, n in self.values)
        return total / max(count, 1)

    def summary(self) -> dict:
        snapshot = dict(self.history)
        for key, values in snapshot.items():
            snapshot[key] = list(values).copy()
        return snapshot


def accuracy(output: torch.Tensor, target: torch.Tensor, topk=(1,)) -> list:
    """Top-k accuracy in percent for each k."""
    with torch.no_grad():
        maxk = max(topk)
        batch_size = target.size(0)
        _, pred = output.topk(maxk, 1, True, True)
        pred = pred.t()
        correct = pred.eq(target.view(1, -1).expand_as(pred))
        res = []
        for k in topk:
            correct_k = correct[:k].reshape(-1).float().sum(0, keepdim=True)
            res.append(correct_k.mul_(100.0 / batch_size))
        return res


def confident_predictions(logits: torch.Tensor, threshold: float = 0.9) -> torch.Tensor:
    """Labels of the samples predicted with a probability above ``threshold`` (data-dependent shape)."""
    probs = torch.softmax(logits, dim=1)
    top_prob, top_label = probs.max(dim=1)
    mask = top_prob > threshold
    confident = torch.masked_select(top_label, mask)
    indices = torch.nonzero(mask)
    kept_logits = logits[mask]
    return confident, indices, kept_logits


def sparse_confusion(pred: torch.Tensor, target: torch.Tensor, num_classes: int) -> torch.Tensor:
    """Confusion matrix accumulated as a sparse COO tensor, then densified."""
    indices = torch.stack([target, pred])
    values = torch.ones(pred.shape[0], dtype=torch.float32)
    matrix = torch.sparse_coo_tensor(indices, values, (num_classes, num_classes))
    return matrix.coalesce().to_dense()


def per_class_accuracy(confusion: np.ndarray) -> np.ndarray:
    """NumPy only: diagonal over row sums."""
    totals = confusion.sum(axis=1)
    return np.divide(np.diag(confusion), totals, out=np.zeros_like(totals), where=totals > 0)
