"""PointNet segmentation: shared per-point MLPs (1x1 conv + batch norm + ReLU), a max-pooled
global feature concatenated back to every point, and a per-point classifier.

Synthetic task: class of a point = (x above the cloud's mean x) + 2 * (z > 0). It needs the
global (pooled) feature, as real segmentation does.
"""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from workloads.runtime.spec import AppSpec, Task

SIZES: dict[str, dict[str, Any]] = {
    "default": {"points": 2048, "classes": 4, "local": [64, 128, 1024], "head": [512, 256, 128]},
    "tiny": {"points": 32, "classes": 4, "local": [8, 16], "head": [16]},
}


def shared_mlp(cin: int, widths: list[int]) -> tuple[nn.Sequential, int]:
    layers: list[nn.Module] = []
    for w in widths:
        layers += [nn.Conv1d(cin, w, 1, bias=False), nn.BatchNorm1d(w), nn.ReLU(inplace=True)]
        cin = w
    return nn.Sequential(*layers), cin


class PointNetSeg(nn.Module):
    def __init__(self, classes: int, local: list[int], head: list[int]) -> None:
        super().__init__()
        self.point_feat, c1 = shared_mlp(3, local[:1])
        self.global_feat, c2 = shared_mlp(c1, local[1:])
        self.head, c3 = shared_mlp(c1 + c2, head)
        self.out = nn.Conv1d(c3, classes, 1)

    def forward(self, pts: torch.Tensor) -> torch.Tensor:  # pts [B, 3, N]
        f = self.point_feat(pts)
        g = self.global_feat(f).amax(dim=2, keepdim=True)  # max pooling over points
        h = torch.cat([f, g.expand(-1, -1, f.shape[2])], dim=1)
        return self.out(self.head(h))  # [B, classes, N]


def build_model(cfg: dict[str, Any]) -> nn.Module:
    return PointNetSeg(cfg["classes"], cfg["local"], cfg["head"])


def make_task(cfg: dict[str, Any], device: torch.device) -> Task:
    npts = cfg["points"]

    def task(gen: torch.Generator, n: int) -> tuple[torch.Tensor, torch.Tensor]:
        pts = torch.rand((n, 3, npts), generator=gen, device=device) * 2 - 1
        pts = pts + 0.5 * torch.randn((n, 3, 1), generator=gen, device=device)
        x_above = pts[:, 0] > pts[:, 0].mean(dim=1, keepdim=True)
        y = x_above.long() + 2 * (pts[:, 2] > 0).long()
        return pts, y

    return task


def loss_fn(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(out.float(), y)


APP = AppSpec(name="pointnet", build_model=build_model, make_task=make_task, loss_fn=loss_fn,
              sizes=SIZES, default_batch_size=32, tiny_batch_size=2, lr=2e-3)
