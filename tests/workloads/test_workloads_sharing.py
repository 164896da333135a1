"""Several processes per device in the runtime: never NCCL on a shared GPU, independent
instances (own seed, checkpoints, result file), and the model moved after the DDP wrapper."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from workloads_testlib import REPO, TINY, base_env, free_port, needs_torch, run_app

pytestmark = needs_torch


def _cuda_device():
    import torch

    from workloads.runtime.device import DeviceInfo

    # Describes a CUDA device without touching one: backend choice and the guard only.
    return DeviceInfo(torch.device("cuda", 0), "cuda", "a GPU", "cuda", False)


def test_ranks_sharing_a_gpu_get_gloo_and_never_nccl(monkeypatch) -> None:
    from workloads.runtime.distributed import DistEnv, backend_for, init_distributed

    dev = _cuda_device()
    assert backend_for(dev) == "nccl" and backend_for(dev, 2) == "gloo"
    monkeypatch.setenv("JOBGEN_RANKS_PER_DEVICE", "2")
    with pytest.raises(RuntimeError, match="Duplicate GPU detected.*--dist-backend gloo"):
        init_distributed(DistEnv(0, 0, 2, 2, "torchrun"), dev, 5.0, "nccl")


@pytest.mark.slow
def test_instance_has_its_own_seed_checkpoints_and_result_file(tmp_path: Path) -> None:
    result_file = tmp_path / "results" / "instance-3.json"
    env = base_env(JOBGEN_INSTANCE="3", JOBGEN_INSTANCES="4",
                   JOBGEN_RESULT_FILE=str(result_file))
    res = run_app("qcnn", *TINY, "--steps", "6", "--warmup", "2", "--seed", "10",
                  "--checkpoint-dir", str(tmp_path / "ckpt"), env=env)
    assert res.returncode == 0, res.stderr
    out = res.result()
    assert (out["instance"], out["instances"], out["seed"]) == (3, 4, 13)
    assert json.loads(result_file.read_text()) == out
    assert list((tmp_path / "ckpt" / "instance-3").glob("step_*/COMPLETE"))
    assert "[workloads instance 3]" in res.stderr
    other = run_app("qcnn", *TINY, "--steps", "6", "--warmup", "2", "--seed", "10",
                    env=base_env(JOBGEN_INSTANCE="0", JOBGEN_INSTANCES="4"))
    assert other.result()["param_sha256"] != out["param_sha256"], "instances differ"


AFTER_DDP = """
import sys
from workloads.qcnn.model import APP
from workloads.runtime import train
from workloads.runtime.cli import main

# The XPU-with-CCS order (model to the device only after DDP), forced on the CPU.
train._model_after_ddp = lambda dev, ctx, args: ctx.enabled and args.mode != "data"
main(APP, sys.argv[1:])
"""


def _torchrun(target: list[str], *args: str) -> dict:
    cmd = [sys.executable, "-m", "torch.distributed.run", "--nnodes", "1", "--nproc_per_node",
           "2", "--master_addr", "127.0.0.1", "--master_port", str(free_port()), *target, *args]
    res = subprocess.run(cmd, cwd=REPO, env=base_env(), capture_output=True, text=True,
                         timeout=180)
    assert res.returncode == 0, res.stderr[-3000:]
    lines = [json.loads(x) for x in res.stdout.splitlines() if x.startswith("{")]
    assert len(lines) == 1, res.stdout
    return lines[0]


@pytest.mark.slow
def test_model_moved_after_the_ddp_wrapper_trains_and_resumes_identically(tmp_path) -> None:
    """The order ALCF prescribes for several ranks per tile gives the same training as the
    usual order (2 gloo ranks, CPU), also across a resume from a checkpoint."""
    after = tmp_path / "after.py"
    after.write_text(AFTER_DDP)
    args = [*TINY, "--warmup", "1"]
    reference = _torchrun(["-m", "workloads.qcnn"], *args, "--steps", "8")
    ckpt = str(tmp_path / "ckpt")
    _torchrun([str(after)], *args, "--steps", "4", "--checkpoint-dir", ckpt)
    resumed = _torchrun([str(after)], *args, "--steps", "8", "--checkpoint-dir", ckpt)
    assert resumed["resumed_from_step"] == 4
    assert resumed["param_sha256"] == reference["param_sha256"]
