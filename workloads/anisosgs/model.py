"""anisoSGS: the anisotropic sub-grid stress model for LES of Prakash & Evans (arXiv:2212.00332)
as the in-situ ML driver builds it (argonne-lcf/SimAI-Bench, online_training): 6 invariant
inputs -> Linear(20) -> LeakyReLU(0.3) -> Linear(6) stress components, 266 parameters, MSE,
Adam at 1e-3 x the number of ranks, mini-batch 1.

Inputs (``comp_ins_outs_SGS`` of the original): the eigenvalues of the grid-scaled filtered
strain rate S, the vorticity's first two components in S's vorticity-aligned eigenframe, and a
viscous term, each normalised by sqrt(|S|^2 + |omega|^2 / 2). Outputs: the SGS stress in that
frame, normalised by Delta^2 (|S|^2 + |omega|^2 / 2) and min-max scaled to [0, 1] per component
when the data is loaded (``load_data``).

Data: ``--make-data DIR`` writes ``DIR/train.npy``, an [N, 12] float32 array (6 inputs, then 6
raw outputs), the array the original's ``load_data`` reads from a ``.npy`` path; ``--data DIR``
(or ``--data file.npy``) reads it and scales the outputs as the original does. The samples come
from random anisotropic grids and filtered velocity gradients, with the gradient (Clark) model
tau = Delta^2 / 12 G G^T as the stress, put through the original's invariant computation.
Synthetic data on the device: invariant-like inputs in [-1, 1] and outputs in (0, 1) from a
fixed smooth function of them (min-max-scaled-like targets).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import Dataset

from workloads.runtime.spec import AppSpec, Recipe, Source, Task

SIZES: dict[str, dict[str, Any]] = {
    # cfg.sgs and mini_batch of online_training/src/train/conf/train_config.yaml: inputs 6,
    # outputs 6, neurons 20, layers 1 (lines 36-40); mini_batch 1 (line 14)
    "default": {"inputs": 6, "outputs": 6, "neurons": 20, "layers": 1, "batch_size": 1},
    # the network is already small: tiny is the same model at batch 32, so a few test steps
    # see more than a handful of samples
    "tiny": {"inputs": 6, "outputs": 6, "neurons": 20, "layers": 1, "batch_size": 32},
}

SOURCE = Source(
    repository="argonne-lcf/SimAI-Bench",
    commit="852d17fbd3c8d35aab4531974b77956313076023",
    path="online_training/src/train/mlp/model.py (class anisoSGS), online_training/src/train/"
         "models.py (anisoSGS(inputDim=cfg.sgs.inputs, outputDim=cfg.sgs.outputs, "
         "numNeurons=cfg.sgs.neurons, numLayers=cfg.sgs.layers)), online_training/src/train/"
         "conf/train_config.yaml (sgs: 6, 6, 20, 1)",
    note="batch 1: mini_batch of online_training/src/train/conf/train_config.yaml (line 14), "
         "the configuration that builds anisoSGS (model: \"sgs\")",
)
RECIPE = Recipe(
    optimizer="adam", lr=1e-3, schedule="constant", lr_scaling="ranks",
    where="SimAI-Bench 852d17f online_training/src/train/conf/train_config.yaml: optimizer "
          "\"Adam\", learning_rate 0.001, scheduler \"None\"; offline_train.py line 211 "
          "(online_train.py line 83): optim.Adam(lr=cfg.learning_rate*comm.size); loss "
          "nn.functional.mse_loss (mlp/model.py)",
)


class AnisoSGS(nn.Module):
    """The original's network, module for module (``net``: Linear, LeakyReLU(0.3), ...)."""

    def __init__(self, inputs: int, outputs: int, neurons: int, layers: int) -> None:
        super().__init__()
        self.net = nn.ModuleList([nn.Linear(inputs, neurons), nn.LeakyReLU(0.3)])
        for _ in range(layers - 1):
            self.net.extend([nn.Linear(neurons, neurons), nn.LeakyReLU(0.3)])
        self.net.append(nn.Linear(neurons, outputs))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self.net:
            x = layer(x)
        return x


def build_model(cfg: dict[str, Any]) -> nn.Module:
    return AnisoSGS(cfg["inputs"], cfg["outputs"], cfg["neurons"], cfg["layers"])


def make_task(cfg: dict[str, Any], device: torch.device) -> Task:
    g = torch.Generator().manual_seed(1234)
    n_in, n_out = cfg["inputs"], cfg["outputs"]
    a = (torch.randn(n_in, 16, generator=g) / n_in**0.5).to(device)
    b = (torch.randn(16, n_out, generator=g) / 16**0.5).to(device)

    def task(gen: torch.Generator, n: int) -> tuple[torch.Tensor, torch.Tensor]:
        x = torch.rand((n, n_in), generator=gen, device=device) * 2 - 1
        return x, torch.sigmoid(2.0 * torch.tanh(x @ a) @ b)

    return task


def loss_fn(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return F.mse_loss(out.float(), y)


# ---------------------------------------------------------------- the original's data
NU = 1.25e-5  # comp_ins_outs_SGS: nu
EPS = 1.0e-14


def sgs_samples(n: int, seed: int) -> np.ndarray:
    """[n, 12] float32: the original's 6 inputs and 6 raw outputs, computed as
    ``comp_ins_outs_SGS`` does (vectorised) from random filtered velocity gradients and grid
    spacings, with the gradient-model stress tau = Delta^2 / 12 * (GradU D)(GradU D)^T."""
    rng = np.random.default_rng(seed)
    grad = rng.normal(size=(n, 3, 3)) * rng.lognormal(0.0, 0.5, size=(n, 1, 1))
    delta = rng.uniform(0.5, 2.0, size=(n, 3)) * 3.0  # gij x scaling [3, 3, 3]
    dnorm = np.linalg.norm(delta, axis=1)
    g = grad * (delta / (dnorm[:, None] + EPS))[:, None, :]  # GradU @ diag(Delta)/|Delta|
    s = 0.5 * (g + g.transpose(0, 2, 1))
    o = 0.5 * (g - g.transpose(0, 2, 1))
    vort = np.stack([-2 * o[:, 1, 2], -2 * o[:, 0, 2], -2 * o[:, 0, 1]], axis=1)
    evals, evecs = np.linalg.eigh(s)
    lda, vecs = evals[:, ::-1], evecs[:, :, ::-1].copy()  # descending, as align_tensors
    unit = vort / (np.linalg.norm(vort, axis=1, keepdims=True) + EPS)
    for c in (0, 2):  # point the first and third eigenvectors along the vorticity
        flip = np.einsum("ni,ni->n", unit, vecs[:, :, c]) < 0
        vecs[flip, :, c] *= -1
    vecs[:, :, 1] = np.cross(vecs[:, :, 2], vecs[:, :, 0])
    spo = (s**2).sum(axis=(1, 2)) + 0.5 * (vort**2).sum(axis=1)
    root = np.sqrt(spo) + EPS
    w = np.einsum("ni,nic->nc", vort, vecs)
    inputs = np.stack([lda[:, 0] / root, lda[:, 1] / root, lda[:, 2] / root, w[:, 0] / root,
                       w[:, 1] / root, NU / (dnorm**2 * np.sqrt(spo) + EPS)], axis=1)
    tau = (dnorm**2 / 12.0)[:, None, None] * np.einsum("nik,njk->nij", g, g)
    tau = tau / (dnorm**2 * spo + EPS)[:, None, None]
    rot = np.einsum("nki,nkl,nlj->nij", vecs, tau, vecs)  # e^T tau e
    outputs = np.stack([rot[:, 0, 0], rot[:, 1, 1], rot[:, 2, 2], rot[:, 0, 1], rot[:, 0, 2],
                        rot[:, 1, 2]], axis=1)
    outputs = outputs + rng.normal(scale=0.01, size=outputs.shape) * outputs.std(axis=0)
    return np.hstack([inputs, outputs]).astype(np.float32)


def write_dataset(path: str, cfg: dict[str, Any], samples: int, seed: int) -> None:
    if cfg["inputs"] != 6 or cfg["outputs"] != 6:
        raise ValueError("anisosgs data has 6 inputs and 6 outputs")
    from workloads.runtime.safeio import check_memory

    # sgs_samples computes every sample at once: ~30 float64 values of 3x3 a sample
    check_memory(path, f"computing {samples} samples", samples * 1000)
    np.save(Path(path) / "train.npy", sgs_samples(samples, seed))


class SGSDataset(Dataset):
    """The original's ``load_data`` for a .npy path: features, then targets min-max scaled to
    [0, 1] per component over the file."""

    def __init__(self, file: Path, inputs: int, outputs: int) -> None:
        from workloads.runtime.safeio import InputError, load_npy

        data = np.float32(load_npy(file, "anisosgs samples (.npy)"))
        if data.ndim != 2 or data.shape[1] != inputs + outputs or not len(data):
            raise InputError(f"{file}: array of shape {data.shape}, expected "
                             f"[N, {inputs + outputs}] (inputs, then outputs)")
        if not np.isfinite(data).all():
            raise InputError(f"{file}: values that are not finite; expected finite samples")
        y = data[:, inputs:]
        if y.min() < 0 or y.max() > 1:
            lo, hi = y.min(axis=0), y.max(axis=0)
            data[:, inputs:] = (y - lo) / (hi - lo)
        self.x = torch.from_numpy(np.ascontiguousarray(data[:, :inputs]))
        self.y = torch.from_numpy(np.ascontiguousarray(data[:, inputs:]))

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        return self.x[i], self.y[i]


def open_dataset(path: str, cfg: dict[str, Any]) -> Dataset | None:
    p = Path(path)
    file = p if p.suffix == ".npy" else p / "train.npy"
    if not file.exists() and not file.is_symlink():
        return None  # the generic .npy shards (meta.json)
    return SGSDataset(file, cfg["inputs"], cfg["outputs"])


APP = AppSpec(name="anisosgs", build_model=build_model, make_task=make_task, loss_fn=loss_fn,
              sizes=SIZES, default_batch_size=1, tiny_batch_size=32, lr=RECIPE.lr,
              open_dataset=open_dataset, write_dataset=write_dataset, recipe=RECIPE,
              source=SOURCE)
