"""Atomic, resumable checkpoints.

Layout: ``<dir>/step_000000120/{state.pt, rng_rank<r>.pt, COMPLETE}``. Every file is written to a
temporary name, fsynced and ``os.replace``-d; ``COMPLETE`` is written by rank 0 only after all
ranks finished their files (barrier), so a kill at any moment leaves the previous complete
checkpoint intact and an incomplete directory is ignored on resume.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch

from .device import DeviceInfo

_PREFIX = "step_"


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory fds
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def atomic_write(path: Path, writer: Callable[[Any], None]) -> None:
    """Call ``writer(fileobj)`` on a temp file next to ``path``, fsync, then rename over it."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            writer(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


def atomic_torch_save(obj: Any, path: Path) -> None:
    atomic_write(path, lambda fh: torch.save(obj, fh))


def capture_rng(dev: DeviceInfo) -> dict[str, Any]:
    state: dict[str, Any] = {
        "torch": torch.get_rng_state(),
        "numpy": np.random.get_state(),
        "python": random.getstate(),
    }
    if dev.type == "cuda":
        state["cuda"] = torch.cuda.get_rng_state_all()
    elif dev.type == "xpu" and hasattr(torch.xpu, "get_rng_state_all"):
        state["xpu"] = torch.xpu.get_rng_state_all()
    return state


def restore_rng(state: dict[str, Any], dev: DeviceInfo) -> None:
    torch.set_rng_state(state["torch"])
    np.random.set_state(state["numpy"])
    random.setstate(state["python"])
    if dev.type == "cuda" and "cuda" in state:
        torch.cuda.set_rng_state_all(state["cuda"])
    elif dev.type == "xpu" and "xpu" in state and hasattr(torch.xpu, "set_rng_state_all"):
        torch.xpu.set_rng_state_all(state["xpu"])


class CheckpointManager:
    def __init__(self, directory: str | os.PathLike[str], rank: int, keep: int = 2) -> None:
        self.dir = Path(directory)
        self.rank = rank
        self.keep = max(1, keep)

    def step_dir(self, step: int) -> Path:
        return self.dir / f"{_PREFIX}{step:09d}"

    def complete_steps(self) -> list[int]:
        """Steps that have a complete checkpoint, newest first."""
        if not self.dir.is_dir():
            return []
        steps = []
        for p in self.dir.iterdir():
            if p.name.startswith(_PREFIX) and (p / "COMPLETE").is_file():
                try:
                    steps.append(int(p.name[len(_PREFIX):]))
                except ValueError:
                    continue
        return sorted(steps, reverse=True)

    def save(self, step: int, state: dict[str, Any] | None, rng: dict[str, Any],
             barrier: Callable[[], None], meta: dict[str, Any]) -> Path:
        """Collective: every rank calls it. Rank 0 passes the model/optimizer ``state``."""
        d = self.step_dir(step)
        d.mkdir(parents=True, exist_ok=True)
        atomic_torch_save(rng, d / f"rng_rank{self.rank}.pt")
        if self.rank == 0:
            assert state is not None
            atomic_torch_save(state, d / "state.pt")
        barrier()
        if self.rank == 0:
            payload = json.dumps({"step": step, **meta}, sort_keys=True).encode()
            atomic_write(d / "COMPLETE", lambda fh: fh.write(payload))
            self._prune(step)
        barrier()  # nobody exits (e.g. on a signal) before COMPLETE exists
        return d

    def _prune(self, newest: int) -> None:
        for step in self.complete_steps()[self.keep:]:
            shutil.rmtree(self.step_dir(step), ignore_errors=True)
        # incomplete leftovers older than the newest complete checkpoint
        for p in self.dir.iterdir():
            if p.name.startswith(_PREFIX) and not (p / "COMPLETE").exists():
                try:
                    older = int(p.name[len(_PREFIX):]) < newest
                except ValueError:
                    continue
                if older:
                    shutil.rmtree(p, ignore_errors=True)

    def load_latest(self) -> tuple[int, dict[str, Any], dict[str, Any] | None] | None:
        """(step, state, this rank's rng state or None) of the newest loadable checkpoint."""
        for step in self.complete_steps():
            d = self.step_dir(step)
            try:
                state = torch.load(d / "state.pt", map_location="cpu", weights_only=False)
            except Exception as exc:  # corrupt despite COMPLETE: try the previous one
                print(f"[workloads] warning: cannot read {d}: {exc}; trying an older checkpoint",
                      flush=True, file=sys.stderr)
                continue
            rng_path = d / f"rng_rank{self.rank}.pt"
            rng = None
            if rng_path.is_file():
                rng = torch.load(rng_path, map_location="cpu", weights_only=False)
            return step, state, rng
        return None
