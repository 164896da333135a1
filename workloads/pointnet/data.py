"""ShapeNet part data for PointNet: the original's HDF5 files, a synthetic stand-in, the task.

The original's ``part_seg/train.py`` (charlesq34/pointnet@2618f72) reads ``hdf5_data/``: the
files named in ``train_hdf5_file_list.txt``, each with ``data`` [n, 2048, 3] (xyz),
``label`` [n, 1] (object category 0..15) and ``pid`` [n, 2048] (part id 0..49), through
``provider.load_h5_data_label_seg``; ``all_object_categories.txt`` (name and ShapeNet synset a
line), ``overallid_to_catid_partid.json`` (one entry per part: 50), ``part_color_mapping.json``
(an RGB colour per part) and ``val_hdf5_file_list.txt`` (the validation files) beside them.
The object category enters the network as a 16-way one-hot. No augmentation in part
segmentation training. The dtypes written here (float32 / uint8 / uint8) are UNCONFIRMED for
the published files (``shapenet_part_seg_hdf5_data.zip``, not bundled); the reader casts
whatever it finds.

Class balance (shapes per category) and parts per category: the PointNet paper's part
segmentation table (Qi et al. 2017, arXiv:1612.00593, Table 2); the counts sum to 16,881, the
``DECAY_STEP = 16881 * 20`` of part_seg/train.py. Part ids are numbered category by category in
this order (Airplane 0-3 ... Table 47-49), as the ShapeNet part loaders that ship the table of
part ids per category have them.

Synthetic shapes (``--make-data`` files and the on-device task alike): an object of category c
is a stack of as many ellipsoid shells as c has parts along the vertical axis, part k the k-th
shell, with random radii and a category-dependent width; its points lie on the shells, centred
and scaled into the unit sphere (the normalisation of the ShapeNet part point clouds). A point's
part is a function of the shape's geometry, so the loss falls.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.utils.data import Dataset

from workloads.runtime.spec import Task

#: (name, ShapeNet synset, shapes, parts) in the original's category order
CATEGORIES: tuple[tuple[str, str, int, int], ...] = (
    ("Airplane", "02691156", 2690, 4), ("Bag", "02773838", 76, 2), ("Cap", "02954340", 55, 2),
    ("Car", "02958343", 898, 4), ("Chair", "03001627", 3758, 4),
    ("Earphone", "03261776", 69, 3), ("Guitar", "03467517", 787, 3),
    ("Knife", "03624134", 392, 2), ("Lamp", "03636649", 1547, 4),
    ("Laptop", "03642806", 451, 2), ("Motorbike", "03790512", 202, 6),
    ("Mug", "03797390", 184, 2), ("Pistol", "03948459", 283, 3),
    ("Rocket", "04099429", 66, 3), ("Skateboard", "04225987", 152, 3),
    ("Table", "04379243", 5271, 3),
)
NPARTS = [c[3] for c in CATEGORIES]
OFFSETS = [sum(NPARTS[:i]) for i in range(len(NPARTS))]
assert sum(NPARTS) == 50 and sum(c[2] for c in CATEGORIES) == 16881
SHAPES_PER_FILE = 2048  # ply_data_train0.h5 ... hold 2048 shapes each
LIST_FILE = "train_hdf5_file_list.txt"
#: the list names at most this many files (the published one names 6; make-data one per 2048)
MAX_FILES = 4096
VAL_LIST_FILE = "val_hdf5_file_list.txt"


def sample_shapes(gen: torch.Generator, n: int, npts: int, device: torch.device
                  ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(points [n, npts, 3] in the unit sphere, category [n], part id [n, npts])."""
    weights = torch.tensor([c[2] for c in CATEGORIES], dtype=torch.float, device=device)
    cat = torch.multinomial(weights, n, replacement=True, generator=gen)
    nparts = torch.tensor(NPARTS, device=device)[cat]  # [n]
    offsets = torch.tensor(OFFSETS, device=device)[cat]
    u = torch.rand((n, npts), generator=gen, device=device)
    part = (u * nparts[:, None]).long().clamp(max=5)  # [n, npts], within the category
    k = torch.arange(6, device=device)
    ncol = nparts[:, None].float()
    cy = -1 + (2 * k[None, :] + 1) / ncol  # shell centres along y, [n, 6]
    width = 0.25 + 0.05 * cat.float()  # category-dependent width
    radii = torch.rand((n, 6, 3), generator=gen, device=device) * 0.5 + 0.5
    radii = radii * torch.stack([width[:, None].expand(-1, 6), 1 / ncol.expand(-1, 6),
                                 0.8 * width[:, None].expand(-1, 6)], dim=2)
    idx = part[:, :, None].expand(-1, -1, 3)
    r = torch.gather(radii, 1, idx)  # [n, npts, 3]
    d = torch.randn((n, npts, 3), generator=gen, device=device)
    d = d / d.norm(dim=2, keepdim=True).clamp(min=1e-6)
    pts = r * d
    pts[:, :, 1] += torch.gather(cy, 1, part)
    pts = pts - pts.mean(dim=1, keepdim=True)
    pts = pts / pts.norm(dim=2).amax(dim=1)[:, None, None]
    return pts, cat, offsets[:, None] + part


def to_input(pts: torch.Tensor, cat: torch.Tensor, cfg: dict[str, Any]) -> torch.Tensor:
    """[n, N, 3] points (+ categories) -> the model's [n, 3 (+ 16), N] channels-first input."""
    x = pts.transpose(1, 2)
    if cfg["variant"] != "part_seg":
        return x.contiguous()
    onehot = torch.nn.functional.one_hot(cat, cfg["categories"]).to(pts.dtype)
    return torch.cat([x, onehot[:, :, None].expand(-1, -1, pts.shape[1])], dim=1)


def make_task(cfg: dict[str, Any], device: torch.device) -> Task:
    def task(gen: torch.Generator, n: int) -> tuple[torch.Tensor, torch.Tensor]:
        pts, cat, pid = sample_shapes(gen, n, cfg["points"], device)
        return to_input(pts, cat, cfg), pid

    return task


# ----------------------------------------------------------------------------- HDF5 files

class ShapeNetPartDataset(Dataset):
    """Samples of the files listed in ``train_hdf5_file_list.txt`` (or one .h5 file), read in
    the DataLoader's workers; the first ``points`` points of each shape."""

    def __init__(self, files: list[Path], cfg: dict[str, Any]) -> None:
        from workloads.runtime.safeio import InputError, check_samples, h5_dataset, h5_read, open_h5

        self.files = [str(f) for f in files]
        self.cfg = {k: cfg[k] for k in ("variant", "categories", "points")}
        parts = int(cfg.get("parts", 50))
        self.offsets = [0]
        for f in self.files:
            with open_h5(f, "ShapeNet part file (.h5)") as h:
                data = h5_dataset(h, f, "data", ndim=3, kinds="fiu")
                label = h5_dataset(h, f, "label", kinds="iu")
                pid = h5_dataset(h, f, "pid", ndim=2, kinds="iu")
                n, npts, three = data.shape
                if three != 3 or npts < cfg["points"]:
                    raise InputError(f"{f}: field 'data' has shape {data.shape}; expected "
                                     f"[N, >= {cfg['points']}, 3] (xyz points)")
                if label.ndim not in (1, 2) or label.shape[0] != n or pid.shape[0] != n \
                        or pid.shape[1] < cfg["points"]:
                    raise InputError(f"{f}: fields 'label' {label.shape} and 'pid' {pid.shape};"
                                     f" expected [{n}, 1] and [{n}, >= {cfg['points']}]")
                labels = h5_read(label, f, "label")
                if n and (int(labels.min()) < 0 or int(labels.max()) >= cfg["categories"]):
                    raise InputError(f"{f}: field 'label' holds {int(labels.max())}; expected "
                                     f"categories 0 to {cfg['categories'] - 1}")
                ids = h5_read(pid, f, "pid")
                if n and (int(ids.min()) < 0 or int(ids.max()) >= parts):
                    raise InputError(f"{f}: field 'pid' holds {int(ids.max())}; expected part "
                                     f"ids 0 to {parts - 1}")
            self.offsets.append(self.offsets[-1] + n)
            check_samples(f, "the files' shapes", self.offsets[-1])
        self._open: dict[int, Any] = {}

    def __len__(self) -> int:
        return self.offsets[-1]

    def __getitem__(self, idx: int) -> tuple[torch.Tensor, torch.Tensor]:
        import bisect

        k = bisect.bisect_right(self.offsets, idx) - 1
        h = self._open.get(k)
        if h is None:  # opened in each worker
            from workloads.runtime.safeio import open_h5

            h = self._open[k] = open_h5(self.files[k], "ShapeNet part file (.h5)")
        j, npts = idx - self.offsets[k], self.cfg["points"]
        pts = torch.from_numpy(np.asarray(h["data"][j, :npts], dtype=np.float32))
        cat = torch.tensor([int(h["label"][j, 0])])
        pid = torch.from_numpy(np.asarray(h["pid"][j, :npts], dtype=np.int64))
        return to_input(pts[None], cat, self.cfg)[0], pid

    def __getstate__(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["_open"] = {}
        return d


def open_dataset(path: str, cfg: dict[str, Any]) -> Dataset | None:
    """The ShapeNet part files at ``path``: a directory with ``train_hdf5_file_list.txt`` (the
    original's ``hdf5_data``) or one .h5 file; None for the runtime's generic .npy shards."""
    p = Path(path)
    if p.is_file() and p.suffix in (".h5", ".hdf5"):
        return ShapeNetPartDataset([p], cfg)
    if (p / LIST_FILE).exists():
        from workloads.runtime.safeio import InputError, read_bytes

        raw = read_bytes(p / LIST_FILE, "list of .h5 files", 1 << 20)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{p / LIST_FILE}: not UTF-8 text; expected one .h5 file name "
                             "a line") from None
        names = [ln.strip() for ln in text.splitlines() if ln.strip()]
        # the list may carry the original's relative paths: take the names beside it
        files = [p / Path(n).name for n in names]
        if not files or len(set(files)) != len(files) or len(files) > MAX_FILES:
            raise InputError(f"{p / LIST_FILE}: {len(files)} names, {len(set(files))} distinct;"
                             f" expected 1 to {MAX_FILES} distinct .h5 file names")
        return ShapeNetPartDataset(files, cfg)
    if (p / "meta.json").is_file():
        return None
    raise FileNotFoundError(f"{path}: no {LIST_FILE} or .h5 file of ShapeNet part data; "
                            "write one with --make-data")


def write_dataset(path: str, cfg: dict[str, Any], samples: int, seed: int) -> Path:
    """Write ``samples`` synthetic shapes as the original's ``hdf5_data`` directory."""
    import h5py

    out = Path(path)
    out.mkdir(parents=True, exist_ok=True)
    npts = max(int(cfg["points"]), 2048)  # the published files hold 2048 points a shape
    gen = torch.Generator().manual_seed(seed)
    # train.py opens both lists (TRAINING_FILE_LIST, TESTING_FILE_LIST: lines 67-68, 190-191);
    # the validation shapes are a tenth as many, drawn after the training ones
    for split, count, listing in (("train", samples, LIST_FILE),
                                  ("val", max(samples // 10, 1), VAL_LIST_FILE)):
        names = []
        for k, lo in enumerate(range(0, count, SHAPES_PER_FILE)):
            n = min(SHAPES_PER_FILE, count - lo)
            pts, cat, pid = sample_shapes(gen, n, npts, torch.device("cpu"))
            name = f"ply_data_{split}{k}.h5"
            with h5py.File(out / name, "w") as h:
                h.create_dataset("data", data=pts.numpy().astype(np.float32))
                h.create_dataset("label", data=cat.numpy().astype(np.uint8)[:, None])
                h.create_dataset("pid", data=pid.numpy().astype(np.uint8))
            names.append(name)
        (out / listing).write_text("".join(f"{n}\n" for n in names))
    # train.py lines 35-36 json.load it; test.py lines 61-66 write color_map[part id] as three
    # floats: one [r, g, b] in [0, 1] per part (the published colours: UNCONFIRMED, the
    # file is in shapenet_part_seg_hdf5_data.zip, not bundled)
    colours = [[round(0.5 + 0.5 * math.cos(2 * math.pi * (i / 50 + j / 3)), 4)
                for j in range(3)] for i in range(sum(NPARTS))]
    (out / "part_color_mapping.json").write_text(json.dumps(colours) + "\n")
    (out / "all_object_categories.txt").write_text(
        "".join(f"{name}\t{synset}\n" for name, synset, _, _ in CATEGORIES))
    overall = [[synset, str(i + 1)] for name, synset, _, parts in CATEGORIES
               for i in range(parts)]
    (out / "overallid_to_catid_partid.json").write_text(json.dumps(overall) + "\n")
    return out
