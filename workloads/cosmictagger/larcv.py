"""CosmicTagger's data format: larcv3 HDF5 files of sparse 2D tensors, read and written with
h5py.

The layout is larcv3's (DeepLearnPhysics/larcv3, ``src/larcv3/core/dataformat/``:
``IOManager.cxx``, ``EventSparseTensor.cxx``, ``ImageMeta.cxx``, ``schema.md``) as the
original's example file (coreyjadams/CosmicTagger @156c480
``example_data/cosmic_tagging_light.h5``) holds it: ``/Events/event_id`` (run, subrun, event)
and, per product, ``/Data/sparse2d_<producer>_group/`` with ``extents`` (per event: first row
and count in ``voxel_extents``/``image_meta``), ``voxel_extents`` (per plane: first row and
count in ``voxels``, projection ID), ``image_meta`` (per plane: valid, projection ID, sizes,
number of voxels, origin) and ``voxels`` (id, value); the same compound types, chunk sizes and
gzip compression. A voxel id is ``x * n_y + y`` (``ImageMeta::index``: the last coordinate
varies fastest), x the wire (``FULL_WIDTH`` of them), y the time tick.

The images are producer ``sbndwire`` (ADC), the labels ``sbnd_cosmicseg`` (0 background, 1
cosmic, 2 neutrino on every hit pixel), as the original's fetcher reads them
(``src/utils/core/larcvio/larcv_fetcher.py``): each downsampled by 2**downsample with larcv3's
``Downsample`` (image: average, label: max; ``SparseTensor::compress`` in ``Voxel.cxx``),
filled with at most ``MAX_VOXELS`` voxels per plane (``BatchFillerSparseTensor2D``) and made
dense (``data_transforms.larcvsparse_to_dense_2d``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.utils.data import Dataset

IMAGE, LABEL = "sbndwire", "sbnd_cosmicseg"
MAX_VOXELS = 50_000
FILE_NAME = "cosmic_tagging_synthetic.h5"
# The compound types of the example file (larcv3's HDF5 datatypes), field for field.
EXTENTS = np.dtype({"names": ["first", "N"], "formats": ["<u8", "<u4"], "offsets": [0, 8],
                    "itemsize": 16})
ID_EXTENTS = np.dtype([("first", "<u8"), ("N", "<u4"), ("ID", "<u4")])
IMAGE_META = np.dtype({"names": ["valid", "projection_id", "image_sizes", "number_of_voxels",
                                 "origin"],
                       "formats": ["u1", "<u8", ("<f8", (2,)), ("<u8", (2,)), ("<f8", (2,))],
                       "offsets": [0, 8, 16, 32, 48], "itemsize": 72})
VOXEL = np.dtype({"names": ["id", "value"], "formats": ["<u8", "<f4"], "offsets": [0, 8],
                  "itemsize": 16})
EVENT_ID = np.dtype([("run", "<i8"), ("subrun", "<i8"), ("event", "<i8")])
#: (dataset, dtype, chunk) per sparse2d group, as larcv3 creates them
DATASETS = (("extents", EXTENTS, 10), ("image_meta", IMAGE_META, 100),
            ("voxel_extents", ID_EXTENTS, 100), ("voxels", VOXEL, 1000))


def _h5py() -> Any:
    try:
        import h5py
    except ImportError as e:  # pragma: no cover - h5py is in the workloads extra
        raise SystemExit("cosmictagger: reading larcv3 files needs h5py "
                         "(pip install 'jobgen[workloads]' or pip install h5py)") from e
    return h5py


# ---------------------------------------------------------------- writing
def _create(h5: Any) -> None:
    h5.create_dataset("Events/event_id", (0,), EVENT_ID, maxshape=(None,), chunks=(100,),
                      compression="gzip")
    for producer in (IMAGE, LABEL):
        for name, dtype, chunk in DATASETS:
            h5.create_dataset(f"Data/sparse2d_{producer}_group/{name}", (0,), dtype,
                              maxshape=(None,), chunks=(chunk,), compression="gzip")


def _append(ds: Any, rows: np.ndarray) -> int:
    first = ds.shape[0]
    ds.resize((first + len(rows),))
    ds[first:] = rows
    return first


def _append_event(h5: Any, event: int, adc: np.ndarray, label: np.ndarray) -> None:
    """One event (adc, label: [planes, n_y, n_x] at full resolution) as two sparse2d
    products with the same voxels (the label product holds every hit pixel's label)."""
    planes, n_y, n_x = adc.shape
    _append(h5["Events/event_id"], np.array([(0, 0, event)], EVENT_ID))
    per_plane = []
    for p in range(planes):
        y, x = np.nonzero(adc[p])
        ids = x.astype(np.uint64) * n_y + y.astype(np.uint64)
        order = np.argsort(ids, kind="stable")
        per_plane.append((ids[order], adc[p][y, x][order], label[p][y, x][order]))
    for producer, col in ((IMAGE, 1), (LABEL, 2)):
        g = h5[f"Data/sparse2d_{producer}_group"]
        meta = np.zeros(planes, IMAGE_META)
        extents = np.zeros(planes, ID_EXTENTS)
        for p, plane in enumerate(per_plane):
            vox = np.zeros(len(plane[0]), VOXEL)
            vox["id"], vox["value"] = plane[0], plane[col]
            extents[p] = (_append(g["voxels"], vox), len(vox), p)
            meta[p] = (1, p, (n_x, n_y), (n_x, n_y), (0.0, 0.0))
        first = _append(g["voxel_extents"], extents)
        _append(g["image_meta"], meta)
        _append(g["extents"], np.array([(first, planes)], EXTENTS))


def write_events(path: str | os.PathLike[str], cfg: dict[str, Any], samples: int,
                 seed: int, chunk: int = 2) -> Path:
    """``samples`` synthetic events (``events.py``) at the full resolution of ``cfg`` into
    ``path``/``FILE_NAME`` (``path`` may also name the .h5 file itself)."""
    from workloads.cosmictagger import events
    from workloads.runtime.data import mix_seed

    out = Path(path)
    if out.suffix not in (".h5", ".hdf5"):
        out.mkdir(parents=True, exist_ok=True)
        out = out / FILE_NAME
    gen = torch.Generator()
    with _h5py().File(out, "w") as h5:
        _create(h5)
        for c, lo in enumerate(range(0, samples, chunk)):
            gen.manual_seed(mix_seed(seed, 2_000_000, c))
            adc, label = events.render(gen, min(chunk, samples - lo), cfg, torch.device("cpu"))
            for k in range(len(adc)):
                _append_event(h5, lo + k, adc[k].numpy(), label[k].numpy())
    return out


# ---------------------------------------------------------------- reading
def _files(path: str | os.PathLike[str]) -> list[Path]:
    from workloads.runtime.safeio import InputError, is_regular

    p = Path(path)
    if is_regular(p):
        return [p]
    files = sorted(p.glob("*.h5")) + sorted(p.glob("*.hdf5")) if p.is_dir() else []
    if not files:
        raise InputError(f"{p}: no larcv3 .h5 files; write some with make-data "
                         "(cosmictagger's format) or use --data synthetic")
    return files


def _downsample(ids: np.ndarray, values: np.ndarray, n_y: int, factor: int,
                pool: str) -> tuple[np.ndarray, np.ndarray]:
    """larcv3 ``SparseTensor::compress``: voxel ids at 1/factor resolution (sorted), values
    averaged (sum / factor^2) or maxed."""
    if factor == 1:
        return ids, values
    x, y = ids // n_y, ids % n_y
    new = (x // factor) * (n_y // factor) + y // factor
    uniq, inv = np.unique(new, return_inverse=True)
    if pool == "average":
        out = np.bincount(inv, weights=values, minlength=len(uniq)) / factor**2
    else:
        out = np.full(len(uniq), -np.inf)
        np.maximum.at(out, inv, values)
    return uniq, out.astype(np.float32)


class LarcvDataset(Dataset):
    """Events from larcv3 files, dense at the network's resolution: x [planes, H, W] float32
    (ADC), y [planes, H, W] int64 (labels), as the original's fetcher hands them over."""

    def __init__(self, path: str | os.PathLike[str], cfg: dict[str, Any]) -> None:
        self.files = _files(path)
        self.cfg = cfg
        self.factor = 2 ** cfg["downsample"]
        self.shape = (cfg["planes"], cfg["height"], cfg["width"])
        # events of file k are offsets[k] .. offsets[k+1]-1 (no per-event list: a file may
        # declare 10^9 of them)
        self.offsets = [0]
        from workloads.runtime.safeio import check_samples, open_h5

        _h5py()
        for f in self.files:
            with open_h5(f, "larcv3 file (.h5)") as h5:
                n = self._check(f, h5)
            self.offsets.append(self.offsets[-1] + n)
            check_samples(f, "its events (extents)", self.offsets[-1])
        self._open: dict[int, Any] = {}
        self._pid = -1

    def _check(self, f: Path, h5: Any) -> int:
        """The number of events of a file whose every field is larcv3's, stored in the file."""
        from workloads.runtime.safeio import InputError, h5_dataset, h5_has, h5_read

        counts = set()
        for producer in (IMAGE, LABEL):
            if not h5_has(h5, f, f"Data/sparse2d_{producer}_group"):
                raise InputError(f"{f}: no sparse2d '{producer}' product: not CosmicTagger data")
            for name, dtype, _ in DATASETS:
                field = f"Data/sparse2d_{producer}_group/{name}"
                ds = h5_dataset(h5, f, field, ndim=1, kinds="V")
                if ds.dtype.names != dtype.names or any(
                        ds.dtype.fields[k][0] != dtype.fields[k][0] for k in dtype.names):
                    raise InputError(f"{f}: field {field!r} has dtype {ds.dtype}, expected "
                                     f"larcv3's {dtype}")
            counts.add(h5[f"Data/sparse2d_{producer}_group/extents"].shape[0])
        if len(counts) != 1:
            raise InputError(f"{f}: the image and label products hold {sorted(counts)} events;"
                             " expected the same number")
        meta = h5[f"Data/sparse2d_{IMAGE}_group/image_meta"]
        if meta.shape[0]:
            first = h5_read(meta, f, f"Data/sparse2d_{IMAGE}_group/image_meta", np.s_[0:1])[0]
            n_x, n_y = (int(v) for v in first["number_of_voxels"])
            want = (self.cfg["full_width"], self.cfg["full_height"])
            if (n_x, n_y) != want:
                raise InputError(f"{f}: planes of {n_y}x{n_x}, the configuration expects "
                                 f"{want[1]}x{want[0]}; write data for this --config")
        return counts.pop()

    def __len__(self) -> int:
        return self.offsets[-1]

    def _file(self, k: int) -> Any:
        if self._pid != os.getpid():  # h5py handles do not survive fork: one per worker
            self._open, self._pid = {}, os.getpid()
        if k not in self._open:
            from workloads.runtime.safeio import open_h5

            self._open[k] = open_h5(self.files[k], "larcv3 file (.h5)")
        return self._open[k]

    def _plane_voxels(self, g: Any, event: int) -> list[tuple[int, np.ndarray, np.ndarray, int]]:
        first, n = (int(v) for v in g["extents"][event])
        ext = g["voxel_extents"][first:first + n]
        meta = g["image_meta"][first:first + n]
        out = []
        for e, m in zip(ext, meta, strict=True):
            vox = g["voxels"][int(e["first"]):int(e["first"]) + int(e["N"])]
            out.append((int(e["ID"]), vox["id"], vox["value"], int(m["number_of_voxels"][1])))
        return out

    def _dense(self, g: Any, event: int, pool: str) -> np.ndarray:
        planes, h, w = self.shape
        out = np.zeros((planes, h, w), np.float32)
        for plane, ids, values, n_y in self._plane_voxels(g, event):
            if plane >= planes:
                continue
            if n_y < self.factor or len(ids) and int(ids.max()) >= n_y * w * self.factor:
                from workloads.runtime.safeio import InputError

                raise InputError(f"event {event}: voxel ids past its {n_y}-tick plane in "
                                 f"{g.name}; expected ids below {n_y * w * self.factor}")
            ids, values = _downsample(ids.astype(np.int64), values.astype(np.float64), n_y,
                                      self.factor, pool)
            ids, values = ids[:MAX_VOXELS], values[:MAX_VOXELS]
            n_y_ds = n_y // self.factor
            out[plane, ids % n_y_ds, ids // n_y_ds] = values
        return out

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        import bisect

        k = bisect.bisect_right(self.offsets, i) - 1
        event = i - self.offsets[k]
        h5 = self._file(k)
        from workloads.runtime.safeio import InputError

        try:
            x = self._dense(h5[f"Data/sparse2d_{IMAGE}_group"], event, "average")
            y = self._dense(h5[f"Data/sparse2d_{LABEL}_group"], event, "max")
        except InputError as exc:
            raise InputError(f"{self.files[k]}: {exc}") from None
        return torch.from_numpy(x), torch.from_numpy(y.astype(np.int64))

    def __getstate__(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["_open"], d["_pid"] = {}, -1
        return d
