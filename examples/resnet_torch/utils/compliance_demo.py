"""Post-processing helpers of the sample that exercise migration advice: an unmapped pooling with an
exact replacement, data-dependent shapes, sparse tensors and a composed loss (never run)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class GlobalMaxHead(nn.Module):
    def __init__(self, channels, classes):
        super().__init__()
        self.pool = nn.AdaptiveMaxPool2d((1, 1))
        self.avg = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(channels, classes)

    def forward(self, features):
        pooled = F.adaptive_max_pool2d(features, 1)
        return self.fc(pooled.view(pooled.size(0), -1))


def confident_scores(logits: torch.Tensor, threshold: float = 0.5):
    probs = torch.sigmoid(logits)
    kept = torch.masked_select(probs, probs > threshold)
    positive = probs[probs > threshold]
    count = int((probs > threshold).sum())
    best = torch.topk(probs.flatten(), count)
    return kept, positive, best


def sparse_adjacency(indices: torch.Tensor, values: torch.Tensor, size: int):
    adjacency = torch.sparse_coo_tensor(indices, values, (size, size))
    return torch.sparse.mm(adjacency, torch.ones(size, 1))
