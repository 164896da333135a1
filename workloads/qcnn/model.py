"""QCNN-style autoencoder compressing CFD solution states: MLP blocks with batch norm, GELU and
max pooling down to a small latent vector, mirrored by a decoder.

Synthetic task: reconstruct smooth multi-variable fields (sums of a few random sinusoids), so
the states lie near a low-dimensional manifold and the reconstruction loss falls.
"""

from __future__ import annotations

import math
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from workloads.runtime.spec import AppSpec, Task

SIZES: dict[str, dict[str, Any]] = {
    "default": {"variables": 4, "points": 1024, "hidden": [4096, 1024, 256], "latent": 32},
    "tiny": {"variables": 2, "points": 16, "hidden": [32, 16], "latent": 4},
}


class EncoderBlock(nn.Module):
    """Linear -> BatchNorm -> GELU -> MaxPool (halves the width)."""

    def __init__(self, cin: int, cout: int) -> None:
        super().__init__()
        self.lin = nn.Linear(cin, cout)
        self.bn = nn.BatchNorm1d(cout)
        self.pool = nn.MaxPool1d(2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(F.gelu(self.bn(self.lin(x))).unsqueeze(1)).squeeze(1)


class Autoencoder(nn.Module):
    def __init__(self, size: int, hidden: list[int], latent: int) -> None:
        super().__init__()
        enc: list[nn.Module] = []
        cin = size
        for h in hidden:
            enc.append(EncoderBlock(cin, h))
            cin = h // 2
        enc.append(nn.Linear(cin, latent))
        self.encoder = nn.Sequential(*enc)
        dec: list[nn.Module] = []
        cin = latent
        for h in reversed(hidden):
            dec += [nn.Linear(cin, h), nn.BatchNorm1d(h), nn.GELU()]
            cin = h
        dec.append(nn.Linear(cin, size))
        self.decoder = nn.Sequential(*dec)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.decoder(self.encoder(x))


def build_model(cfg: dict[str, Any]) -> nn.Module:
    return Autoencoder(cfg["variables"] * cfg["points"], cfg["hidden"], cfg["latent"])


def make_task(cfg: dict[str, Any], device: torch.device) -> Task:
    v, p = cfg["variables"], cfg["points"]
    t = torch.linspace(0, 1, p, device=device).view(1, 1, 1, p)
    k = torch.arange(1, 4, device=device, dtype=torch.float32).view(1, 1, 3, 1)

    def task(gen: torch.Generator, n: int) -> tuple[torch.Tensor, torch.Tensor]:
        amp = torch.randn((n, v, 3, 1), generator=gen, device=device) / k
        phase = torch.rand((n, v, 3, 1), generator=gen, device=device) * 2 * math.pi
        x = (amp * torch.sin(2 * math.pi * k * t + phase)).sum(2).reshape(n, v * p)
        return x, x

    return task


def loss_fn(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return F.mse_loss(out.float(), y)


APP = AppSpec(name="qcnn", build_model=build_model, make_task=make_task, loss_fn=loss_fn,
              sizes=SIZES, default_batch_size=256, tiny_batch_size=4, lr=1e-3)
