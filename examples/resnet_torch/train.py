"""Train ResNet-50 on ImageNet with SGD, a step learning-rate schedule and mixed precision.

    torchrun --nproc_per_node=8 train.py --data /data/imagenet --epochs 90
"""

import argparse
import os
import time

import torch
import torch.nn as nn
import torch.optim as optim
from torch.cuda.amp import GradScaler, autocast
from torch.nn.parallel import DistributedDataParallel
from torch.optim import lr_scheduler

from data import build_loader
from models import resnet50
from utils.distributed import cleanup, init_distributed, is_main_process, reduce_mean
from utils.metrics import AverageMeter, accuracy


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="ResNet-50 ImageNet training")
    parser.add_argument("--data", default="/data/imagenet")
    parser.add_argument("--epochs", type=int, default=90)
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--momentum", type=float, default=0.9)
    parser.add_argument("--weight-decay", type=float, default=1e-4)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--amp", action="store_true")
    parser.add_argument("--output", default="checkpoints")
    return parser.parse_args()


def train_one_epoch(model, loader, criterion, optimizer, scaler, device, epoch, use_amp):
    model.train()
    losses = AverageMeter("loss")
    top1 = AverageMeter("acc@1")
    start = time.time()
    for step, (images, target) in enumerate(loader):
        images = images.to(device, non_blocking=True)
        target = target.cuda(non_blocking=True)

        optimizer.zero_grad()
        with autocast(enabled=use_amp):
            output = model(images)
            loss = criterion(output, target)

        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()

        acc1, = accuracy(output, target, topk=(1,))
        losses.update(reduce_mean(loss.detach()).item(), images.size(0))
        top1.update(acc1.item(), images.size(0))
        if step % 100 == 0 and is_main_process():
            elapsed = time.time() - start
            print(f"epoch {epoch} step {step} loss {losses.avg:.4f} acc@1 {top1.avg:.2f} ({elapsed:.0f}s)")
    return losses.avg


def evaluate(model, loader, criterion, device):
    model.eval()
    losses = AverageMeter("val_loss")
    top1 = AverageMeter("val_acc@1")
    top5 = AverageMeter("val_acc@5")
    with torch.no_grad():
        for images, target in loader:
            images = images.to(device)
            target = target.to(device)
            output = model(images)
            loss = criterion(output, target)
            acc1, acc5 = accuracy(output, target, topk=(1, 5))
            losses.update(loss.item(), images.size(0))
            top1.update(acc1.item(), images.size(0))
            top5.update(acc5.item(), images.size(0))
    return top1.avg, top5.avg


def save_checkpoint(model, optimizer, scheduler, epoch, path):
    state = {
        "epoch": epoch,
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "scheduler": scheduler.state_dict(),
    }
    torch.save(state, path)


def main() -> None:
    args = parse_args()
    rank, world_size = init_distributed()
    distributed = world_size > 1
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(42 + rank)
    torch.backends.cudnn.benchmark = True

    model = resnet50(num_classes=1000).to(device)
    if distributed:
        local_rank = int(os.environ.get("LOCAL_RANK", 0))
        model = DistributedDataParallel(model, device_ids=[local_rank])

    criterion = nn.CrossEntropyLoss(label_smoothing=0.1).to(device)
    decay, no_decay = [], []
    for name, param in model.named_parameters():
        (no_decay if param.ndim <= 1 or name.endswith(".bias") else decay).append(param)
    optimizer = optim.SGD(
        [{"params": decay, "weight_decay": args.weight_decay}, {"params": no_decay, "weight_decay": 0.0}],
        lr=args.lr,
        momentum=args.momentum,
        nesterov=True,
    )
    scheduler = lr_scheduler.StepLR(optimizer, step_size=30, gamma=0.1)
    scaler = GradScaler(enabled=args.amp)

    train_loader = build_loader(args.data, "train.txt", args.batch_size, True, args.workers, distributed)
    val_loader = build_loader(args.data, "val.txt", args.batch_size, False, args.workers, distributed)

    os.makedirs(args.output, exist_ok=True)
    best_acc1 = 0.0
    for epoch in range(args.epochs):
        if distributed:
            train_loader.sampler.set_epoch(epoch)
        train_loss = train_one_epoch(model, train_loader, criterion, optimizer, scaler, device, epoch, args.amp)
        acc1, acc5 = evaluate(model, val_loader, criterion, device)
        scheduler.step()
        if is_main_process():
            print(f"epoch {epoch}: train loss {train_loss:.4f}, val acc@1 {acc1:.2f}, acc@5 {acc5:.2f}")
            if acc1 > best_acc1:
                best_acc1 = acc1
                save_checkpoint(model, optimizer, scheduler, epoch, os.path.join(args.output, "best.pth"))
    cleanup()


if __name__ == "__main__":
    main()
