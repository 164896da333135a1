"""The 3D U-Net of the NERSC SC22 deep-learning tutorial, layer for layer: N-body (dark matter)
cubes, 4 channels, to hydrodynamic gas fields, 5 channels (Harrington et al. 2021,
arXiv:2106.12662; the tutorial's ``networks/UNet.py``).

The original (NERSC/sc22-dl-tutorial @21ea7dc, ``networks/UNet.py``): six strided 4^3
convolutions 4 -> 64 -> 128 -> 256 -> 512 -> 512 -> 512 each followed by LeakyReLU (slope 0.01,
PyTorch's default), six 4^3 transposed convolutions back, each but the last followed by ReLU,
skip connections by concatenation, tanh output; ``full_scale: False`` drops the sixth level.
Convolution weights drawn from N(0, 0.02), biases 0 (``weight_init`` in ``config/UNet.yaml``).
L1 loss (``lambda_rho: 0``), Adam at 2e-4 with cosine decay to 0 over 10 epochs of 65,536
crops and the learning rate scaled by sqrt(global batch / base batch), warmed up over 128 steps
beyond the base batch (``utils/__init__.py`` ``lr_schedule``), batch 64 per GPU (Summit: 32).

The module names are the original's (``conv_down1`` ... ``conv_last``), so its checkpoints'
state dicts load into this model unchanged.

Synthetic task: the target fields are tanh of a fixed random 3x3x3 convolution of the input, a
deterministic local function the network learns. Real data: ``data.py`` (the tutorial's HDF5
crops).
"""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from workloads.runtime.spec import AppSpec, Recipe, Source, Task, conv_tf32_defaults

from .data import open_dataset, write_dataset

#: NERSC/sc22-dl-tutorial, the commit read (2023; the tutorial's networks and configs)
SOURCE = Source(
    repository="NERSC/sc22-dl-tutorial",
    commit="21ea7dc9419a474cfa40c9790adb935554c4c590",
    path="networks/UNet.py, config/UNet.yaml, train.py, utils/__init__.py, utils/data_loader.py",
    note="UNet(full_scale=True, N_out_channels=5) at [N, 4, 64, 64, 64]",
)

FULL_SCALE = (64, 128, 256, 512, 512, 512)  # conv_down1 .. conv_down6 output channels
_BASE = {"in_channels": 4, "out_channels": 5, "size": 64, "widths": list(FULL_SCALE),
         # the tutorial's base config: 65536 random crops an epoch from the 1024^3 train box
         "samples_per_epoch": 65536, "make_data_box": 128}

SIZES: dict[str, dict[str, Any]] = {
    # config/UNet.yaml `base`: full_scale True, global and base batch 64 (one A100 40GB)
    "default": {**_BASE, "batch_size": 64},
    # the name the SC22 tutorial gives this network (`full_scale: True`); identical to default
    "full_scale": {**_BASE, "batch_size": 64},
    # `full_scale: False` in networks/UNet.py: five levels (no config in UNet.yaml selects it)
    "five_scale": {**_BASE, "widths": list(FULL_SCALE[:5]), "batch_size": 64},
    # config/UNet.yaml `base_sm` (Summit V100 16GB): the same network at global and base
    # batch 32 (UNet.yaml lines 100-104): 2e-4 at batch 32, 10 x 65536 // 32 = 20,480 steps
    "summit": {**_BASE, "batch_size": 32, "recipe": {"lr_reference_batch": 32}},
    # tests and CI; the rate unscaled (sqrt(2 / 64) would leave a 50-step run nothing to learn)
    "tiny": {"in_channels": 4, "out_channels": 5, "size": 16, "widths": [8, 16, 16],
             "samples_per_epoch": 256, "make_data_box": 32,
             "recipe": {"lr_scaling": "none", "lr_reference_batch": 0, "epoch_samples": 256}},
}


def _down(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv3d(cin, cout, 4, stride=2, padding=1), nn.LeakyReLU(inplace=True))


def _up(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(nn.ConvTranspose3d(cin, cout, 4, stride=2, padding=1),
                         nn.ReLU(inplace=True))


class UNet(nn.Module):
    """``widths`` are the down path's output channels; six levels of (64, 128, 256, 512, 512,
    512) are the original's ``full_scale``, the first five its ``full_scale: False``."""

    def __init__(self, cin: int, cout: int, widths: list[int]) -> None:
        super().__init__()
        self.levels = len(widths)
        chans = [cin, *widths]
        for i in range(self.levels):
            self.add_module(f"conv_down{i + 1}", _down(chans[i], chans[i + 1]))
        top = self.levels
        self.add_module(f"conv_up{top}", _up(widths[-1], widths[-2]))
        for i in range(top - 1, 1, -1):  # conv_up{i}: concat of level i's input and skip
            self.add_module(f"conv_up{i}", _up(2 * widths[i - 1], widths[i - 2]))
        self.conv_last = nn.ConvTranspose3d(2 * widths[0], cout, 4, stride=2, padding=1)
        self.tanh = nn.Tanh()
        self.apply(_weights_init)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        skips = []
        for i in range(1, self.levels + 1):
            x = getattr(self, f"conv_down{i}")(x)
            skips.append(x)
        x = skips.pop()
        for i in range(self.levels, 1, -1):
            x = torch.cat([getattr(self, f"conv_up{i}")(x), skips.pop()], dim=1)
        return self.tanh(self.conv_last(x))


def _weights_init(m: nn.Module) -> None:
    """config/UNet.yaml ``weight_init: {conv_init: normal, conv_scale: 0.02, conv_bias: 0.}``,
    applied by ``UNet.get_weights_function`` to every module whose class name has 'Conv'."""
    if isinstance(m, nn.Conv3d | nn.ConvTranspose3d):
        nn.init.normal_(m.weight, 0.0, 0.02)
        nn.init.zeros_(m.bias)


def build_model(cfg: dict[str, Any]) -> nn.Module:
    size, levels = cfg["size"], len(cfg["widths"])
    if size % 2**levels:
        raise ValueError(f"unet3d: a {size}^3 crop does not halve {levels} times")
    return UNet(cfg["in_channels"], cfg["out_channels"], cfg["widths"])


def make_task(cfg: dict[str, Any], device: torch.device) -> Task:
    s, ci, co = cfg["size"], cfg["in_channels"], cfg["out_channels"]
    g = torch.Generator().manual_seed(4321)
    w = (torch.randn(co, ci, 3, 3, 3, generator=g) / (ci * 27) ** 0.5).to(device)

    # the written files' per-channel offsets (data.py): the temperature channel sits near -0.36
    offset = torch.tensor([0.0, 0.0, 0.0, 0.0, -0.36][:co] + [0.0] * max(0, co - 5),
                          device=device).view(1, co, 1, 1, 1)

    def task(gen: torch.Generator, n: int) -> tuple[torch.Tensor, torch.Tensor]:
        x = torch.randn((n, ci, s, s, s), generator=gen, device=device)
        return x, 0.3 * torch.tanh(F.conv3d(x, w, padding=1)) + offset

    return task


def loss_fn(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """``UNet.loss_func`` with the config's ``lambda_rho: 0``: plain L1."""
    return F.l1_loss(out.float(), y.float())


#: train.py builds ``optim.Adam(lr=start_lr)`` (torch defaults otherwise) and calls
#: ``lr_schedule`` every step: cosine from start_lr to end_lr 0 over tot_steps = num_epochs x
#: (Nsamples // global batch) steps (10 x 65536 // 64 = 10,240 in the base config, 5,120 at
#: global batch 128); the start is scaled by sqrt(global batch / base batch), and beyond the
#: base batch a linear warm-up over 128 steps comes first (runtime/schedules.py sc22_cosine).
RECIPE = Recipe(
    optimizer="adam", lr=2e-4, schedule="sc22_cosine", min_lr=0.0, warmup_steps=128,
    decay_epochs=10, epoch_samples=65536, lr_scaling="sqrt", lr_reference_batch=64,
    where="NERSC/sc22-dl-tutorial@21ea7dc train.py (optim.Adam; lr_schedule every step; "
          "tot_steps = num_epochs * (Nsamples // global_batch_size)), utils/__init__.py "
          "lr_schedule, config/UNet.yaml base: lr_schedule {scaling: sqrt, start_lr: 2e-4, "
          "end_lr: 0, warmup_steps: 128 (only when global batch > 64)}, num_epochs 10, "
          "Nsamples 65536, base_batch_size 64",
)


def run_defaults(dev: Any, config: str) -> dict[str, tuple[Any, str]]:
    """The original (NERSC/sc22-dl-tutorial, train.py and utils/) sets no TF32 flag
    (`git grep allow_tf32` finds none at the commit read), so on an NVIDIA GPU it runs PyTorch's
    default numerics: cuDNN convolutions in TF32."""
    return conv_tf32_defaults("unet3d", dev)


APP = AppSpec(name="unet3d", build_model=build_model, make_task=make_task, loss_fn=loss_fn,
              sizes=SIZES, default_batch_size=64, tiny_batch_size=2, lr=2e-4, spatial_dims=3,
              open_dataset=open_dataset, write_dataset=write_dataset, recipe=RECIPE,
              source=SOURCE, run_defaults=run_defaults)
