"""Training behaviour: learning, resume after SIGTERM, NaN stop, failing rank, data, precision."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from workloads_testlib import REPO, TINY, base_env, needs_torch, run_app

pytestmark = needs_torch


@pytest.mark.parametrize("app", ["gpt", "anisosgs", "pointnet"])
def test_loss_falls_on_learnable_synthetic_task(app: str) -> None:
    res = run_app(app, *TINY, "--steps", "60", "--warmup", "1")
    assert res.returncode == 0, res.stderr
    out = res.result()
    assert out["final_loss"] < 0.75 * out["first_loss"], out


def _hash_of_uninterrupted(app: str, steps: int) -> str:
    res = run_app(app, *TINY, "--steps", str(steps), "--warmup", "1")
    assert res.returncode == 0, res.stderr
    return res.result()["param_sha256"]


def test_sigterm_checkpoint_and_resume_is_bit_identical(tmp_path: Path) -> None:
    app, steps = "pointnet", 40
    ckdir = tmp_path / "ckpt"
    args = [*TINY, "--steps", str(steps), "--warmup", "1", "--sync-every", "1",
            "--checkpoint-dir", str(ckdir), "--checkpoint-every", "7"]
    cmd = [sys.executable, "-m", f"workloads.{app}", *args, "--debug-step-sleep", "0.05"]
    proc = subprocess.Popen(cmd, cwd=REPO, env=base_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    seen = []
    for line in proc.stderr:  # wait until training is well under way
        seen.append(line)
        if line.startswith("[workloads] step 10/"):
            break
    else:
        pytest.fail("run ended before step 10:\n" + "".join(seen))
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    err = "".join(seen) + err
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert "received SIGTERM" in err and out.strip() == ""
    stopped = int(err.split("saved a checkpoint at step ")[1].split()[0])
    assert 10 <= stopped < steps
    assert (ckdir / f"step_{stopped:09d}" / "COMPLETE").is_file()

    res = run_app(app, *args)  # same command again: resumes
    assert res.returncode == 0, res.stderr
    resumed = res.result()
    assert resumed["resumed_from_step"] == stopped
    assert resumed["steps"] == steps
    assert resumed["param_sha256"] == _hash_of_uninterrupted(app, steps)


def test_incomplete_checkpoint_is_ignored(tmp_path: Path) -> None:
    ckdir = tmp_path / "ckpt"
    args = [*TINY, "--steps", "6", "--warmup", "1", "--checkpoint-dir", str(ckdir),
            "--checkpoint-every", "3"]
    assert run_app("anisosgs", *args).returncode == 0
    assert (ckdir / "step_000000006" / "COMPLETE").is_file()
    # a kill in the middle of writing step 9: directory without COMPLETE, truncated state
    broken = ckdir / "step_000000009"
    broken.mkdir()
    (broken / "state.pt").write_bytes(b"truncated")
    res = run_app("anisosgs", *[a if a != "6" else "8" for a in args])
    assert res.returncode == 0, res.stderr
    assert res.result()["resumed_from_step"] == 6


def test_nan_loss_stops_with_step_number() -> None:
    res = run_app("anisosgs", *TINY, "--steps", "20", "--warmup", "1", "--sync-every", "4",
                  "--inject-nan-at-step", "6")
    assert res.returncode == 3, res.stderr
    assert "loss became nan at step 6" in res.stderr
    assert res.json_lines() == []


def test_failing_rank_ends_job_promptly() -> None:
    t0 = time.monotonic()
    res = run_app("anisosgs", *TINY, "--steps", "500", "--warmup", "1", "--dist-timeout", "60",
                  "--debug-fail-at-step", "3", "--debug-fail-rank", "1", launcher="torchrun")
    assert res.returncode != 0
    assert "injected failure at step 3 on rank 1" in res.stderr
    assert time.monotonic() - t0 < 45


def test_dataset_on_disk_with_dataloader_workers(tmp_path: Path) -> None:
    data = tmp_path / "resnet_data"
    mk = run_app("resnet50", "--tiny", "--make-data", str(data), "--samples", "20",
                 "--shard-size", "8")
    assert mk.returncode == 0, mk.stderr
    assert sorted(p.name for p in data.glob("x_*.npy")) == [
        "x_00000.npy", "x_00001.npy", "x_00002.npy"]
    res = run_app("resnet50", "--tiny", "--device", "cpu", "--workers", "1", "--data",
                  str(data), "--steps", "12", "--warmup", "1")  # 12 steps > one epoch
    assert res.returncode == 0, res.stderr
    assert res.result()["data"] == str(data)
    bad = run_app("resnet50", "--device", "cpu", "--data", str(data), "--steps", "2")
    assert bad.returncode != 0 and "Regenerate it with the same --tiny" in bad.stderr


def test_gpt_reads_a_text_file(tmp_path: Path) -> None:
    text = tmp_path / "corpus.txt"
    text.write_text("the quick brown fox jumps over the lazy dog. " * 40)
    res = run_app("gpt", *TINY, "--data", str(text), "--steps", "5", "--warmup", "1")
    assert res.returncode == 0, res.stderr
    assert res.result()["final_loss"] > 0


def test_precisions_on_cpu() -> None:
    fp16 = run_app("anisosgs", *TINY, "--steps", "3", "--warmup", "1", "--precision", "fp16")
    assert fp16.returncode == 0, fp16.stderr
    out = fp16.result()
    assert (out["precision"], out["precision_requested"]) == ("bf16", "fp16")
    assert "fell back to bf16" in fp16.stderr
    tf32 = run_app("anisosgs", *TINY, "--steps", "3", "--warmup", "1", "--precision", "tf32")
    assert tf32.result()["precision"] == "fp32"
    assert "tf32 has no effect on the CPU" in tf32.result()["precision_note"]
    bf16 = run_app("cosmictagger", *TINY, "--steps", "3", "--warmup", "1", "--precision",
                   "bf16", "--channels-last")
    assert bf16.returncode == 0, bf16.stderr
    assert bf16.result()["precision"] == "bf16" and bf16.result()["channels_last"]


@pytest.mark.parametrize("mode", ["data", "compute"])
def test_modes(mode: str) -> None:
    res = run_app("unet3d", *TINY, "--steps", "4", "--warmup", "1", "--mode", mode)
    assert res.returncode == 0, res.stderr
    out = res.result()
    assert out["mode"] == mode and out["samples_per_sec"] > 0
    assert (out["final_loss"] is None) == (mode == "data")
