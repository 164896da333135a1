"""3D U-Net of the NERSC SC22 deep-learning tutorial: maps dark-matter density cubes
(4 channels) to hydrodynamic gas fields (5 channels). Strided 3D convolutions down,
transposed convolutions up, LeakyReLU, skip connections; L1 loss.

Synthetic task: the target fields are a fixed random 3x3x3 convolution of the input passed
through tanh, a deterministic local function the network learns.
"""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from workloads.runtime.spec import AppSpec, Task

SIZES: dict[str, dict[str, Any]] = {
    "default": {"size": 64, "in_channels": 4, "out_channels": 5, "base": 16, "levels": 4},
    "tiny": {"size": 8, "in_channels": 4, "out_channels": 5, "base": 4, "levels": 2},
}


def _act() -> nn.Module:
    return nn.LeakyReLU(0.2, inplace=True)


class UNet3D(nn.Module):
    def __init__(self, cin: int, cout: int, base: int, levels: int) -> None:
        super().__init__()
        chans = [base * 2**i for i in range(levels + 1)]
        self.stem = nn.Sequential(nn.Conv3d(cin, base, 3, padding=1), _act())
        self.down = nn.ModuleList(
            nn.Sequential(nn.Conv3d(lo, hi, 4, stride=2, padding=1), _act(),
                          nn.Conv3d(hi, hi, 3, padding=1), _act())
            for lo, hi in zip(chans[:-1], chans[1:], strict=True)
        )
        self.up = nn.ModuleList(
            nn.ConvTranspose3d(hi, lo, 4, stride=2, padding=1)
            for lo, hi in zip(reversed(chans[:-1]), reversed(chans[1:]), strict=True)
        )
        self.fuse = nn.ModuleList(
            nn.Sequential(nn.Conv3d(2 * lo, lo, 3, padding=1), _act())
            for lo in reversed(chans[:-1])
        )
        self.head = nn.Conv3d(base, cout, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.stem(x)
        skips = []
        for d in self.down:
            skips.append(x)
            x = d(x)
        for up, fuse in zip(self.up, self.fuse, strict=True):
            x = fuse(torch.cat([up(x), skips.pop()], dim=1))
        return self.head(x)


def build_model(cfg: dict[str, Any]) -> nn.Module:
    return UNet3D(cfg["in_channels"], cfg["out_channels"], cfg["base"], cfg["levels"])


def make_task(cfg: dict[str, Any], device: torch.device) -> Task:
    s, ci, co = cfg["size"], cfg["in_channels"], cfg["out_channels"]
    g = torch.Generator().manual_seed(4321)
    w = (torch.randn(co, ci, 3, 3, 3, generator=g) / (ci * 27) ** 0.5).to(device)

    def task(gen: torch.Generator, n: int) -> tuple[torch.Tensor, torch.Tensor]:
        x = torch.randn((n, ci, s, s, s), generator=gen, device=device)
        return x, torch.tanh(F.conv3d(x, w, padding=1))

    return task


def loss_fn(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return F.l1_loss(out.float(), y)


APP = AppSpec(name="unet3d", build_model=build_model, make_task=make_task, loss_fn=loss_fn,
              sizes=SIZES, default_batch_size=8, tiny_batch_size=2, lr=1e-3, spatial_dims=3)
