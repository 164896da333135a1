"""Input pipelines: synthetic batches generated on the device, or a dataset on disk: the app's
own reader of its original's format (``spec.open_dataset``, files written by
``spec.write_dataset``), or the generic .npy shards.

Synthetic batch ``i`` of rank ``r`` is drawn from a generator seeded with ``(seed, r, i)``, so
the data position is just the step number and a resumed run sees identical batches.

On-disk format (written by ``python -m workloads.<app> --make-data DIR --samples N``)::

    DIR/meta.json            {"app", "size", "config", "samples", "shards": [{"x", "y", "n"}]}
    DIR/x_00000.npy ...      inputs,  shape [n, *sample_shape]
    DIR/y_00000.npy ...      targets, shape [n, *target_shape]

Datasets are read through a DataLoader with workers pinned to the rank's cores (the cores
``os.sched_getaffinity`` gives the rank, divided among its workers), pinned memory on CUDA and
a per-rank sampler (a DistributedSampler that can start mid-epoch for resume). A dataset with a
``set_epoch(epoch)`` method hears of each new epoch before its workers start, so random
augmentations can be drawn from (seed, epoch, index) and a resumed run sees the same samples.
"""

from __future__ import annotations

import bisect
import itertools
import json
import math
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, DistributedSampler

from .contract import model_config
from .safeio import (
    InputError,
    check_samples,
    inside,
    is_regular,
    npy_header,
    one_line,
    read_bytes,
)
from .seeds import mix_seed
from .spec import AppSpec, Task

__all__ = ["DiskSource", "GuardedDataset", "ShardDataset", "SyntheticSource", "make_data",
           "make_dataset", "mix_seed", "open_data", "worker_cores"]


def _to_memory_format(x: torch.Tensor, fmt: torch.memory_format | None) -> torch.Tensor:
    if fmt is None:
        return x
    return x.contiguous(memory_format=fmt)


#: device bytes the batches drawn ahead of a run may take (SyntheticSource.draw_ahead)
AHEAD_BYTES = 64 << 20
#: host bytes counted for each batch drawn ahead besides its data (the tuple and tensor objects)
AHEAD_OVERHEAD = 1 << 10


def _nbytes(batch: Any) -> int:
    if isinstance(batch, torch.Tensor):
        return batch.numel() * batch.element_size()
    if isinstance(batch, tuple | list):
        return sum(_nbytes(b) for b in batch)
    return 0


class SyntheticSource:
    """Batches generated directly on the device; no I/O.

    :meth:`draw_ahead` draws the batches of a run's steps before its timed steps when they
    fit :data:`AHEAD_BYTES` (the same batches, from the same per-step seeds): a step of a few
    microseconds of compute (anisosgs at batch 1) would otherwise spend 10-15% of its time
    drawing its batch, which the originals' synthetic modes make once before their loop."""

    kind = "synthetic"

    def __init__(self, task: Task, batch_size: int, seed: int, rank: int,
                 device: torch.device, memory_format: torch.memory_format | None = None) -> None:
        self.task = task
        self.batch_size = batch_size
        self.seed = seed
        self.rank = rank
        self.memory_format = memory_format
        self.gen = torch.Generator(device=device)
        self._ahead: dict[int, tuple[torch.Tensor, torch.Tensor]] = {}
        prefill = getattr(task, "prefill", None)
        if prefill is not None:  # a task that makes its data lazily makes it all now, untimed
            prefill()

    def draw_ahead(self, first: int, stop: int, budget: int | None = None) -> int:
        """Draw the batches of steps ``first``..``stop - 1`` now when all of them fit ``budget``
        bytes (default :data:`AHEAD_BYTES`); :meth:`get` hands each out once. Returns how many
        were drawn (1: only the first, the rest did not fit)."""
        budget = AHEAD_BYTES if budget is None else budget
        if stop <= first:
            return 0
        batch = self.draw(first)
        self._ahead = {first: batch}
        if (_nbytes(batch) + AHEAD_OVERHEAD) * (stop - first) > budget:
            return 1
        for step in range(first + 1, stop):
            self._ahead[step] = self.draw(step)
        return stop - first

    def get(self, step: int) -> tuple[torch.Tensor, torch.Tensor]:
        batch = self._ahead.pop(step, None)
        return batch if batch is not None else self.draw(step)

    def draw(self, step: int) -> tuple[torch.Tensor, torch.Tensor]:
        """Batch ``step``, drawn now from the generator seeded with (seed, rank, step)."""
        self.gen.manual_seed(mix_seed(self.seed, self.rank, step))
        x, y = self.task(self.gen, self.batch_size)
        return _to_memory_format(x, self.memory_format), y


class ShardDataset(Dataset):
    """Samples from memory-mapped .npy shards written by :func:`make_dataset`."""

    def __init__(self, path: str | Path, app: str | None = None,
                 config: dict[str, Any] | None = None) -> None:
        self.path = Path(path)
        meta_file = self.path / "meta.json"
        if not meta_file.exists():
            raise InputError(f"{self.path}: not a workloads dataset (no meta.json); "
                             "write one with --make-data")
        try:
            self.meta = json.loads(read_bytes(meta_file, "dataset description", 16 << 20))
        except (ValueError, RecursionError) as exc:
            if isinstance(exc, InputError):
                raise
            raise InputError(f"{meta_file}: not JSON ({one_line(exc, 120)})") from None
        if not isinstance(self.meta, dict):
            raise InputError(f"{meta_file}: expected a JSON object")
        if app is not None and self.meta.get("app") != app:
            raise InputError(f"{self.path} holds data for {self.meta.get('app')!r}, not {app!r}")
        if config is not None and self.meta.get("config") != json.loads(json.dumps(config)):
            raise InputError(
                f"{self.path} was written for model size {self.meta.get('size')!r} "
                f"({self.meta.get('config')}); the run uses {config}. "
                "Regenerate it with the same --config (or --tiny) setting."
            )
        self.shards = self.meta.get("shards")
        if not isinstance(self.shards, list) or not self.shards:
            raise InputError(f"{meta_file}: field 'shards' is {str(self.shards)[:60]}, expected "
                             "a list of {x, y, n}")
        self.offsets = [0]
        for k, s in enumerate(self.shards):
            if not isinstance(s, dict):
                raise InputError(f"{meta_file}: shards[{k}] is not an object {{x, y, n}}")
            n = s.get("n")
            if not isinstance(n, int) or isinstance(n, bool) or n < 1:
                raise InputError(f"{meta_file}: shards[{k}].n is {str(n)[:60]}, expected a "
                                 "positive whole number")
            for key in ("x", "y"):
                f = inside(self.path, s.get(key), f"shards[{k}].{key}", meta_file)
                shape, _, _, _ = npy_header(f, f"shard named by shards[{k}].{key}")
                if not shape or shape[0] < n:
                    raise InputError(f"{f}: shape {shape}, expected at least shards[{k}].n = "
                                     f"{n} samples")
            self.offsets.append(self.offsets[-1] + n)
            check_samples(meta_file, "the shards' n", self.offsets[-1])
        self._arrays: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def __len__(self) -> int:
        return self.offsets[-1]

    def _shard(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        arrs = self._arrays.get(k)
        if arrs is None:  # opened lazily, in each DataLoader worker
            s = self.shards[k]
            arrs = tuple(np.load(_checked_npy(self.path / s[key]), mmap_mode="r",
                                 allow_pickle=False) for key in ("x", "y"))
            self._arrays[k] = arrs
        return arrs

    def __getitem__(self, idx: int) -> tuple[torch.Tensor, torch.Tensor]:
        k = bisect.bisect_right(self.offsets, idx) - 1
        x, y = self._shard(k)
        j = idx - self.offsets[k]
        return torch.from_numpy(np.array(x[j])), torch.from_numpy(np.array(y[j]))

    def __getstate__(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["_arrays"] = {}
        return d


def _checked_npy(path: Path) -> Path:
    """A shard checked again where it is opened (a worker, perhaps much later)."""
    npy_header(path, "shard")
    return path


class GuardedDataset(Dataset):
    """A reader's dataset whose per-sample errors (a damaged chunk, a truncated image, a value
    out of range) become one :class:`InputError` line naming the data and the sample, also
    from a DataLoader worker."""

    def __init__(self, inner: Dataset, path: str) -> None:
        self.inner = inner
        self.path = path

    def __len__(self) -> int:
        return len(self.inner)  # type: ignore[arg-type]

    def set_epoch(self, epoch: int) -> None:
        set_epoch = getattr(self.inner, "set_epoch", None)
        if set_epoch is not None:
            set_epoch(epoch)

    def __getattr__(self, name: str) -> Any:
        if name in ("inner", "path") or name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.inner, name)

    def __getitem__(self, i: int) -> Any:
        try:
            return self.inner[i]
        except InputError:
            raise
        except Exception as exc:  # noqa: BLE001 - whatever a library raises on bad bytes
            raise InputError(f"{self.path}: sample {i} cannot be read "
                             f"({type(exc).__name__}: {one_line(exc, 200)})") from None


class ResumableSampler(DistributedSampler):
    """DistributedSampler that can skip the first ``start`` samples of an epoch (resume)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.start = 0

    def __iter__(self) -> Iterator[int]:
        return itertools.islice(super().__iter__(), self.start, None)

    def __len__(self) -> int:
        return self.num_samples - self.start


def worker_cores(workers: int, cores: list[int] | None = None) -> list[list[int]]:
    """The rank's cores (its affinity) divided among ``workers`` loader workers: contiguous,
    nearly equal slices; several workers share a core when there are fewer cores."""
    if cores is None:
        cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if workers < 1 or not cores:
        return []
    if workers >= len(cores):
        return [[cores[k % len(cores)]] for k in range(workers)]
    bounds = [round(k * len(cores) / workers) for k in range(workers + 1)]
    return [cores[bounds[k]:bounds[k + 1]] for k in range(workers)]


class PinWorker:
    """``worker_init_fn``: pin loader worker ``k`` to its slice of the rank's cores."""

    def __init__(self, slices: list[list[int]]) -> None:
        self.slices = slices

    def __call__(self, worker_id: int) -> None:
        if self.slices and hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, self.slices[worker_id % len(self.slices)])


class DiskSource:
    """Batches from a Dataset through a DataLoader; ``get(step)`` must be called in order."""

    kind = "disk"

    def __init__(self, dataset: Dataset, batch_size: int, seed: int, rank: int, world_size: int,
                 device: torch.device, workers: int, start_step: int = 0,
                 memory_format: torch.memory_format | None = None,
                 pin_memory: bool | None = None) -> None:
        self.dataset = dataset
        self.batch_size = batch_size
        self.device = device
        self.memory_format = memory_format
        self.sampler = ResumableSampler(dataset, num_replicas=world_size, rank=rank,
                                        shuffle=True, seed=seed, drop_last=True)
        self.batches_per_epoch = self.sampler.num_samples // batch_size
        if self.batches_per_epoch == 0:
            where = getattr(dataset, "path", "the dataset")
            raise InputError(
                f"{where}: {len(dataset)} samples, too few for batch size {batch_size} "
                f"x {world_size} ranks; expected at least {batch_size * world_size}"
            )
        # Page-locked buffers let the copy to the GPU run asynchronously; on by default on CUDA.
        pin = device.type == "cuda" if pin_memory is None else pin_memory
        self.pin_memory = pin
        self.worker_cores = worker_cores(workers)
        self.loader = DataLoader(dataset, batch_size=batch_size, sampler=self.sampler,
                                 num_workers=workers, pin_memory=pin, drop_last=True,
                                 persistent_workers=False,
                                 worker_init_fn=PinWorker(self.worker_cores) if workers else None,
                                 prefetch_factor=4 if workers > 0 else None)
        self._next_step = start_step
        self._it: Iterator | None = None
        self._open(start_step)

    def _open(self, step: int) -> None:
        epoch, offset = divmod(step, self.batches_per_epoch)
        self.sampler.set_epoch(epoch)
        self.sampler.start = offset * self.batch_size
        set_epoch = getattr(self.dataset, "set_epoch", None)
        if set_epoch is not None:
            set_epoch(epoch)  # before iter(): the workers get a copy of the dataset then
        self._it = iter(self.loader)

    def get(self, step: int) -> tuple[torch.Tensor, torch.Tensor]:
        if step != self._next_step:
            self._open(step)
        elif step % self.batches_per_epoch == 0 and step > 0:
            self._open(step)  # new epoch
        self._next_step = step + 1
        assert self._it is not None
        x, y = next(self._it)
        nb = self.device.type != "cpu"
        x = x.to(self.device, non_blocking=nb)
        y = y.to(self.device, non_blocking=nb)
        return _to_memory_format(x, self.memory_format), y


def make_data(spec: AppSpec, name: str, cfg: dict[str, Any], path: str | Path, samples: int,
              shard_size: int = 1024, seed: int = 0) -> tuple[Path, str]:
    """``--make-data``: the app's own writer of its original's format when it has one, the
    generic .npy shards otherwise; returns (where, which format)."""
    if spec.write_dataset is not None:
        Path(path).mkdir(parents=True, exist_ok=True)
        spec.write_dataset(str(path), cfg, samples, seed)
        return Path(path), f"{spec.name}'s own format"
    return make_dataset(spec, name, cfg, path, samples, shard_size, seed), "npy shards"


def open_data(spec: AppSpec, path: str, cfg: dict[str, Any]) -> Dataset:
    """``--data PATH``: the app's reader of its original's format, else the .npy shards.
    Whatever the files hold, a refusal is one :class:`InputError` line naming them (a reader's
    own checks, or a library's error with the path put in front), before training starts."""
    if not os.path.exists(path):
        raise InputError(f"{path}: --data names nothing there; write a dataset with "
                         "--make-data or use --data synthetic")
    if not (os.path.isdir(path) or is_regular(path)):
        raise InputError(f"{path}: --data is neither a directory nor a regular file")
    try:
        dataset = spec.open_dataset(path, cfg) if spec.open_dataset else None
        if dataset is None:
            dataset = ShardDataset(path, app=spec.name, config=model_config(cfg))
        check_samples(path, "its number of samples", len(dataset))
    except InputError:
        raise
    except (OSError, ValueError, KeyError, IndexError, TypeError, EOFError, RuntimeError,
            OverflowError, MemoryError, RecursionError, AttributeError) as exc:
        text = one_line(exc, 300)
        if not text.startswith(str(path)):
            kind = "" if isinstance(exc, ValueError | FileNotFoundError) \
                else f"{type(exc).__name__}: "
            text = f"{path}: {kind}{text}"
        raise InputError(text) from None
    return GuardedDataset(dataset, path)


def check_data(spec: AppSpec, path: str, cfg: dict[str, Any]) -> str:
    """``--check --data PATH``: open the data with the app's own reader, read its first
    sample and hold it against what the configuration trains on (the synthetic task's
    sample: shapes and dtypes), so a wrong path or data written for another configuration
    stops the job script's preflight in seconds. Returns what was found; raises OSError or
    ValueError (one line) when the data cannot be used."""
    if not Path(path).exists():
        raise FileNotFoundError(f"--data {path}: no such file or directory (write it with "
                                "jobgen make-data, or give the directory that holds it)")
    dataset = open_data(spec, path, cfg)
    count = len(dataset)
    if count < 1:
        raise ValueError(f"--data {path}: no samples")
    got = tuple(torch.as_tensor(t) for t in dataset[0])
    gen = torch.Generator()
    gen.manual_seed(0)
    want = tuple(t[0] for t in spec.make_task(cfg, torch.device("cpu"))(gen, 1))
    for what, a, b in zip(("input", "target"), got, want, strict=True):
        if tuple(a.shape) != tuple(b.shape) or a.dtype != b.dtype:
            raise ValueError(f"--data {path}: a sample's {what} is {list(a.shape)} "
                             f"{str(a.dtype).removeprefix('torch.')}, this configuration "
                             f"trains on {list(b.shape)} {str(b.dtype).removeprefix('torch.')}:"
                             " write the data with make-data and the same --config")
    x = got[0]
    return (f"{count} samples, input {list(x.shape)} {str(x.dtype).removeprefix('torch.')}")


def make_dataset(spec: AppSpec, size: str, cfg: dict[str, Any], path: str | Path,
                 samples: int, shard_size: int = 1024, seed: int = 0,
                 chunk: int = 64) -> Path:
    """Write ``samples`` synthetic samples of ``spec``'s task as .npy shards under ``path``."""
    out = Path(path)
    out.mkdir(parents=True, exist_ok=True)
    task = spec.make_task(cfg, torch.device("cpu"))
    gen = torch.Generator()
    shards = []
    nshards = math.ceil(samples / shard_size)
    for k in range(nshards):
        n = min(shard_size, samples - k * shard_size)
        xa = ya = None
        for c, lo in enumerate(range(0, n, chunk)):
            m = min(chunk, n - lo)
            gen.manual_seed(mix_seed(seed, 1_000_000 + k, c))
            x, y = task(gen, m)
            xn, yn = x.cpu().numpy(), y.cpu().numpy()
            if xa is None or ya is None:
                xa = np.lib.format.open_memmap(out / f"x_{k:05d}.npy", mode="w+",
                                               dtype=xn.dtype, shape=(n, *xn.shape[1:]))
                ya = np.lib.format.open_memmap(out / f"y_{k:05d}.npy", mode="w+",
                                               dtype=yn.dtype, shape=(n, *yn.shape[1:]))
            xa[lo:lo + m] = xn
            ya[lo:lo + m] = yn
        assert xa is not None and ya is not None
        xa.flush()
        ya.flush()
        del xa, ya
        shards.append({"x": f"x_{k:05d}.npy", "y": f"y_{k:05d}.npy", "n": n})
    meta = {"app": spec.name, "size": size, "config": model_config(cfg), "samples": samples,
            "shards": shards,
            "format": "workloads-npy-shards-v1"}
    (out / "meta.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return out
