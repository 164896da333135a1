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
from .seeds import mix_seed
from .spec import AppSpec, Task

__all__ = ["DiskSource", "ShardDataset", "SyntheticSource", "make_data", "make_dataset",
           "mix_seed", "open_data", "worker_cores"]


def _to_memory_format(x: torch.Tensor, fmt: torch.memory_format | None) -> torch.Tensor:
    if fmt is None:
        return x
    return x.contiguous(memory_format=fmt)


class SyntheticSource:
    """Batches generated directly on the device; no I/O."""

    kind = "synthetic"

    def __init__(self, task: Task, batch_size: int, seed: int, rank: int,
                 device: torch.device, memory_format: torch.memory_format | None = None) -> None:
        self.task = task
        self.batch_size = batch_size
        self.seed = seed
        self.rank = rank
        self.memory_format = memory_format
        self.gen = torch.Generator(device=device)
        prefill = getattr(task, "prefill", None)
        if prefill is not None:  # a task that makes its data lazily makes it all now, untimed
            prefill()

    def get(self, step: int) -> tuple[torch.Tensor, torch.Tensor]:
        self.gen.manual_seed(mix_seed(self.seed, self.rank, step))
        x, y = self.task(self.gen, self.batch_size)
        return _to_memory_format(x, self.memory_format), y


class ShardDataset(Dataset):
    """Samples from memory-mapped .npy shards written by :func:`make_dataset`."""

    def __init__(self, path: str | Path, app: str | None = None,
                 config: dict[str, Any] | None = None) -> None:
        self.path = Path(path)
        meta_file = self.path / "meta.json"
        if not meta_file.is_file():
            raise FileNotFoundError(f"{self.path}: not a workloads dataset (no meta.json); "
                                    "write one with --make-data")
        self.meta = json.loads(meta_file.read_text())
        if app is not None and self.meta.get("app") != app:
            raise ValueError(f"{self.path} holds data for {self.meta.get('app')!r}, not {app!r}")
        if config is not None and self.meta.get("config") != json.loads(json.dumps(config)):
            raise ValueError(
                f"{self.path} was written for model size {self.meta.get('size')!r} "
                f"({self.meta.get('config')}); the run uses {config}. "
                "Regenerate it with the same --config (or --tiny) setting."
            )
        self.shards = self.meta["shards"]
        self.offsets = [0]
        for s in self.shards:
            self.offsets.append(self.offsets[-1] + int(s["n"]))
        self._arrays: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def __len__(self) -> int:
        return self.offsets[-1]

    def _shard(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        arrs = self._arrays.get(k)
        if arrs is None:  # opened lazily, in each DataLoader worker
            s = self.shards[k]
            arrs = (np.load(self.path / s["x"], mmap_mode="r"),
                    np.load(self.path / s["y"], mmap_mode="r"))
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
            raise ValueError(
                f"dataset has {len(dataset)} samples: too few for batch size {batch_size} "
                f"x {world_size} ranks"
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
    """``--data PATH``: the app's reader of its original's format, else the .npy shards."""
    dataset = spec.open_dataset(path, cfg) if spec.open_dataset else None
    if dataset is None:
        dataset = ShardDataset(path, app=spec.name, config=model_config(cfg))
    return dataset


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
