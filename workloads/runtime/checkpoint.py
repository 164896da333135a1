"""Atomic, resumable checkpoints.

Layout: ``<dir>/step_000000120/{state.pt, rng_rank<r>.pt, COMPLETE}`` (TensorFlow:
``state.npz, rank<r>.npz``). Every file is written to a
temporary name, fsynced and ``os.replace``-d; ``COMPLETE`` is written by rank 0 only after all
ranks finished their files (barrier), so a kill at any moment leaves the previous complete
checkpoint intact and an incomplete directory is ignored on resume. ``<dir>/FINISHED`` (JSON:
step, time, param_sha256) says the training reached its last step.

The directory logic is the same for both frameworks; a :class:`Codec` says how one file is
written and read. Reading never runs code a file carries (issue 36, N1): the PyTorch files
are read with ``torch.load(weights_only=True)`` (tensors, numbers, strings and containers
only; the NumPy RNG state is kept as a tensor for that), the TensorFlow files are ``.npz``
archives read with ``allow_pickle=False``, their structure a JSON document in the archive. A
file that holds anything else (a pickled object, a planted ``__reduce__``) is refused with
one line naming it (:class:`safeio.InputError`, exit 2). Importing this module does not
import torch.
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
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .safeio import InputError, one_line, open_regular

if TYPE_CHECKING:
    from .device import DeviceInfo

_PREFIX = "step_"
#: written by rank 0 in the checkpoint directory when the training reached its last step
FINISHED = "FINISHED"


@dataclass(frozen=True)
class Codec:
    """How a checkpoint file is written (``dump(obj, fileobj)``) and read (``load(path)``)."""

    suffix: str
    dump: Callable[[Any, Any], None]
    load: Callable[[Path], Any]
    per_rank: str  # name of each rank's own file, before the rank number


def _torch_dump(obj: Any, fh: Any) -> None:
    import torch

    torch.save(obj, fh)


def _refuse(path: Path, exc: BaseException) -> InputError:
    text = str(exc)
    if text.startswith("Weights only load failed"):
        # torch's own advice (weights_only=False) is the unsafe one: keep only what it found
        found = [p.strip() for p in text.split("\n\n") if "GLOBAL" in p or "error" in p]
        text = found[0] if found else "it holds Python objects"
    return InputError(f"{path}: not a checkpoint file this runtime reads safely "
                      f"({one_line(text, 160)}); "
                      "it may have been written by an older version or planted: remove that "
                      "step directory or use another --checkpoint-dir")


def _torch_load(path: Path) -> Any:
    import pickle

    import torch

    with open_regular(path, "checkpoint file") as fh:
        try:
            return torch.load(fh, map_location="cpu", weights_only=True)
        except pickle.UnpicklingError as exc:  # a global weights_only does not allow
            raise _refuse(path, exc) from None


#: the JSON document of a TensorFlow checkpoint file, inside its .npz archive
_TREE = "__tree__"
_MAX_TREE = 64 << 20


def _to_tree(obj: Any, arrays: list[Any]) -> Any:
    """A JSON document of ``obj`` with its NumPy arrays replaced by their index in
    ``arrays``: dicts of string keys, lists, tuples, str, int, float, bool, None."""
    if isinstance(obj, np.ndarray | np.generic):
        arr = np.asarray(obj)
        if arr.dtype.hasobject:
            raise TypeError("a checkpoint holds no arrays of Python objects")
        arrays.append(arr)
        return {"array": len(arrays) - 1, "scalar": isinstance(obj, np.generic)}
    if isinstance(obj, dict):
        if not all(isinstance(k, str) for k in obj):
            raise TypeError("a checkpoint's dict keys are strings")
        return {"dict": {k: _to_tree(v, arrays) for k, v in obj.items()}}
    if isinstance(obj, list | tuple):
        return {"list" if isinstance(obj, list) else "tuple": [_to_tree(v, arrays)
                                                               for v in obj]}
    if obj is None or isinstance(obj, bool | int | float | str):
        return {"value": obj}
    raise TypeError(f"a checkpoint cannot hold {type(obj).__name__}")


def _from_tree(node: Any, arrays: Any, path: Path) -> Any:
    if not isinstance(node, dict) or len(node) not in (1, 2):
        raise InputError(f"{path}: {_TREE} is not a checkpoint document")
    if "array" in node:
        key = node["array"]
        name = f"a{key}" if isinstance(key, int) else ""
        if name not in arrays.files:
            raise InputError(f"{path}: array {key!r} is missing from the archive")
        arr = arrays[name]
        return arr[()] if node.get("scalar") else arr
    (kind, value), = node.items()
    if kind == "value" and (value is None or isinstance(value, bool | int | float | str)):
        return value
    if kind == "dict" and isinstance(value, dict):
        return {k: _from_tree(v, arrays, path) for k, v in value.items()}
    if kind in ("list", "tuple") and isinstance(value, list):
        items = [_from_tree(v, arrays, path) for v in value]
        return items if kind == "list" else tuple(items)
    raise InputError(f"{path}: {_TREE} holds a {kind!r} node, expected a checkpoint document")


def _npz_dump(obj: Any, fh: Any) -> None:
    import json

    arrays: list[Any] = []
    tree = json.dumps(_to_tree(obj, arrays), allow_nan=True).encode()
    np.savez(fh, **{_TREE: np.frombuffer(tree, dtype=np.uint8)},
             **{f"a{k}": a for k, a in enumerate(arrays)})


def _npz_load(path: Path) -> Any:
    import json
    import zipfile

    with open_regular(path, "checkpoint file") as fh:
        size = os.fstat(fh.fileno()).st_size
        try:
            with zipfile.ZipFile(fh) as zf:
                for info in zf.infolist():  # np.savez stores, it does not compress
                    if info.compress_type != zipfile.ZIP_STORED or info.file_size > size:
                        raise InputError(f"{path}: member {info.filename} is compressed or "
                                         "larger than the file; expected np.savez's archive")
            fh.seek(0)
            with np.load(fh, allow_pickle=False) as arrays:
                if _TREE not in arrays.files:
                    raise InputError(f"{path}: no {_TREE} in the archive: not a checkpoint file")
                raw = arrays[_TREE]
                if raw.dtype != np.uint8 or raw.ndim != 1 or raw.size > _MAX_TREE:
                    raise InputError(f"{path}: {_TREE} is not a JSON document")
                tree = json.loads(raw.tobytes().decode("utf-8"))
                return _from_tree(tree, arrays, path)
        except InputError:
            raise
        except (ValueError, OSError, EOFError, zipfile.BadZipFile, KeyError,
                UnicodeDecodeError, RecursionError) as exc:
            raise _refuse(path, exc) from None


TORCH = Codec(".pt", _torch_dump, _torch_load, "rng_rank")  # per rank: its RNG states
#: plain Python containers of NumPy arrays (the TensorFlow runtime's variables), as .npz
NPZ = Codec(".npz", _npz_dump, _npz_load, "rank")


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


def _numpy_state() -> dict[str, Any]:
    """NumPy's legacy RNG state in types ``torch.load(weights_only=True)`` reads."""
    import torch

    name, keys, pos, has_gauss, gauss = np.random.get_state()
    return {"name": str(name), "keys": torch.from_numpy(np.asarray(keys, np.int64)),
            "pos": int(pos), "has_gauss": int(has_gauss), "gauss": float(gauss)}


def _set_numpy_state(state: dict[str, Any]) -> None:
    keys = state["keys"].numpy().astype(np.uint32)
    np.random.set_state((state["name"], keys, state["pos"], state["has_gauss"],
                         state["gauss"]))


def capture_rng(dev: DeviceInfo) -> dict[str, Any]:
    import torch

    state: dict[str, Any] = {
        "torch": torch.get_rng_state(),
        "numpy": _numpy_state(),
        "python": random.getstate(),
    }
    if dev.type == "cuda":
        state["cuda"] = torch.cuda.get_rng_state_all()
    elif dev.type == "xpu" and hasattr(torch.xpu, "get_rng_state_all"):
        state["xpu"] = torch.xpu.get_rng_state_all()
    return state


def restore_rng(state: dict[str, Any], dev: DeviceInfo) -> None:
    import torch

    torch.set_rng_state(state["torch"])
    _set_numpy_state(state["numpy"])
    random.setstate(state["python"])
    if dev.type == "cuda" and "cuda" in state:
        torch.cuda.set_rng_state_all(state["cuda"])
    elif dev.type == "xpu" and "xpu" in state and hasattr(torch.xpu, "set_rng_state_all"):
        torch.xpu.set_rng_state_all(state["xpu"])


def check_meta(saved: dict[str, Any], current: dict[str, Any], where: str,
               warn: Callable[[str], None]) -> None:
    """Refuse a checkpoint of another app or model size; warn when the world or batch size
    changed (the run then cannot reproduce an uninterrupted one)."""
    if saved.get("app") != current["app"] or saved.get("config") != current["config"]:
        was, now = saved.get("config") or {}, current["config"]
        keys = sorted(k for k in set(was) | set(now) if was.get(k) != now.get(k))
        differ = (f" (configuration differs in {', '.join(keys)}: "
                  f"{', '.join(f'{k}={was.get(k)!r} there, {now.get(k)!r} here' for k in keys)})"
                  if saved.get("app") == current["app"] and keys else "")
        raise InputError(f"checkpoint in {where} is for {saved.get('app')} "
                           f"{saved.get('size')}, not {current['app']} {current['size']}{differ}"
                           "; resume with the same options or use another --checkpoint-dir")
    if (saved.get("world_size") != current["world_size"]
            or saved.get("batch_size") != current["batch_size"]
            or saved.get("grad_accum", 1) != current.get("grad_accum", 1)):
        warn("warning: resuming with a different world size, batch size or gradient "
             "accumulation; the run will not reproduce an uninterrupted one")


class CheckpointManager:
    def __init__(self, directory: str | os.PathLike[str], rank: int, keep: int = 2,
                 codec: Codec = TORCH) -> None:
        self.dir = Path(directory)
        self.rank = rank
        self.keep = max(1, keep)
        self.codec = codec

    def _rank_file(self, d: Path) -> Path:
        return d / f"{self.codec.per_rank}{self.rank}{self.codec.suffix}"

    def _save_file(self, obj: Any, path: Path) -> None:
        atomic_write(path, lambda fh: self.codec.dump(obj, fh))

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

    def save(self, step: int, state: dict[str, Any] | None, per_rank: dict[str, Any] | None,
             barrier: Callable[[], None], meta: dict[str, Any]) -> Path:
        """Collective: every rank calls it. Rank 0 passes the model/optimizer ``state``; every
        rank passes what is its own (``per_rank``: RNG states, batch-norm statistics; None:
        nothing)."""
        d = self.step_dir(step)
        d.mkdir(parents=True, exist_ok=True)
        suffix = self.codec.suffix
        if per_rank is not None:
            self._save_file(per_rank, self._rank_file(d))
        if self.rank == 0:
            assert state is not None
            self._save_file(state, d / f"state{suffix}")
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

    # ---- the FINISHED marker: the training reached its last step (issue 34's contract with
    # `jobgen chain`, whose links test `<checkpoint-dir>/FINISHED` with `test -f`)
    @property
    def finished_path(self) -> Path:
        return self.dir / FINISHED

    def finished(self) -> dict[str, Any] | None:
        """The marker's JSON document, or None when there is none (or it cannot be read: a
        marker that is not one is treated as absent, and rewritten when the run ends)."""
        try:
            with open_regular(self.finished_path, "FINISHED marker") as fh:
                doc = json.loads(fh.read(1 << 16).decode("utf-8"))
        except (OSError, InputError, ValueError, UnicodeDecodeError):
            return None
        return doc if isinstance(doc, dict) else None

    def mark_finished(self, step: int, digest: str | None) -> None:
        """Rank 0, once the last step's checkpoint is complete: write FINISHED atomically."""
        import time

        payload = json.dumps({"step": step, "time": time.time(), "param_sha256": digest},
                             sort_keys=True).encode()
        self.dir.mkdir(parents=True, exist_ok=True)
        atomic_write(self.finished_path, lambda fh: fh.write(payload))

    def clear_finished(self) -> bool:
        """Remove a marker that does not apply to this run (other --steps, --no-resume)."""
        try:
            self.finished_path.unlink()
        except FileNotFoundError:
            return False
        _fsync_dir(self.dir)
        return True

    def load_latest(self) -> tuple[int, dict[str, Any], dict[str, Any] | None] | None:
        """(step, state, this rank's own state or None) of the newest loadable checkpoint."""
        for step in self.complete_steps():
            d = self.step_dir(step)
            own = self._rank_file(d)
            try:
                state = self.codec.load(d / f"state{self.codec.suffix}")
                mine = self.codec.load(own) if own.exists() or own.is_symlink() else None
            except InputError:  # unsafe content or not a file: refuse, never fall back
                raise
            except Exception as exc:  # corrupt despite COMPLETE: try the previous one
                print(f"[workloads] warning: cannot read {d}: {one_line(exc)}; trying an older "
                      "checkpoint", flush=True, file=sys.stderr)
                continue
            if not isinstance(state, dict) or mine is not None and not isinstance(mine, dict):
                raise InputError(f"{d}: its files do not hold a checkpoint's dictionaries; "
                                 "remove that step directory or use another --checkpoint-dir")
            return step, state, mine
        return None
