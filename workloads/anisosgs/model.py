"""AnisoSGS: MLP with LeakyReLU regressing the sub-grid stress tensor from filtered flow
quantities (velocity-gradient tensor and grid anisotropy).

Synthetic task: the 6 stress components are a fixed random smooth function of the 12 inputs.
"""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from workloads.runtime.spec import AppSpec, Task

SIZES: dict[str, dict[str, Any]] = {
    "default": {"inputs": 12, "outputs": 6, "hidden": 512, "layers": 6},
    "tiny": {"inputs": 12, "outputs": 6, "hidden": 16, "layers": 2},
}


def build_model(cfg: dict[str, Any]) -> nn.Module:
    layers: list[nn.Module] = []
    cin = cfg["inputs"]
    for _ in range(cfg["layers"]):
        layers += [nn.Linear(cin, cfg["hidden"]), nn.LeakyReLU(0.01)]
        cin = cfg["hidden"]
    layers.append(nn.Linear(cin, cfg["outputs"]))
    return nn.Sequential(*layers)


def make_task(cfg: dict[str, Any], device: torch.device) -> Task:
    g = torch.Generator().manual_seed(1234)
    a = (torch.randn(cfg["inputs"], 32, generator=g) / cfg["inputs"] ** 0.5).to(device)
    b = (torch.randn(32, cfg["outputs"], generator=g) / 32**0.5).to(device)

    def task(gen: torch.Generator, n: int) -> tuple[torch.Tensor, torch.Tensor]:
        x = torch.randn((n, cfg["inputs"]), generator=gen, device=device)
        return x, torch.tanh(x @ a) @ b

    return task


def loss_fn(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return F.mse_loss(out.float(), y)


APP = AppSpec(name="anisosgs", build_model=build_model, make_task=make_task, loss_fn=loss_fn,
              sizes=SIZES, default_batch_size=8192, tiny_batch_size=32, lr=3e-3)
