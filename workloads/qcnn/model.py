"""QuadConv autoencoder compressing CFD solution states on a 3D mesh (the in-situ training
application of rickybalin/in-situ_ML, ``QuadConv_AE``), layer for layer.

Original: ``QuadConv_AE/core/{model,modules,quadconv_blocks,utils}.py`` @ ef2e8d1 and
``QuadConv_AE/config.yaml`` @ c6e8392 (develop branch; both removed again in fd95a94), with the
operator of AlgorithmicDataReduction/PyTorch-QuadConv @ c32ba24 (the submodule commit), built as
the in-situ driver builds it (``MeshHandler(mesh_nodes)``: learned quadrature weights on every
mesh level; argonne-lcf/SimAI-Bench ``online_training/src/train/models.py``).

Network (config.yaml, ``module: pool``, ``stages: 2``), points 44,121 -> 19,456 -> 2,432 -> 304:

* encoder: QuadConv 4 -> 16 channels from the mesh to a 8x152x16 grid (``param_quad`` with
  ``ratio [1, 19, 2]`` over the mesh's bounding box); 2 pool blocks (QuadConv 16 -> 16,
  InstanceNorm, CELU, QuadConv, InstanceNorm, + input, CELU, MaxPool3d(2)) on the 19,456- and
  2,432-point grids; flatten 16 x 304 -> Linear 100 -> CELU -> Linear 100 -> CELU (latent 100);
* decoder, mirrored: Linear 100 -> CELU -> Linear 4,864 -> CELU -> unflatten; 2 pool blocks
  with nearest upsampling first; QuadConv 16 -> 4 back onto the mesh; tanh.

Every QuadConv: filter MLP 3 -> 16 -> 32 -> 32 -> 16 -> C_in*C_out (sin, no biases), a bias
per output channel and point, decay parameters [1e7, 5e7, 5e7] (encoder) and [5e6, 5e6, 5e7]
(decoder: config.yaml's list reversed by ``package_args(mirror=True)``). Loss MSE, Adam 1e-4,
ReduceLROnPlateau(patience 500, factor 0.5).

The mesh: the original trains on the simulation's own mesh (44,121 nodes sent by the solver),
which is not public. The bundled mesh is a structured 11 x 191 x 21 lattice (the original's
point count, aspect close to its grid ratio 1:19:2) with 0.008 spacing and tanh clustering
towards the wall z = 0: a flat-plate boundary-layer-like block. Data: ``mesh.hdf5``
(``points``) and ``features.hdf5`` (``features`` [samples, points, channels]) as
``torch_quadconv.MeshDataModule`` reads them, normalised as it does.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from workloads.qcnn.quadconv import QuadConv, grid_points, support_pairs
from workloads.runtime.spec import AppSpec, Recipe, Source, Task

_CONV = {"filter_seq": [16, 32, 32, 16], "decay": [1.0e7, 5.0e7, 5.0e7, 5.0e6, 5.0e6],
         "in_channels": [4, 16, 16], "out_channels": [16, 16, 16]}
SIZES: dict[str, dict[str, Any]] = {
    # config.yaml: point_seq [44121, 19456, 2432], out 304, ratio [1, 19, 2], latent 100
    "default": {"lattice": [11, 191, 21], "spacing": 0.008, "stretch": 1.5,
                "point_seq": [44121, 19456, 2432], "ratio": [1, 19, 2], "stages": 2,
                "latent_dim": 100, **_CONV, "batch_size": 4},
    "tiny": {"lattice": [5, 9, 5], "spacing": 0.008, "stretch": 1.5,
             "point_seq": [225, 128, 16], "ratio": [1, 2, 1], "stages": 2,
             "latent_dim": 16, **_CONV, "batch_size": 2,
             # tests: at the original's 1e-4 fifty steps barely move the loss
             "recipe": {"lr": 2e-3}},
}

SOURCE = Source(
    repository="rickybalin/in-situ_ML",
    commit="ef2e8d1d70a5e3edb62da7f365795d185cf51923",
    path="QuadConv_AE/core/model.py, core/modules.py, core/quadconv_blocks.py, core/utils.py; "
         "QuadConv_AE/config.yaml @ c6e8392730fb892ff4880918c2f53f3033a95921",
    note="operator: AlgorithmicDataReduction/PyTorch-QuadConv @ "
         "c32ba24897dc291b1fd6c386f3abca55f18d9dc5 (torch_quadconv/quadconv.py, "
         "mesh_handler.py, utils/quadrature.py, mesh_datamodule.py); Doherty et al., "
         "arXiv:2211.05151",
)
RECIPE = Recipe(
    optimizer="adam", lr=1e-4, schedule="plateau", factor=0.5, patience=500,
    where="QuadConv_AE/config.yaml (optimizer Adam, learning_rate 0.0001, loss MSELoss); "
          "core/model.py configure_optimizers: ReduceLROnPlateau(patience=500, factor=0.5) "
          "on the validation error per epoch (here: on the windowed training loss, in steps)",
)


# ----------------------------------------------------------------------------- the mesh
def make_mesh(cfg: dict[str, Any]) -> torch.Tensor:
    """The bundled mesh ``[points, 3]``: an ``nx x ny x nz`` lattice, ``spacing`` apart in x
    (span) and y (stream), and over the same height in z with tanh clustering at z = 0."""
    nx, ny, nz = cfg["lattice"]
    h, beta = cfg["spacing"], cfg["stretch"]
    cpu = {"dtype": torch.float64, "device": "cpu"}  # also inside a meta-device build
    x = torch.linspace(0, (nx - 1) * h, nx, **cpu)
    y = torch.linspace(0, (ny - 1) * h, ny, **cpu)
    s = torch.linspace(0, 1, nz, **cpu)
    z = (nz - 1) * h * (1 - torch.tanh(beta * (1 - s)) / math.tanh(beta))
    pts = torch.cartesian_prod(x, y, z).float()
    if pts.shape[0] != cfg["point_seq"][0]:
        raise ValueError(f"lattice {cfg['lattice']} has {pts.shape[0]} points, "
                         f"point_seq[0] is {cfg['point_seq'][0]}")
    return pts


class Mesh(nn.Module):
    """``MeshHandler(points).construct(point_seq, quad_map="param_quad")``: the mesh and its
    grids (every grid spans the mesh's bounding box), each with a learned quadrature weight
    per point (uniform(0, 1) init, sigmoid).

    The points and the support pairs are computed on the CPU whatever the default device is
    (a ``meta``-device build, which counts FLOPs without arithmetic, still needs them), then
    put on the default device."""

    def __init__(self, points: torch.Tensor, point_seq: list[int], ratio: list[int]) -> None:
        super().__init__()
        points = points.cpu()
        lo, hi = points.min(0).values, points.max(0).values
        levels = [points] + [grid_points(lo, hi, n, ratio) for n in point_seq[1:]]
        self._cpu_points = levels
        dev = torch.empty(0).device
        for k, p in enumerate(levels):
            self.register_buffer(f"points{k}", p.to(dev), persistent=False)
        self.weights = nn.ParameterList(
            [nn.Parameter(nn.init.uniform_(torch.empty(len(p)), a=0, b=1)) for p in levels])
        self.levels = len(levels)
        self._pairs: dict[tuple[int, int, float], tuple[torch.Tensor, torch.Tensor]] = {}

    def points(self, k: int) -> torch.Tensor:
        return getattr(self, f"points{k}")

    def count(self, k: int) -> int:
        return int(getattr(self, f"points{k}").shape[0])

    def weight(self, k: int) -> torch.Tensor:
        return torch.sigmoid(self.weights[k])

    def pairs(self, out_level: int, in_level: int,
              decay: float) -> tuple[torch.Tensor, torch.Tensor]:
        """Support pairs and their offsets, found once per (levels, decay) at build time."""
        key = (out_level, in_level, float(decay))
        if key not in self._pairs:
            out_pts, in_pts = self._cpu_points[out_level], self._cpu_points[in_level]
            pairs = support_pairs(out_pts, in_pts, decay)
            self._pairs[key] = (pairs, out_pts[pairs[:, 0]] - in_pts[pairs[:, 1]])
        return self._pairs[key]


def _conv(mesh: Mesh, out_level: int, in_level: int, cin: int, cout: int,
          cfg: dict[str, Any], decay: float) -> QuadConv:
    pairs, locs = mesh.pairs(out_level, in_level, decay)
    return QuadConv(spatial_dim=3, in_channels=cin, out_channels=cout,
                    out_points=mesh.count(out_level), filter_seq=cfg["filter_seq"],
                    decay=decay, pairs=pairs, locs=locs, bias=True)


# ----------------------------------------------------------------------------- the network
class PoolBlock(nn.Module):
    """``quadconv_blocks.PoolBlock``: two QuadConvs on one grid with InstanceNorm + CELU and a
    residual, then MaxPool3d(2) (encoder) or, before them, nearest Upsample(2) (decoder)."""

    def __init__(self, mesh: Mesh, level: int, channels: int, cfg: dict[str, Any],
                 decay: float, adjoint: bool) -> None:
        super().__init__()
        self.level, self.adjoint = level, adjoint
        pts = mesh.count(level)
        n = round((pts / math.prod(cfg["ratio"])) ** (1 / 3))
        self.grid = [r * n for r in cfg["ratio"]]  # the block's grid, before pooling
        self.coarse = [g // 2 for g in self.grid]
        self.conv1 = _conv(mesh, level, level, channels, channels, cfg, decay)
        self.batchnorm1 = nn.InstanceNorm1d(channels)
        self.conv2 = _conv(mesh, level, level, channels, channels, cfg, decay)
        self.batchnorm2 = nn.InstanceNorm1d(channels)

    def forward(self, x: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
        b, c = x.shape[:2]
        if self.adjoint:
            x = F.interpolate(x.reshape(b, c, *self.coarse), scale_factor=2, mode="nearest")
            x = x.reshape(b, c, -1)
        x1 = F.celu(self.batchnorm1(self.conv1(x, weights)))
        x2 = F.celu(self.batchnorm2(self.conv2(x1, weights)) + x)
        if not self.adjoint:
            x2 = F.max_pool3d(x2.reshape(b, c, *self.grid), 2).reshape(b, c, -1)
        return x2


class Encoder(nn.Module):
    def __init__(self, mesh: Mesh, cfg: dict[str, Any]) -> None:
        super().__init__()
        stages, decay = cfg["stages"], cfg["decay"]
        cin, cout = cfg["in_channels"], cfg["out_channels"]
        self.init_layer = _conv(mesh, 1, 0, cin[0], cout[0], cfg, decay[0])
        self.qcnn = nn.ModuleList(
            PoolBlock(mesh, i, cout[i], cfg, decay[i], adjoint=False)
            for i in range(1, stages + 1))
        flat = cout[-1] * (cfg["point_seq"][-1] // 8)
        self.linear = nn.Sequential(nn.Linear(flat, cfg["latent_dim"]), nn.CELU(),
                                    nn.Linear(cfg["latent_dim"], cfg["latent_dim"]), nn.CELU())


class Decoder(nn.Module):
    def __init__(self, mesh: Mesh, cfg: dict[str, Any]) -> None:
        super().__init__()
        stages, latent = cfg["stages"], cfg["latent_dim"]
        decay = list(reversed(cfg["decay"]))  # package_args(mirror=True) reverses the list
        cin = list(reversed(cfg["out_channels"]))  # swap() then reverse: decoder channels
        cout = list(reversed(cfg["in_channels"]))
        self.channels, self.points = cin[0], cfg["point_seq"][-1] // 8
        self.linear = nn.Sequential(nn.Linear(latent, latent), nn.CELU(),
                                    nn.Linear(latent, self.channels * self.points), nn.CELU())
        self.qcnn = nn.ModuleList(
            PoolBlock(mesh, stages - i, cin[i], cfg, decay[i], adjoint=True)
            for i in range(stages))
        self.init_layer = _conv(mesh, 0, 1, cin[stages], cout[stages], cfg, decay[stages])


class QuadConvAE(nn.Module):
    """``core/model.py`` ``Model``: ``tanh(decode(encode(x)))`` on ``[batch, channels,
    points]``."""

    def __init__(self, cfg: dict[str, Any]) -> None:
        super().__init__()
        self.mesh = Mesh(make_mesh(cfg), cfg["point_seq"], cfg["ratio"])
        self.encoder = Encoder(self.mesh, cfg)
        self.decoder = Decoder(self.mesh, cfg)
        self.mesh._pairs.clear()  # the layers hold their pairs; drop the build-time cache
        del self.mesh._cpu_points

    def encode(self, x: torch.Tensor) -> torch.Tensor:
        enc, mesh = self.encoder, self.mesh
        x = enc.init_layer(x, mesh.weight(0))
        for block in enc.qcnn:
            x = block(x, mesh.weight(block.level))
        return enc.linear(x.flatten(1))

    def decode(self, z: torch.Tensor) -> torch.Tensor:
        dec, mesh = self.decoder, self.mesh
        x = dec.linear(z).reshape(z.shape[0], dec.channels, dec.points)
        for block in dec.qcnn:
            x = block(x, mesh.weight(block.level))
        return torch.tanh(dec.init_layer(x, mesh.weight(1)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.decode(self.encode(x))


def build_model(cfg: dict[str, Any]) -> nn.Module:
    return QuadConvAE(cfg)


def loss_fn(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return F.mse_loss(out.float(), y.float())


# ----------------------------------------------------------------------------- the data
def _unit_coords(points: torch.Tensor) -> torch.Tensor:
    lo, hi = points.min(0).values, points.max(0).values
    return (points - lo) / (hi - lo)


class FlowFields:
    """Smooth flow-like states on the mesh, in physical units (``features.hdf5`` holds these):
    pressure, and streamwise (y), spanwise (x), wall-normal (z) velocity. Velocity follows a
    boundary-layer profile ``U(z) = tanh(3 z / H)``; every channel adds a few random Fourier
    modes of the domain (amplitude falling with wavenumber), so states lie near a
    low-dimensional manifold the autoencoder can learn."""

    WAVES = 6

    def __init__(self, points: torch.Tensor, channels: int, device: torch.device) -> None:
        unit = _unit_coords(points.double())
        wave = torch.Generator().manual_seed(20230412)  # the mode set is part of the app
        k = torch.randint(0, 4, (self.WAVES, 3), generator=wave).double()
        k[:, 1] += torch.randint(1, 6, (self.WAVES,), generator=wave).double()  # streamwise
        arg = 2 * math.pi * unit @ k.T  # [P, K]
        self.basis = torch.cat([arg.sin(), arg.cos()], 1).T.float().to(device)  # [2K, P]
        self.amp = (1 / k.norm(dim=1)).float().repeat(2).to(device)  # [2K]
        self.profile = torch.tanh(3 * unit[:, 2]).float().to(device)  # U(z), [P]
        self.channels = channels
        self.device = device

    def __call__(self, gen: torch.Generator, n: int) -> torch.Tensor:
        """``[n, channels, points]`` states drawn with ``gen`` (on this object's device)."""
        c, k2 = self.channels, self.basis.shape[0]
        coef = torch.randn((n, c, k2), generator=gen, device=self.device) * self.amp
        modes = (coef.reshape(n * c, k2) @ self.basis).reshape(n, c, -1)
        scale = torch.tensor([0.05, 0.1, 0.05, 0.05] + [0.05] * max(0, c - 4),
                             device=self.device)[:c].reshape(1, c, 1)
        out = modes * scale
        if c > 1:  # streamwise velocity: profile plus fluctuations scaled by it
            out[:, 1] = self.profile * (1 + out[:, 1])
        return out


class Normalizer:
    """``MeshDataModule._transform(normalize=True)``: per channel, subtract the mean and divide
    by the standard deviation over samples and points, then by the largest magnitude."""

    def __init__(self, mean: torch.Tensor, std: torch.Tensor, peak: torch.Tensor) -> None:
        self.mean, self.std, self.peak = mean, std, peak

    @classmethod
    def from_stats(cls, total: torch.Tensor, sq: torch.Tensor, lo: torch.Tensor,
                   hi: torch.Tensor, count: int) -> Normalizer:
        mean = total / count
        std = ((sq - count * mean**2) / max(count - 1, 1)).clamp_min(0).sqrt()
        peak = torch.maximum((hi - mean).abs(), (lo - mean).abs()) / std
        return cls(mean.float(), std.float(), peak.float())

    @classmethod
    def of(cls, feats: torch.Tensor) -> Normalizer:
        """Statistics of ``[samples, channels, points]`` states."""
        f = feats.double()
        return cls.from_stats(f.sum((0, 2)), (f * f).sum((0, 2)), f.amin((0, 2)),
                              f.amax((0, 2)), f.shape[0] * f.shape[2])

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        """``[..., channels, points]``."""
        m, s, p = (t.to(x.device).reshape(-1, 1) for t in (self.mean, self.std, self.peak))
        return (x - m) / s / p


def make_task(cfg: dict[str, Any], device: torch.device) -> Task:
    """States as the data module hands them to the network: flow fields on the mesh,
    normalised with the statistics of a fixed reference set of 64 states (what reading a
    ``make-data`` file does with its own)."""
    fields = FlowFields(make_mesh(cfg), cfg["in_channels"][0], device)
    ref = torch.Generator(device=device).manual_seed(0)
    norm = Normalizer.of(fields(ref, 64))

    def task(gen: torch.Generator, n: int) -> tuple[torch.Tensor, torch.Tensor]:
        x = norm(fields(gen, n))
        return x, x

    return task


class MeshFeatures(torch.utils.data.Dataset):
    """``mesh.hdf5`` + ``features.hdf5`` of a directory, read as ``MeshDataModule`` reads them:
    features ``[samples, points, channels]`` -> normalised ``[channels, points]`` per sample.
    Samples are read lazily (one HDF5 handle per DataLoader worker); the normalisation
    statistics come from one pass over the file."""

    def __init__(self, path: str | Path, cfg: dict[str, Any]) -> None:
        from workloads.runtime.safeio import (
            InputError,
            check_samples,
            h5_dataset,
            h5_read,
            open_h5,
        )

        self.dir = Path(path)
        self.file = self.dir / "features.hdf5"
        mesh_file = self.dir / "mesh.hdf5"
        with open_h5(mesh_file, "qcnn mesh file (mesh.hdf5)") as fh:
            ds = h5_dataset(fh, mesh_file, "points", ndim=2, kinds="fiu")
            if ds.shape[1] != 3:
                raise InputError(f"{mesh_file}: field 'points' has shape {ds.shape}, expected "
                                 "[P, 3]")
            points = torch.from_numpy(h5_read(ds, mesh_file, "points").astype("float32"))
        expected = make_mesh(cfg)
        if points.shape != expected.shape or not torch.allclose(points, expected, atol=1e-6):
            raise InputError(f"{mesh_file}: its {tuple(points.shape)} points are not the "
                             f"mesh this configuration builds ({tuple(expected.shape)}); the "
                             "model's mesh comes from the configuration: write the data with "
                             "--make-data and the same --config/--tiny")
        with open_h5(self.file, "qcnn features file (features.hdf5)") as fh:
            ds = h5_dataset(fh, self.file, "features", ndim=3, kinds="fiu")
            if ds.shape[1] != len(points) or ds.shape[2] < cfg["in_channels"][0]:
                raise InputError(f"{self.file}: field 'features' has shape {ds.shape}, "
                                 f"expected [samples, {len(points)}, {cfg['in_channels'][0]}]")
            self.samples = check_samples(self.file, "field 'features'", ds.shape[0])
            self.channels = cfg["in_channels"][0]
            self.norm = self._stats(ds)
        self._fh: Any = None

    def _stats(self, ds: Any, chunk: int = 64) -> Normalizer:
        c = self.channels
        total, sq = torch.zeros(c, dtype=torch.float64), torch.zeros(c, dtype=torch.float64)
        lo = torch.full((c,), math.inf, dtype=torch.float64)
        hi = torch.full((c,), -math.inf, dtype=torch.float64)
        from workloads.runtime.safeio import InputError, h5_read

        for s in range(0, self.samples, chunk):
            f = torch.from_numpy(h5_read(ds, self.file, "features",
                                         (slice(s, s + chunk), slice(None), slice(0, c)))).double()
            if not torch.isfinite(f).all():
                raise InputError(f"{self.file}: field 'features' holds values that are not "
                                 f"finite (samples {s} to {s + len(f) - 1}); expected finite "
                                 "flow states")
            total += f.sum((0, 1))
            sq += (f * f).sum((0, 1))
            lo = torch.minimum(lo, f.amin((0, 1)))
            hi = torch.maximum(hi, f.amax((0, 1)))
        return Normalizer.from_stats(total, sq, lo, hi, self.samples * ds.shape[1])

    def __len__(self) -> int:
        return self.samples

    def __getitem__(self, idx: int) -> tuple[torch.Tensor, torch.Tensor]:
        if self._fh is None:
            from workloads.runtime.safeio import open_h5

            self._fh = open_h5(self.file, "qcnn features file (features.hdf5)")
        f = torch.from_numpy(self._fh["features"][idx, :, :self.channels]).T.contiguous()
        x = self.norm(f.float())
        return x, x

    def __getstate__(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["_fh"] = None
        return d


def open_dataset(path: str, cfg: dict[str, Any]) -> MeshFeatures | None:
    if (Path(path) / "meta.json").is_file() and not (Path(path) / "features.hdf5").exists():
        return None  # a generic .npy shard directory
    return MeshFeatures(path, cfg)


def write_dataset(path: str, cfg: dict[str, Any], samples: int, seed: int) -> None:
    """``mesh.hdf5`` (``points`` [P, 3]) and ``features.hdf5`` (``features`` [samples, P, C],
    float32, physical units) under ``path``."""
    import h5py

    out = Path(path)
    out.mkdir(parents=True, exist_ok=True)
    points = make_mesh(cfg)
    fields = FlowFields(points, cfg["in_channels"][0], torch.device("cpu"))
    with h5py.File(out / "mesh.hdf5", "w") as fh:
        fh.create_dataset("points", data=points.numpy())
    gen = torch.Generator()
    with h5py.File(out / "features.hdf5", "w") as fh:
        ds = fh.create_dataset("features", (samples, len(points), fields.channels),
                               dtype="float32", chunks=(1, len(points), fields.channels))
        for s in range(0, samples, 16):
            gen.manual_seed(seed * 1_000_003 + s)
            n = min(16, samples - s)
            ds[s:s + n] = fields(gen, n).transpose(1, 2).numpy()


APP = AppSpec(name="qcnn", build_model=build_model, make_task=make_task, loss_fn=loss_fn,
              sizes=SIZES, default_batch_size=4, tiny_batch_size=2, lr=1e-4,
              open_dataset=open_dataset, write_dataset=write_dataset, recipe=RECIPE,
              source=SOURCE)
