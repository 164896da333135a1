"""The child of test_hostile_inputs.py: opens generated data directories and checkpoints with
the apps' real readers, under an address-space limit of its own size + 1 GiB, and answers
one JSON line per case on stdout. The parent sends one case a line on stdin and times each
answer (a case that does not answer within its cap is a hang: the parent kills this process
and starts another for the cases left).

    python hostile_worker.py            cases on stdin: {"id", "op", ...}
    op "make"  {"dir"}                  write every app's tiny dataset under dir/APP (+ shards)
    op "data"  {"app", "path"}          open_data, then read the first and the last sample
    op "ckpt"  {"codec", "dir"}         CheckpointManager(dir).load_latest()

Answers: {"id", "result": "ok" | "refused" | "error", "message"}; "error" is any exception
other than the runtime's one-line InputError (what the command line would print as a
traceback), MemoryError included.
"""

from __future__ import annotations

import importlib
import json
import os
import resource
import sys
import traceback
from pathlib import Path
from typing import Any

APPS = ("anisosgs", "cosmictagger", "ffn", "gpt", "pointnet", "qcnn", "resnet50", "unet3d")
GIB = 1 << 30


def spec_of(app: str) -> Any:
    return importlib.import_module(f"workloads.{app}.model").APP


def tiny_cfg(app: str) -> dict[str, Any]:
    from workloads.runtime.cli import build_parser, resolve
    from workloads.runtime.contract import with_options

    spec = spec_of(app)
    args = resolve(build_parser(spec).parse_args(["--tiny"]))
    return with_options(spec.sizes["tiny"], args)


def make(root: Path) -> None:
    from workloads.runtime.data import make_dataset

    for app in APPS:
        spec = spec_of(app)
        (root / app).mkdir(parents=True, exist_ok=True)
        spec.write_dataset(str(root / app), tiny_cfg(app), 16, 0)
    make_dataset(spec_of("anisosgs"), "tiny", tiny_cfg("anisosgs"), root / "shards", 16,
                 shard_size=8)


def read_data(app: str, path: str) -> str:
    from workloads.runtime.data import open_data

    ds = open_data(spec_of(app), path, tiny_cfg(app))
    n = len(ds)
    for i in sorted({0, n - 1}):
        ds[i]
    return f"{n} samples"


def load_ckpt(codec: str, directory: str) -> str:
    from workloads.runtime import checkpoint as ckpt

    mgr = ckpt.CheckpointManager(directory, 0, codec=ckpt.TORCH if codec == "torch"
                                 else ckpt.NPZ)
    got = mgr.load_latest()
    return "nothing to resume" if got is None else f"step {got[0]}"


def limit_memory() -> None:
    """RLIMIT_AS: what this process maps now (torch, h5py imported) + 1 GiB."""
    with open("/proc/self/statm", encoding="ascii") as fh:
        mapped = int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (mapped + GIB, resource.RLIM_INFINITY))


def main() -> None:
    import h5py  # noqa: F401 - imported before the limit, as the readers import it
    import torch  # noqa: F401

    from workloads.runtime.safeio import InputError

    for app in APPS:
        spec_of(app)
    torch.set_num_threads(1)
    limit_memory()
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        case = json.loads(line)
        try:
            if case["op"] == "make":
                make(Path(case["dir"]))
                message = "made"
            elif case["op"] == "data":
                message = read_data(case["app"], case["path"])
            else:
                message = load_ckpt(case["codec"], case["dir"])
            answer = {"result": "ok", "message": message}
        except InputError as exc:
            answer = {"result": "refused", "message": str(exc)}
        except BaseException as exc:  # noqa: BLE001 - every other exception is a finding
            answer = {"result": "error",
                      "message": f"{type(exc).__name__}: {exc}"[:2000],
                      "traceback": traceback.format_exc()[-3000:]}
        print(json.dumps({"id": case["id"], **answer}), flush=True)


if __name__ == "__main__":
    main()
