"""CosmicTagger: UNet-style 2D segmentation of neutrino-detector images.

Every pixel of every detector plane is background (0), cosmic (1) or neutrino (2).
Synthetic task: sparse activity images; a hit pixel is "neutrino" where its 3x3 neighbourhood is
dense, "cosmic" otherwise, and empty pixels are background: a deterministic, local function of
the input that a conv net learns quickly.
"""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from workloads.cosmictagger.config import (
    DEFAULT_BATCH_SIZE,
    DENSE,
    LR,
    NAME,
    SIZES,
    SLOPE,
    TINY_BATCH_SIZE,
)
from workloads.runtime.spec import AppSpec, Task


class ConvBlock(nn.Sequential):
    def __init__(self, cin: int, cout: int) -> None:
        super().__init__(
            nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
            nn.LeakyReLU(SLOPE, inplace=True),
            nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
            nn.LeakyReLU(SLOPE, inplace=True),
        )


class UNet2D(nn.Module):
    def __init__(self, planes: int, classes: int, base: int, levels: int) -> None:
        super().__init__()
        self.planes, self.classes = planes, classes
        chans = [base * 2**i for i in range(levels + 1)]
        self.enc = nn.ModuleList()
        cin = planes
        for c in chans[:-1]:
            self.enc.append(ConvBlock(cin, c))
            cin = c
        self.pool = nn.MaxPool2d(2)
        self.bottom = ConvBlock(chans[-2], chans[-1])
        self.up = nn.ModuleList()
        self.dec = nn.ModuleList()
        for lo, hi in zip(reversed(chans[:-1]), reversed(chans[1:]), strict=True):
            self.up.append(nn.ConvTranspose2d(hi, lo, 2, stride=2))
            self.dec.append(ConvBlock(2 * lo, lo))
        self.head = nn.Conv2d(base, planes * classes, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        skips = []
        for blk in self.enc:
            x = blk(x)
            skips.append(x)
            x = self.pool(x)
        x = self.bottom(x)
        for up, dec in zip(self.up, self.dec, strict=True):
            x = up(x)
            x = dec(torch.cat([x, skips.pop()], dim=1))
        out = self.head(x)  # [B, planes*classes, H, W]
        b, _, h, w = out.shape
        return out.view(b, self.classes, self.planes, h, w)


def build_model(cfg: dict[str, Any]) -> nn.Module:
    return UNet2D(cfg["planes"], cfg["classes"], cfg["base"], cfg["levels"])


def make_task(cfg: dict[str, Any], device: torch.device) -> Task:
    shape = (cfg["planes"], cfg["height"], cfg["width"])

    def task(gen: torch.Generator, n: int) -> tuple[torch.Tensor, torch.Tensor]:
        x = torch.relu(torch.randn((n, *shape), generator=gen, device=device) - 0.5)
        hit = x > 0
        density = F.avg_pool2d(hit.float(), 3, stride=1, padding=1)
        y = torch.where(hit, torch.where(density > DENSE, 2, 1), 0).long()
        return x, y

    return task


def loss_fn(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(out.float(), y)


APP = AppSpec(name=NAME, build_model=build_model, make_task=make_task, loss_fn=loss_fn,
              sizes=SIZES, default_batch_size=DEFAULT_BATCH_SIZE,
              tiny_batch_size=TINY_BATCH_SIZE, lr=LR, spatial_dims=2)
