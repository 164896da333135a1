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


def global_max_pool(feat: torch.Tensor) -> torch.Tensor:
    """Max over the points (dim 2), keeping the dim: PointNet's symmetric global feature.

    ``torch.max(dim=...)``, not ``amax``: their backward passes differ. ``max`` sends each
    channel's gradient to the index it picked in the forward pass. ``amax`` spreads it over
    every point equal to the maximum, found again in the backward pass by an exact ``==``
    against the saved maximum, and divides by that tie count. Under ``torch.compile`` with
    bf16 autocast, Inductor can recompute the batch-norm + ReLU producer for that comparison
    without the bf16 rounding of the forward output, so no point equals the saved maximum,
    the count is 0 and the gradients are 0/0 = NaN: the weights are NaN after the first
    optimizer step and the loss at step 2, as measured on the H100
    (docs/measurements/h100-2026-11-23.md). PyTorch tracks this as pytorch/pytorch#195214
    (CUDA bf16 fusion skips the rounding before the equality: zero tie counts) and #186799
    (amax/amin gradients under compile). With torch 2.13 on the CPU, a batch-norm + ReLU
    producer followed by ``amax`` and a concatenation gives non-finite gradients under
    compile and bf16 autocast; this function gives finite ones
    (tests/workloads/test_workloads_behaviour.py).
    """
    return torch.max(feat, dim=2, keepdim=True).values


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
        g = global_max_pool(self.global_feat(f))
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
