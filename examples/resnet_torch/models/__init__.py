from .resnet import Bottleneck, ResNet, resnet50

__all__ = ["Bottleneck", "ResNet", "resnet50"]
