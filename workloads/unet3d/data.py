"""The SC22 tutorial's data: one HDF5 file holding a simulation box, read as random crops.

Layout (NERSC/sc22-dl-tutorial@21ea7dc ``utils/data_loader.py`` ``RandomCropDataset``, the
``lowmem`` loader of ``config/UNet.yaml``'s ``base`` config)::

    FILE.h5
      Nbody  float32 [4, L, L, L]   input: the N-body (dark-matter) fields
      Hydro  float32 [5, L, L, L]   target: the hydrodynamic gas fields

Each sample is a 64^3 crop at a uniformly random corner (``randint(0, L - 64)`` per axis), read
from disk with ``read_direct`` into a buffer, then one of 24 axis permutations / reflections
(the loader's ``RandomRotator``, ``randint(1, 25)``) applied to input and target alike and
copied. All of that happens in ``__getitem__``, that is in the DataLoader's workers, as in the
tutorial: its input-pipeline lesson (the loader, not the GPU, bounds the step) needs it there.
An epoch is ``Nsamples`` crops (65536 in the base config), whatever the box size.

One difference, for resumable runs: the original draws crop and rotation from NumPy's global
generator seeded per worker, so no two runs see the same crops; here they are drawn from a
generator seeded with the sample index, so a resumed run sees the crops the uninterrupted one
saw, and a crop index repeats its crop in later epochs (65536 indices x ~10^9 corners x 24).

``write_dataset`` (``--make-data``) writes a small file in that layout. The tutorial's files
(``downsamp_2048crop_train.h5``, a 1024^3 box: 38.7 GB) are public but not bundled. What the
values look like, and where that comes from:

* the tutorial's ``networks/UNet.py`` undoes the target transform of channel 0 with
  ``exp(14 x)`` and ends in tanh, so the stored fields are normalised into (-1, 1) and the
  density is stored as log(rho)/14;
* a Nyx preprocessing script of the same NERSC group (found in the public code index; its
  repository could not be identified: UNCONFIRMED for the SC22 files) normalises baryon density
  log(rho)/14, velocities v/9e7 (cm/s), temperature log(T)/8 - 1.5, channels in the order
  rho, vx, vy, vz, T; the Nbody file's 4 channels are taken as dark-matter rho, vx, vy, vz;
* the fields are Nyx boxes at z = 3 (Harrington et al. 2021, arXiv:2106.12662). The synthetic
  box here: a Gaussian random field with a k^-2 spectrum, dark-matter density log-normal
  (Coles & Jones 1991) with sigma_ln 1.5, velocities the linear-theory (Zel'dovich) gradient
  field at 150 km/s rms per component, the gas density a Gaussian-smoothed (Jeans-like) copy of
  the dark matter, gas temperature T = 10^4 K x Delta_b^0.5 (the IGM temperature-density
  relation, gamma = 1.5, Hui & Gnedin 1997) with 0.1 dex scatter. The target is thus a smooth
  function of the input, as in the simulations, and the loss falls on it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.utils.data import Dataset

#: names the tutorial's ``config/UNet.yaml`` gives its files, then the one --make-data writes
FILE_NAMES = ("train.h5", "downsamp_2048crop_train.h5")

#: ``RandomRotator`` of the tutorial's loader as (spatial axis order, spatial axes reversed
#: after the transpose); entry k is its ``rand == k + 1``, the last one the identity.
ROTATIONS: tuple[tuple[tuple[int, int, int], tuple[int, ...]], ...] = (
    ((1, 2, 3), (1, 2)), ((1, 2, 3), (1, 3)), ((1, 2, 3), (2, 3)),
    ((2, 1, 3), (1,)), ((2, 1, 3), (1, 3)), ((2, 1, 3), (2,)), ((2, 1, 3), (2, 3)),
    ((3, 2, 1), (1,)), ((3, 2, 1), (1, 2)), ((3, 2, 1), (3,)), ((3, 2, 1), (2, 3)),
    ((1, 3, 2), (2,)), ((1, 3, 2), (1, 2)), ((1, 3, 2), (3,)), ((1, 3, 2), (1, 3)),
    ((2, 3, 1), (1, 2)), ((2, 3, 1), (2, 3)), ((2, 3, 1), (1, 3)), ((2, 3, 1), (1, 2, 3)),
    ((3, 1, 2), (1, 2)), ((3, 1, 2), (1, 3)), ((3, 1, 2), (2, 3)), ((3, 1, 2), (1, 2, 3)),
    ((1, 2, 3), ()),
)


def rotate(x: np.ndarray, k: int) -> np.ndarray:
    """Rotation ``k`` (1..24, the loader's numbering) of a [C, D, H, W] array, as a view."""
    axes, flips = ROTATIONS[k - 1]
    out = x.transpose((0, *axes))
    if flips:
        out = np.flip(out, axis=flips)
    return out


def find_file(path: str | Path) -> Path | None:
    """The HDF5 file ``path`` names: the file itself, or one of :data:`FILE_NAMES` in it."""
    p = Path(path)
    if p.is_file() and p.suffix in (".h5", ".hdf5"):
        return p
    if p.is_dir():
        for name in FILE_NAMES:
            if (p / name).exists() or (p / name).is_symlink():
                return p / name  # the reader refuses what is not a regular file
    return None


class CropDataset(Dataset):
    """Random 3D crops of the ``Nbody``/``Hydro`` box, read and rotated in ``__getitem__``."""

    def __init__(self, fname: str | Path, size: int, samples: int, in_channels: int = 4,
                 out_channels: int = 5) -> None:
        from workloads.runtime.safeio import (
            InputError,
            check_samples,
            h5_dataset,
            h5_has,
            open_h5,
        )

        self.fname = str(fname)
        self.size = size
        with open_h5(self.fname, "SC22 crop file (.h5)") as f:  # closed before workers fork
            for name in ("Nbody", "Hydro"):
                if not h5_has(f, fname, name):
                    raise InputError(f"{fname}: no {name!r} dataset; not an SC22 crop file "
                                     "(write one with --make-data)")
            nbody = h5_dataset(f, fname, "Nbody", ndim=4, kinds="f").shape
            hydro = h5_dataset(f, fname, "Hydro", ndim=4, kinds="f").shape
            declared = f.attrs.get("samples", samples)
            if isinstance(declared, np.ndarray | np.generic):
                declared = declared.item() if declared.size == 1 else declared.tolist()
            self.samples = check_samples(fname, "attribute 'samples'", declared)
        if nbody[0] != in_channels or hydro[0] != out_channels or nbody[1:] != hydro[1:] \
                or len(set(nbody[1:])) != 1:
            raise InputError(f"{fname}: Nbody {nbody} / Hydro {hydro}; the model takes "
                             f"[{in_channels}, L, L, L] -> [{out_channels}, L, L, L]")
        self.length = int(nbody[1])
        if self.length <= size:
            raise InputError(f"{fname}: a {self.length}^3 box is too small for {size}^3 crops")
        self.file: Any = None
        self.inp_buff = np.zeros((in_channels, size, size, size), dtype=np.float32)
        self.tar_buff = np.zeros((out_channels, size, size, size), dtype=np.float32)

    def __len__(self) -> int:
        return self.samples

    def crop_of(self, idx: int) -> tuple[int, int, int, int]:
        """Sample ``idx``'s crop corner (x, y, z) and rotation (1..24), drawn as the original
        draws them (``randint(0, L - size)`` per axis, then ``randint(1, 25)``)."""
        rng = np.random.default_rng((0x5C22, int(idx)))
        x, y, z = (int(v) for v in rng.integers(0, self.length - self.size, size=3))
        return x, y, z, int(rng.integers(1, 25))

    def __getitem__(self, idx: int) -> tuple[torch.Tensor, torch.Tensor]:
        if self.file is None:  # opened in each worker, as the original's _open_file
            from workloads.runtime.safeio import open_h5

            self.file = open_h5(self.fname, "SC22 crop file (.h5)")
        x, y, z, k = self.crop_of(idx)
        s = self.size
        ci, co = self.inp_buff.shape[0], self.tar_buff.shape[0]
        self.file["Nbody"].read_direct(self.inp_buff, np.s_[0:ci, x:x + s, y:y + s, z:z + s],
                                       np.s_[0:ci, 0:s, 0:s, 0:s])
        self.file["Hydro"].read_direct(self.tar_buff, np.s_[0:co, x:x + s, y:y + s, z:z + s],
                                       np.s_[0:co, 0:s, 0:s, 0:s])
        inp = np.copy(rotate(self.inp_buff, k))
        tar = np.copy(rotate(self.tar_buff, k))
        return torch.as_tensor(inp), torch.as_tensor(tar)

    def __getstate__(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["file"] = None
        return d


def open_dataset(path: str, cfg: dict[str, Any]) -> Dataset | None:
    """The crop dataset of the SC22 file at ``path`` (a file, or a directory holding one);
    None for a directory of the runtime's generic .npy shards."""
    fname = find_file(path)
    if fname is None:
        if (Path(path) / "meta.json").is_file():
            return None
        from workloads.runtime.safeio import InputError

        raise InputError(f"{path}: no SC22 HDF5 file (looked for {', '.join(FILE_NAMES)});"
                                " write one with --make-data")
    return CropDataset(fname, cfg["size"], cfg["samples_per_epoch"], cfg["in_channels"],
                       cfg["out_channels"])


# ----------------------------------------------------------------------------- make-data

def _gaussian_field(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """A unit-variance Gaussian random field with a k^-2 spectrum, and its Fourier transform."""
    k = np.fft.fftfreq(n) * n
    kx, ky, kz = np.meshgrid(k, k, k[: n // 2 + 1], indexing="ij")
    k2 = kx**2 + ky**2 + kz**2
    k2[0, 0, 0] = 1.0
    amp = 1.0 / np.sqrt(k2)  # sqrt of P(k) ~ k^-2
    amp[0, 0, 0] = 0.0
    noise = np.fft.rfftn(rng.standard_normal((n, n, n)))
    dk = noise * amp
    delta = np.fft.irfftn(dk, s=(n, n, n), axes=(0, 1, 2))
    scale = delta.std()
    return delta / scale, dk / scale


def _smooth(field: np.ndarray, cells: float) -> np.ndarray:
    n = field.shape[0]
    k = np.fft.fftfreq(n) * 2 * np.pi
    kx, ky, kz = np.meshgrid(k, k, k[: n // 2 + 1], indexing="ij")
    kernel = np.exp(-0.5 * (kx**2 + ky**2 + kz**2) * cells**2)
    return np.fft.irfftn(np.fft.rfftn(field) * kernel, s=field.shape, axes=(0, 1, 2))


def synthetic_box(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(Nbody [4, n, n, n], Hydro [5, n, n, n]) float32, normalised as the tutorial's files."""
    rng = np.random.default_rng(seed)
    delta, dk = _gaussian_field(rng, n)
    sigma = 1.5  # log-normal dark-matter density (units of the mean)
    log_dm = sigma * delta - sigma**2 / 2
    # linear theory: v(k) ~ i k / k^2 delta(k); 1.5e7 cm/s (150 km/s) rms per component
    k = np.fft.fftfreq(n) * n
    kx, ky, kz = np.meshgrid(k, k, k[: n // 2 + 1], indexing="ij")
    k2 = kx**2 + ky**2 + kz**2
    k2[0, 0, 0] = 1.0
    vel = []
    for ki in (kx, ky, kz):
        v = np.fft.irfftn(1j * ki / k2 * dk, s=(n, n, n), axes=(0, 1, 2))
        vel.append(v / v.std() * 1.5e7)
    # gas: the dark matter smoothed over ~1.5 cells (pressure smoothing)
    log_gas = np.log(np.maximum(_smooth(np.exp(log_dm), 1.5), 1e-6))
    gas_vel = [_smooth(v, 1.5) for v in vel]
    log_t = np.log(1e4) + 0.5 * log_gas + 0.1 * np.log(10) * rng.standard_normal((n, n, n))
    nbody = np.stack([log_dm / 14, *(v / 9e7 for v in vel)])
    hydro = np.stack([log_gas / 14, *(v / 9e7 for v in gas_vel), log_t / 8 - 1.5])
    return nbody.astype(np.float32), hydro.astype(np.float32)


def write_dataset(path: str, cfg: dict[str, Any], samples: int, seed: int) -> Path:
    """Write an SC22 crop file (``PATH/train.h5``, or PATH itself when it ends in .h5): a
    ``make_data_box``^3 synthetic box, ``samples`` crops an epoch (kept in the file's
    ``samples`` attribute; the tutorial's files have none and take it from the config)."""
    import h5py

    p = Path(path)
    fname = p if p.suffix in (".h5", ".hdf5") else p / FILE_NAMES[0]
    fname.parent.mkdir(parents=True, exist_ok=True)
    n = int(cfg["make_data_box"])
    if n <= cfg["size"]:
        raise ValueError(f"make_data_box {n} must exceed the crop size {cfg['size']}")
    nbody, hydro = synthetic_box(n, seed)
    nbody, hydro = nbody[: cfg["in_channels"]], hydro[: cfg["out_channels"]]
    tmp = fname.with_name(fname.name + ".tmp")
    with h5py.File(tmp, "w") as f:
        f.create_dataset("Nbody", data=nbody)
        f.create_dataset("Hydro", data=hydro)
        f.attrs["samples"] = int(samples)
        f.attrs["written_by"] = "workloads.unet3d --make-data (synthetic, see data.py)"
    tmp.replace(fname)
    return fname
