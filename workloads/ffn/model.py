"""Flood-filling network (FFN): 3D convolutions with ReLU and residual skip connections.

Input channels: the image and the current object mask (POM, seeded at the centre voxel).
Synthetic task: the target mask is where the smoothed image is positive, a deterministic
function of the input.
"""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from workloads.ffn.config import DEFAULT_BATCH_SIZE, LR, NAME, POM, SEED_POM, SIZES, TINY_BATCH_SIZE
from workloads.runtime.spec import AppSpec, Task


class Residual(nn.Module):
    def __init__(self, c: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv3d(c, c, 3, padding=1)
        self.conv2 = nn.Conv3d(c, c, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.conv2(F.relu(self.conv1(F.relu(x))))


class FFN(nn.Module):
    def __init__(self, depth: int, filters: int) -> None:
        super().__init__()
        self.stem = nn.Sequential(nn.Conv3d(2, filters, 3, padding=1), nn.ReLU(),
                                  nn.Conv3d(filters, filters, 3, padding=1))
        self.blocks = nn.Sequential(*[Residual(filters) for _ in range(depth)])
        self.head = nn.Conv3d(filters, 1, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(F.relu(self.blocks(self.stem(x))))


def build_model(cfg: dict[str, Any]) -> nn.Module:
    return FFN(cfg["depth"], cfg["filters"])


def make_task(cfg: dict[str, Any], device: torch.device) -> Task:
    f = cfg["fov"]
    pom = torch.full((1, 1, f, f, f), POM, device=device)
    pom[..., f // 2, f // 2, f // 2] = SEED_POM

    def task(gen: torch.Generator, n: int) -> tuple[torch.Tensor, torch.Tensor]:
        img = torch.randn((n, 1, f, f, f), generator=gen, device=device)
        smooth = F.avg_pool3d(img, 3, stride=1, padding=1)
        x = torch.cat([img, pom.expand(n, -1, -1, -1, -1)], dim=1)
        return x, (smooth > 0).float()

    return task


def loss_fn(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return F.binary_cross_entropy_with_logits(out.float(), y)


APP = AppSpec(name=NAME, build_model=build_model, make_task=make_task, loss_fn=loss_fn,
              sizes=SIZES, default_batch_size=DEFAULT_BATCH_SIZE,
              tiny_batch_size=TINY_BATCH_SIZE, lr=LR, spatial_dims=3)
