"""ImageNet-style input pipeline: a list file of ``path label`` lines, torchvision transforms, DataLoader."""

import os
from typing import Callable, List, Optional, Tuple

import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler
from torchvision import transforms

IMAGENET_MEAN = [0.485, 0.456, 0.406]
IMAGENET_STD = [0.229, 0.224, 0.225]


def train_transform(image_size: int = 224) -> Callable:
    return transforms.Compose([
        transforms.RandomResizedCrop(image_size),
        transforms.RandomHorizontalFlip(),
        transforms.ToTensor(),
        transforms.Normalize(mean=IMAGENET_MEAN, std=IMAGENET_STD),
    ])


def eval_transform(image_size: int = 224) -> Callable:
    return transforms.Compose([
        transforms.Resize(256),
        transforms.CenterCrop(image_size),
        transforms.ToTensor(),
        transforms.Normalize(mean=IMAGENET_MEAN, std=IMAGENET_STD),
    ])


def read_image_list(root: str, list_file: str) -> List[Tuple[str, int]]:
    """Parse ``relative/path.jpg 17`` lines; plain Python, nothing here is a torch API."""
    samples = []
    with open(os.path.join(root, list_file), encoding="utf-8") as fh:
        for line in fh:
            parts = line.strip().split()
            if len(parts) != 2:
                continue
            samples.append((os.path.join(root, parts[0]), int(parts[1])))
    return samples


class ImageListDataset(Dataset):
    """Images listed in a text file, decoded with PIL and transformed like torchvision's ImageFolder."""

    def __init__(self, root: str, list_file: str, transform: Optional[Callable] = None) -> None:
        self.samples = read_image_list(root, list_file)
        self.transform = transform
        labels = np.array([label for _, label in self.samples], dtype=np.int64)
        self.num_classes = int(labels.max()) + 1 if labels.size else 0
        self.class_counts = np.bincount(labels, minlength=self.num_classes)

    def __len__(self) -> int:
        return len(self.samples)

    def __getitem__(self, index: int):
        path, label = self.samples[index]
        with open(path, "rb") as fh:
            image = Image.open(fh).convert("RGB")
        if self.transform is not None:
            image = self.transform(image)
        return image, torch.tensor(label, dtype=torch.long)

    def class_weights(self) -> np.ndarray:
        """Inverse-frequency weights, computed in NumPy (these .sum() calls are not torch calls)."""
        counts = self.class_counts.astype(np.float64)
        weights = counts.sum() / np.maximum(counts, 1.0)
        return weights / weights.sum()


def build_loader(root: str, list_file: str, batch_size: int, train: bool, workers: int = 8,
                 distributed: bool = False) -> DataLoader:
    transform = train_transform() if train else eval_transform()
    dataset = ImageListDataset(root, list_file, transform)
    sampler = DistributedSampler(dataset, shuffle=train) if distributed else None
    return DataLoader(
        dataset,
        batch_size=batch_size,
        shuffle=train and sampler is None,
        sampler=sampler,
        num_workers=workers,
        pin_memory=True,
        drop_last=train,
    )
