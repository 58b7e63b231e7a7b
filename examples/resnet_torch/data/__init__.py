from .dataset import ImageListDataset, build_loader

__all__ = ["ImageListDataset", "build_loader"]
