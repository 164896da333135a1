"""Flood-filling network (google/ffn ``convstack_3d``) with its training loop's field-of-view
(FOV) movement and prediction feedback, in PyTorch.

Network (``convstack_3d._predict_object_mask``, ``depth=9``, ``features=32``): conv0_a (3^3,
ReLU), conv0_b (3^3), ``depth - 1`` residual modules (ReLU, conv 3^3 + ReLU, conv 3^3, + input),
ReLU, 1x1 ``conv_lom``; input: the normalised image and the seed, both ``fov^3``. The network
predicts an update that is added to the seed (``update_seed``): the output logits are
``seed + update``. Weights are initialised as tf_slim does (Glorot uniform, zero biases).

Training example (train.py, ``examples.get_example`` and ``fixed_offsets``): a training patch
of ``fov + 2 * deltas`` voxels per side around a coordinate inside an object, labels softened
to 0.95 inside the centre voxel's object and 0.05 elsewhere, randomly permuted (y/x) and
reflected; the seed canvas starts at logit(0.05) with logit(0.95) at the centre. The FOV
visits the centre, then each of the 26 moves of +-deltas (one fixed shuffled order per run)
whose target voxel's canvas logit reached logit(0.9); every visit is one optimizer step and its
prediction is written back into the canvas, so later steps see earlier predictions. When a
batch slot's moves are exhausted it takes the next training patch. ``--fov-policy
max_pred_moves`` (config ``fov_policy``) runs train.py's other policy instead
(``examples.max_pred_offsets``, in :mod:`workloads.ffn.moves`), on a patch of ``fov + 2 * deltas
* (fov_moves + 1)``; ``--fov-moves`` (``fov_moves``) sizes the patch as train.py does.

Here the whole example builder runs on the device inside the model (:class:`FFNTrainer`):
the data source hands it candidate training patches (image + soft labels) each step, and a
batch slot takes one only when its current example is done. Its state (canvas, patch, move
cursor) is per rank: buffers DDP leaves alone, outside the state dict, saved in each rank's own
checkpoint file (``rank_state``), so a resumed run continues the same examples. The model
returns the FOV's logits and the FOV's soft labels; :func:`loss_fn` is train.py's weighted
sigmoid cross-entropy (weights 1).

Data: train.py reads an HDF5 image volume (uint8) and an HDF5 label volume (int64) and
samples coordinates from a TFRecord; ``make-data`` writes the two HDF5 volumes as the README's
example names them and the coordinates in an HDF5 file (not a TFRecord), sampled uniformly
among voxels at least ``fov // 2 + deltas`` from the border (``build_coordinates.py`` balances
them over label-fraction partitions instead: not reproduced). Synthetic volumes: a jittered
Voronoi partition (objects), dark membranes where two objects meet, a brightness per object,
noise; ``--data synthetic`` draws its patches from a pool of ``config.POOL`` rendered before
the first step (:class:`PatchPool`), as train.py's examples come from fixed volumes through an
input queue off the training step (rendering new volumes in each step cost ~7% of the
default step on 2 CPU cores: docs/benchmarks.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from workloads.ffn.config import (
    DEFAULT_BATCH_SIZE,
    IMAGE_MEAN,
    IMAGE_STDDEV,
    LABEL_SOFTNESS,
    LR,
    MOVE_THRESHOLD,
    NAME,
    POOL,
    POOL_SEED,
    RECIPE,
    SEED_CENTER,
    SEED_PAD,
    SIZES,
    SOURCE,
    TINY_BATCH_SIZE,
    fov_policy,
    logit,
    patch_size,
)
from workloads.ffn.moves import STATE as MOVES_STATE
from workloads.ffn.moves import MaxPredMoves
from workloads.runtime.spec import AppSpec, Task


# ----------------------------------------------------------------------------- the network
def _conv(cin: int, cout: int, k: int) -> nn.Conv3d:
    conv = nn.Conv3d(cin, cout, k, padding=k // 2)
    nn.init.xavier_uniform_(conv.weight)  # tf_slim.convolution3d's default initialisers
    nn.init.zeros_(conv.bias)
    return conv


class Residual(nn.Module):
    def __init__(self, c: int) -> None:
        super().__init__()
        self.conv_a = _conv(c, c, 3)
        self.conv_b = _conv(c, c, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.conv_b(F.relu(self.conv_a(F.relu(x))))


class ConvStack3D(nn.Module):
    """``_predict_object_mask``: the logit update for a ``[B, 2, fov, fov, fov]`` input
    (channel 0 the image, channel 1 the seed)."""

    def __init__(self, depth: int, features: int) -> None:
        super().__init__()
        self.conv0_a = _conv(2, features, 3)
        self.conv0_b = _conv(features, features, 3)
        self.residual = nn.Sequential(*[Residual(features) for _ in range(1, depth)])
        self.conv_lom = _conv(features, 1, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        net = self.conv0_b(F.relu(self.conv0_a(x)))
        return self.conv_lom(F.relu(self.residual(net)))


class FOVState(nn.Module):
    """Per batch slot: the seed canvas (logits), the training patch (normalised image and soft
    labels) and the index of the next move to try ('fixed'), or the move queue and the visited
    cells ('max_pred_moves': :data:`moves.STATE`); sized by the first batch it sees. Not in
    the state dict (that is the network's, as the original's checkpoint holds its variables
    only): checkpoints keep it in each rank's own file (``FFNTrainer.rank_state``)."""

    NAMES = ("canvas", "image", "labels", "cursor")

    def __init__(self, names: tuple[str, ...] = NAMES) -> None:
        super().__init__()
        self.names = names
        for n in names:
            self.register_buffer(n, torch.zeros(0), persistent=False)


class FFNTrainer(nn.Module):
    """The FFN network plus train.py's example builder and FOV policy ('fixed' or
    'max_pred_moves'), on the device.

    ``forward(x)``: ``x`` [B, 2, P, P, P] candidate training patches (P: config.patch_size);
    returns [B, 2, fov, fov, fov]: the FOV's logits (seed + update) and its soft labels."""

    def __init__(self, cfg: dict[str, Any]) -> None:
        super().__init__()
        self.net = ConvStack3D(cfg["depth"], cfg["features"])
        self.fov, self.deltas = int(cfg["fov"]), int(cfg["deltas"])
        self.size = patch_size(cfg)
        d = self.deltas
        shifts = [(dz, dy, dx) for dx in (-d, 0, d) for dy in (-d, 0, d) for dz in (-d, 0, d)
                  if (dx, dy, dz) != (0, 0, 0)]
        order = torch.randperm(len(shifts), device="cpu")  # --shuffle_moves: once per run
        moves = torch.tensor([(0, 0, 0)] + [shifts[int(i)] for i in order], device="cpu")
        self.register_buffer("moves", moves.to(torch.empty(0).device), persistent=False)  # zyx
        self.seed_pad, self.seed_center = logit(SEED_PAD), logit(SEED_CENTER)
        self.threshold = logit(MOVE_THRESHOLD)
        # train.py policy_map: max_pred_offsets(threshold=logit(0.9)), whose label threshold
        # is expit(threshold) = 0.9
        self.max_pred = (MaxPredMoves(self.fov, d, self.size, self.threshold, MOVE_THRESHOLD)
                         if fov_policy(cfg) == "max_pred_moves" else None)
        names = FOVState.NAMES + (MOVES_STATE if self.max_pred else ())
        self.fov_state = FOVState(names)
        # each rank keeps its own examples: DDP must not broadcast rank 0's over them
        self._ddp_params_and_buffers_to_ignore = [f"fov_state.{n}" for n in names]

    def rank_state(self) -> dict[str, torch.Tensor]:
        """This rank's examples in flight, for its own checkpoint file (runtime/train.py)."""
        return {n: getattr(self.fov_state, n).detach().cpu() for n in self.fov_state.names}

    def load_rank_state(self, state: dict[str, torch.Tensor]) -> None:
        missing = [n for n in self.fov_state.names if n not in state]
        if missing:
            raise ValueError(f"the checkpoint's FOV state lacks {', '.join(missing)}: it was "
                             "written with another --fov-policy; resume with the same one")
        dev = self.moves.device
        for n in self.fov_state.names:
            setattr(self.fov_state, n, state[n].to(dev))

    def _new_examples(self, x: torch.Tensor, take: torch.Tensor) -> None:
        """Slots ``take`` (bool [B]) start the example in ``x``: permuted/reflected (train.py's
        PermuteAndReflect on z/y/x reflections and the y/x permutation), with a fresh seed."""
        st = self.fov_state
        b, p = x.shape[0], self.size
        if st.canvas.shape != (b, p, p, p):  # first batch, or another batch size
            dev = x.device
            st.canvas = torch.empty(b, p, p, p, device=dev)
            st.image = torch.empty(b, p, p, p, device=dev)
            st.labels = torch.empty(b, p, p, p, device=dev)
            st.cursor = torch.zeros(b, dtype=torch.long, device=dev)
            take = torch.ones(b, dtype=torch.bool, device=dev)
        flips = torch.rand(b, 4, device=x.device) < 0.5  # reflect z, y, x; swap y and x
        ex = x.float()
        for axis in range(3):
            ex = torch.where(flips[:, axis].reshape(b, 1, 1, 1, 1), ex.flip(2 + axis), ex)
        ex = torch.where(flips[:, 3].reshape(b, 1, 1, 1, 1), ex.transpose(3, 4), ex)
        keep = ~take.reshape(b, 1, 1, 1)
        st.image = torch.where(keep, st.image, ex[:, 0])
        st.labels = torch.where(keep, st.labels, ex[:, 1])
        seed = torch.full((p, p, p), self.seed_pad, device=x.device)
        seed[p // 2, p // 2, p // 2] = self.seed_center
        st.canvas = torch.where(keep, st.canvas, seed)
        st.cursor = torch.where(take, 0, st.cursor)
        if self.max_pred is not None:
            self.max_pred.reset(st, b, take)

    def _next_moves(self, x: torch.Tensor) -> torch.Tensor:
        """'fixed': each slot's next valid move (index into ``moves``): ``fixed_offsets`` tries
        the moves in order and skips those whose target voxel's logit is below the threshold; a
        slot with none left takes its new example and starts at the centre (always valid: the
        seed's logit(0.95) is above logit(0.9)). No host sync: every slot takes the same path."""
        st, c = self.fov_state, self.size // 2
        if st.canvas.shape[0] != x.shape[0]:
            self._new_examples(x, torch.ones(x.shape[0], dtype=torch.bool, device=x.device))
        tgt = c + self.moves  # [M, 3]
        val = st.canvas[:, tgt[:, 0], tgt[:, 1], tgt[:, 2]]  # [B, M]
        idx = torch.arange(len(self.moves), device=x.device)
        ok = (val >= self.threshold) & (idx[None, :] >= st.cursor[:, None])
        found = ok.any(1)
        self._new_examples(x, ~found)
        return torch.where(found, torch.where(ok, idx[None, :], len(idx)).min(1).values, 0)

    def _next_visits(self, x: torch.Tensor) -> torch.Tensor:
        """'max_pred_moves': each slot's next FOV offset (zyx) from its queue; a slot whose
        queue holds no acceptable entry takes its new example and starts at the centre (the
        queue's first entry, always acceptable on a fresh seed). No host sync."""
        st, policy = self.fov_state, self.max_pred
        assert policy is not None
        if st.canvas.shape[0] != x.shape[0]:
            self._new_examples(x, torch.ones(x.shape[0], dtype=torch.bool, device=x.device))
        ok = policy.acceptable(st)
        found = ok.any(1)
        self._new_examples(x, ~found)
        first = torch.arange(ok.shape[1], device=x.device) == 0
        return policy.select(st, torch.where(found[:, None], ok, first))

    def _crop(self, vol: torch.Tensor,
              at: torch.Tensor) -> tuple[torch.Tensor, tuple[torch.Tensor, ...]]:
        """``mask.crop_and_pad``: the fov^3 block centred ``at`` ([B, 3] zyx) voxels from the
        centre, and the index tensors that address it."""
        b, f = vol.shape[0], self.fov
        start = self.size // 2 - f // 2 + at  # [B, 3]
        r = torch.arange(f, device=vol.device)
        z = (start[:, 0, None] + r).reshape(b, f, 1, 1)
        y = (start[:, 1, None] + r).reshape(b, 1, f, 1)
        xx = (start[:, 2, None] + r).reshape(b, 1, 1, f)
        return vol[torch.arange(b, device=vol.device).reshape(b, 1, 1, 1), z, y, xx], (z, y, xx)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        st = self.fov_state
        if self.max_pred is None:
            move = self._next_moves(x)
            at = self.moves[move]
        else:
            at = self._next_visits(x)
        seed, (z, y, xx) = self._crop(st.canvas, at)
        image, _ = self._crop(st.image, at)
        labels, _ = self._crop(st.labels, at)
        net_in = torch.stack([image, seed], 1).to(x.dtype)
        logits = seed.unsqueeze(1) + self.net(net_in).float()  # update_seed
        # prediction feedback: the FOV's logits replace the canvas there for later moves
        bi = torch.arange(x.shape[0], device=x.device).reshape(-1, 1, 1, 1)
        st.canvas[bi, z, y, xx] = logits[:, 0].detach()
        if self.max_pred is None:
            st.cursor = move + 1
        else:  # max_pred_offsets: the moves the updated seed scores join the queue
            self.max_pred.push(st, at, logits[:, 0].detach())
        return torch.cat([logits, labels.unsqueeze(1)], 1)


def build_model(cfg: dict[str, Any]) -> nn.Module:
    return FFNTrainer(cfg)


def loss_fn(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """``set_up_sigmoid_pixelwise_loss``: mean of sigmoid cross-entropy x loss weights (train.py
    feeds ones). The labels are the FOV's, which the model chose: ``out[:, 1]``; ``y`` (the
    centre FOV's labels of the newest candidate patches) is not used."""
    del y
    return F.binary_cross_entropy_with_logits(out[:, 0].float(), out[:, 1].float())


# ----------------------------------------------------------------------------- the data
def object_cell(cfg: dict[str, Any]) -> int:
    """Spacing of the synthetic objects' centres, in voxels (about a third of the FOV)."""
    return max(4, round(0.42 * cfg["fov"]))


def voronoi_volumes(shape: tuple[int, int, int], cell: int, gen: torch.Generator, n: int,
                    device: torch.device, chunk: int = 1 << 20) -> tuple[torch.Tensor,
                                                                          torch.Tensor]:
    """``n`` synthetic EM-like volumes ``[n, z, y, x]``: uint8-valued float images and int64
    labels (1..objects). Objects are the Voronoi cells of one jittered centre per ``cell``^3
    block; membranes darken where the nearest and second-nearest centres are about equally
    far; each object has its own brightness; Gaussian noise."""
    grid = [s // cell + 3 for s in shape]  # one block of padding on each side
    ncent = grid[0] * grid[1] * grid[2]
    blocks = torch.stack(torch.meshgrid(*[torch.arange(g, device=device) for g in grid],
                                        indexing="ij"), -1).reshape(-1, 3)
    centres = (blocks - 1 + torch.rand((n, ncent, 3), generator=gen, device=device)) * cell
    bright = 150 + 60 * torch.rand((n, ncent), generator=gen, device=device)
    strides = torch.tensor([grid[1] * grid[2], grid[2], 1], device=device)
    near = torch.stack(torch.meshgrid(*[torch.arange(-1, 2, device=device)] * 3,
                                      indexing="ij"), -1).reshape(-1, 3)
    vox = torch.stack(torch.meshgrid(*[torch.arange(s, device=device) for s in shape],
                                     indexing="ij"), -1).reshape(-1, 3)
    labels = torch.empty((n, len(vox)), dtype=torch.long, device=device)
    image = torch.empty((n, len(vox)), device=device)
    for s in range(0, len(vox), max(1, chunk // (27 * n))):
        v = vox[s:s + max(1, chunk // (27 * n))]
        # a sum of products, not `@`: CUDA has no integer matmul ("addmv_impl_cuda" not
        # implemented for 'Long', seen on an H100 with torch 2.11)
        cand = (((torch.div(v, cell, rounding_mode="floor") + 1)[:, None] + near)
                * strides).sum(-1)
        pos = centres[:, cand]  # [n, V, 27, 3]
        dist = (pos - (v.float() + 0.5)[None, :, None]).norm(dim=-1)
        d, k = dist.topk(2, dim=-1, largest=False)
        owner = cand[None].expand(n, -1, -1).gather(2, k[..., :1]).squeeze(-1)  # [n, V]
        membrane = torch.exp(-(((d[..., 1] - d[..., 0]) / 1.2) ** 2))
        labels[:, s:s + len(v)] = owner + 1
        image[:, s:s + len(v)] = bright.gather(1, owner) - 110 * membrane
    image = image + 12 * torch.randn(image.shape, generator=gen, device=device)
    image = image.clamp(0, 255).round()
    return image.reshape(n, *shape), labels.reshape(n, *shape)


def training_patches(image: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """train.py ``define_data_input`` for patches centred on their example's coordinate:
    ``[n, 2, P, P, P]`` of the normalised image (``(x - image_mean) / image_stddev``) and the
    softened mask of the centre voxel's object (``labels > 0`` and equal to the centre's)."""
    c = [s // 2 for s in labels.shape[1:]]
    centre = labels[:, c[0], c[1], c[2]].reshape(-1, 1, 1, 1)
    lom = (labels > 0) & (labels == centre)
    soft = torch.where(lom, 1.0 - LABEL_SOFTNESS, LABEL_SOFTNESS)
    return torch.stack([(image.float() - IMAGE_MEAN) / IMAGE_STDDEV, soft.float()], 1)


def _first_fov_labels(x: torch.Tensor, fov: int) -> torch.Tensor:
    p = x.shape[-1]
    lo = p // 2 - fov // 2
    return x[:, 1:2, lo:lo + fov, lo:lo + fov, lo:lo + fov]


class PatchPool:
    """``size`` synthetic training patches ``[size, 2, P, P, P]`` on the device; ``draw``
    gathers a batch of them at random (the model permutes and reflects each example as
    train.py does). Each patch is rendered from its own seed the first time a draw needs it
    (so a ``--describe`` renders a batch, not the pool); ``fill`` renders the rest, which a
    run's data source does before its first step (runtime/data.py ``SyntheticSource``)."""

    def __init__(self, cfg: dict[str, Any], device: torch.device, size: int = POOL) -> None:
        self.p, self.cell, self.fov = patch_size(cfg), object_cell(cfg), int(cfg["fov"])
        self.device, self.size = device, size
        self.x = torch.zeros((size, 2, self.p, self.p, self.p), device=device)
        self.missing = set(range(size))

    def _fill(self, idx: list[int]) -> None:
        for i in sorted(set(idx) & self.missing):
            gen = torch.Generator(device=self.device)
            gen.manual_seed(POOL_SEED + i)
            image, labels = voronoi_volumes((self.p,) * 3, self.cell, gen, 1, self.device)
            self.x[i] = training_patches(image, labels)[0]
            self.missing.discard(i)

    def fill(self) -> None:
        if self.missing:
            self._fill(sorted(self.missing))

    def draw(self, gen: torch.Generator, n: int) -> tuple[torch.Tensor, torch.Tensor]:
        idx = torch.randint(self.size, (n,), generator=gen, device=self.device)
        if self.missing:  # until every patch is there: one host sync per draw
            self._fill(idx.tolist())
        x = self.x[idx]
        return x, _first_fov_labels(x, self.fov).clone()


def make_task(cfg: dict[str, Any], device: torch.device) -> Task:
    pool = PatchPool(cfg, device)

    def task(gen: torch.Generator, n: int) -> tuple[torch.Tensor, torch.Tensor]:
        return pool.draw(gen, n)

    task.prefill = pool.fill  # type: ignore[attr-defined] - runtime/data.py SyntheticSource
    return task


def volume_side(cfg: dict[str, Any]) -> int:
    """Side of the volumes ``make-data`` writes: two training patches and some margin."""
    return -(-(2 * patch_size(cfg) + 16) // 8) * 8


class FFNVolumes(torch.utils.data.Dataset):
    """Training patches from the HDF5 volumes ``make-data`` writes (the files train.py's
    ``--data_volumes`` / ``--label_volumes`` name): ``grayscale_maps.h5:raw`` (uint8 [z, y, x]),
    ``groundtruth.h5:stack`` (int64), and the centres in ``coords.h5:coords`` ([n, 3], x y z,
    as the TFRecord's ``center``). One patch per centre, read lazily (one handle per worker)."""

    def __init__(self, path: str | Path, cfg: dict[str, Any]) -> None:
        from workloads.runtime.safeio import (
            InputError,
            check_samples,
            h5_dataset,
            h5_read,
            open_h5,
        )

        self.dir = Path(path)
        self.p, self.fov = patch_size(cfg), cfg["fov"]
        coords_file = self.dir / "coords.h5"
        with open_h5(coords_file, "FFN centres file (coords.h5)") as fh:
            ds = h5_dataset(fh, coords_file, "coords", ndim=2, kinds="iu")
            if ds.shape[1] != 3:
                raise InputError(f"{coords_file}: field 'coords' has shape {ds.shape}, "
                                 "expected [n, 3] (x y z)")
            check_samples(coords_file, "field 'coords'", ds.shape[0])
            coords = h5_read(ds, coords_file, "coords").astype("int64", casting="unsafe")
        shapes = []
        for name, field in (("grayscale_maps.h5", "raw"), ("groundtruth.h5", "stack")):
            with open_h5(self.dir / name, f"FFN volume ({name})") as fh:
                shapes.append(h5_dataset(fh, self.dir / name, field, ndim=3, kinds="iuf").shape)
        if shapes[0] != shapes[1]:
            raise InputError(f"{self.dir}: grayscale_maps.h5:raw {shapes[0]} and "
                             f"groundtruth.h5:stack {shapes[1]}; expected the same shape")
        shape = shapes[0]
        r = self.p // 2
        # bounds in Python integers: an int64 near its limit must not wrap past the check
        lo = [int(v) for v in coords.min(0)]
        hi = [int(v) for v in coords.max(0)]
        size = list(shape[::-1])  # x y z
        if any(lo[a] < r or hi[a] + r >= size[a] for a in range(3)):
            raise InputError(f"{coords_file}: centres closer than {r} voxels to the "
                             f"border of the {shape} volume: the {self.p}^3 patches of this "
                             "configuration do not fit; write the data with the same --config")
        self.coords = torch.from_numpy(coords)
        self._fh: tuple[Any, Any] | None = None

    def __len__(self) -> int:
        return len(self.coords)

    def __getitem__(self, idx: int) -> tuple[torch.Tensor, torch.Tensor]:
        if self._fh is None:
            from workloads.runtime.safeio import open_h5

            self._fh = (open_h5(self.dir / "grayscale_maps.h5", "FFN volume")["raw"],
                        open_h5(self.dir / "groundtruth.h5", "FFN volume")["stack"])
        x0, y0, z0 = (int(v) - self.p // 2 for v in self.coords[idx])
        sl = (slice(z0, z0 + self.p), slice(y0, y0 + self.p), slice(x0, x0 + self.p))
        image = torch.from_numpy(self._fh[0][sl].astype("float32"))[None]
        labels = torch.from_numpy(self._fh[1][sl].astype("int64"))[None]
        x = training_patches(image, labels)
        return x[0], _first_fov_labels(x, self.fov)[0].clone()

    def __getstate__(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["_fh"] = None
        return d


def open_dataset(path: str, cfg: dict[str, Any]) -> FFNVolumes | None:
    if (Path(path) / "meta.json").is_file() and not (Path(path) / "coords.h5").exists():
        return None  # a generic .npy shard directory
    return FFNVolumes(path, cfg)


def write_dataset(path: str, cfg: dict[str, Any], samples: int, seed: int) -> None:
    """One synthetic image/label volume pair and ``samples`` training centres."""
    import h5py

    out = Path(path)
    out.mkdir(parents=True, exist_ok=True)
    side = volume_side(cfg)
    gen = torch.Generator().manual_seed(seed)
    image, labels = voronoi_volumes((side, side, side), object_cell(cfg), gen, 1,
                                    torch.device("cpu"))
    r = patch_size(cfg) // 2
    coords = torch.randint(r, side - r, (samples, 3), generator=gen)  # x y z
    with h5py.File(out / "grayscale_maps.h5", "w") as fh:
        fh.create_dataset("raw", data=image[0].to(torch.uint8).numpy())
    with h5py.File(out / "groundtruth.h5", "w") as fh:
        fh.create_dataset("stack", data=labels[0].numpy())
    with h5py.File(out / "coords.h5", "w") as fh:
        fh.create_dataset("coords", data=coords.numpy())
        fh["coords"].attrs["label_volume_name"] = "synthetic"


APP = AppSpec(name=NAME, build_model=build_model, make_task=make_task, loss_fn=loss_fn,
              sizes=SIZES, default_batch_size=DEFAULT_BATCH_SIZE,
              tiny_batch_size=TINY_BATCH_SIZE, lr=LR, spatial_dims=3,
              open_dataset=open_dataset, write_dataset=write_dataset, recipe=RECIPE,
              source=SOURCE)
