"""Issue 22's runtime: named configurations, the originals' recipes (optimizer, schedule,
clipping) and their resume, --describe, the originals' data formats through make-data, the
input-pipeline trials and the figures the originals report (unit/s, MFU, windowed loss,
data-loader share)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from workloads_testlib import TINY, needs_tf, needs_torch, run_app

pytestmark = needs_torch


# ---------------------------------------------------------------- --describe, --config
@pytest.mark.slow
def test_describe_prints_one_json_line_without_training() -> None:
    res = run_app("gpt", "--describe", "--config", "tiny")
    assert res.returncode == 0, res.stderr
    [line] = res.stdout.splitlines()
    d = json.loads(line)
    assert (d["app"], d["config"], d["unit"], d["units_per_sample"]) == ("gpt", "tiny",
                                                                         "tokens", 16.0)
    assert d["params"] > 0 and d["train_flops_per_sample"] > 0
    assert "FlopCounterMode" in d["flops_method"] and "divided by 2" in d["flops_method"]
    assert (d["input_shape"], d["input_dtype"], d["target_shape"]) == ([16], "int64", [16])
    assert d["source"]["repository"] == "karpathy/nanoGPT" and len(d["source"]["commit"]) == 40
    assert d["recipe"]["optimizer"] == "adamw" and d["recipe"]["schedule"] == "warmup_cosine"
    assert "step " not in res.stderr  # nothing trained


@pytest.mark.slow
def test_config_selects_a_preset_and_an_unknown_one_lists_them() -> None:
    gpt2 = json.loads(run_app("gpt", "--describe", "--config", "gpt2").stdout)
    assert (gpt2["config"], gpt2["params"]) == ("gpt2", 124_439_808)
    bad = run_app("gpt", "--config", "gpt3", "--steps", "1")
    assert bad.returncode == 2 and bad.stdout == ""
    assert "invalid choice: 'gpt3' (choose from 'default', 'gpt2', 'tiny')" in bad.stderr
    both = run_app("gpt", "--tiny", "--config", "gpt2", "--steps", "1")
    assert both.returncode == 2 and "--tiny means --config tiny" in both.stderr


@pytest.mark.slow
def test_a_config_carries_its_batch_and_recipe_and_the_checkpoint_records_it(
        tmp_path: Path) -> None:
    out = run_app("gpt", *TINY, "--steps", "3", "--warmup", "1", "--checkpoint-dir",
                  str(tmp_path)).result()
    assert (out["config"], out["size"], out["batch_size"]) == ("tiny", "tiny", 2)
    assert out["recipe"]["warmup_steps"] == 5 and out["lr"] == pytest.approx(3e-3)
    # lr is the base rate; lr_last the rate the last step (2) trained at: get_lr's warm-up
    # ramp learning_rate * (it + 1) / (warmup_iters + 1)
    assert out["lr_last"] == pytest.approx(3e-3 * 3 / 6)
    import torch

    state = torch.load(tmp_path / "step_000000003" / "state.pt", weights_only=True)
    assert state["meta"]["size"] == "tiny"
    assert state["meta"]["config"]["vocab"] == 64 and "recipe" not in state["meta"]["config"]
    assert state["schedule"]["schedule"] == "warmup_cosine"


# ---------------------------------------------------------------- recipes
def test_warmup_cosine_is_nanogpts_get_lr() -> None:
    """train.py get_lr(it) at nanoGPT's defaults, written out here from its source."""
    from workloads.gpt.model import RECIPE
    from workloads.runtime.optim import lr_at

    def get_lr(it: int) -> float:
        lr, warmup, decay, low = 6e-4, 2000, 600000, 6e-5
        if it < warmup:
            return lr * (it + 1) / (warmup + 1)
        if it > decay:
            return low
        ratio = (it - warmup) / (decay - warmup)
        return low + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (lr - low)

    for it in (0, 1, 999, 1999, 2000, 2001, 300000, 599999, 600000, 600001, 700000):
        assert lr_at(RECIPE, RECIPE.lr, it, 100) == pytest.approx(get_lr(it), rel=1e-12), it


def test_lr_scales_with_the_global_batch_where_the_recipe_says() -> None:
    from workloads.resnet50.model import RECIPE
    from workloads.runtime.contract import Recipe

    assert RECIPE.scaled_lr(256) == pytest.approx(0.1)
    assert RECIPE.scaled_lr(32 * 64) == pytest.approx(0.8)  # 64 ranks x 32
    sqrt = Recipe(lr=2e-4, lr_scaling="sqrt", lr_reference_batch=64)
    assert sqrt.scaled_lr(256) == pytest.approx(4e-4)
    with pytest.raises(ValueError, match="lr_reference_batch"):
        Recipe(lr_scaling="linear")
    with pytest.raises(ValueError, match="unknown optimizer 'lamb'"):
        Recipe(optimizer="lamb")


@pytest.mark.parametrize("optimizer", ["adamw", "adam", "sgd"])
@pytest.mark.parametrize("impl", ["foreach", "fused", "for-loop"])
def test_optimizer_impl_reaches_every_recipe_optimizer(optimizer: str, impl: str) -> None:
    import torch

    from workloads.runtime.contract import Recipe
    from workloads.runtime.optim import make_optimizer

    model = torch.nn.Linear(4, 2)
    opt = make_optimizer(model.parameters(), Recipe(optimizer=optimizer, momentum=0.9), 0.1,
                         impl)
    expected = {"foreach": ("foreach", True), "fused": ("fused", True),
                "for-loop": ("foreach", False)}[impl]
    assert opt.defaults[expected[0]] is expected[1]
    model(torch.randn(3, 4)).sum().backward()
    opt.step()


def test_weight_decay_only_on_matrices_as_nanogpt() -> None:
    import torch

    from workloads.gpt.model import RECIPE, build_model
    from workloads.runtime.optim import make_optimizer

    cfg = {"vocab": 64, "seq_len": 8, "layers": 1, "heads": 2, "dim": 16, "dropout": 0.0,
           "bias": True}
    opt = make_optimizer(build_model(cfg).parameters(), RECIPE, 6e-4, "for-loop")
    decay, no_decay = opt.param_groups
    assert decay["weight_decay"] == 0.1 and no_decay["weight_decay"] == 0.0
    assert all(p.dim() >= 2 for p in decay["params"])
    assert all(p.dim() < 2 for p in no_decay["params"]) and no_decay["params"]
    assert isinstance(opt, torch.optim.AdamW) and opt.defaults["betas"] == (0.9, 0.95)


@pytest.mark.slow
def test_scheduled_recipe_resumes_bit_identically(tmp_path: Path) -> None:
    """GPT's recipe (warm-up + cosine, clipping, two weight-decay groups): a run that died
    after its step-10 checkpoint and was restarted ends with the parameters of one that did
    not, and reports the same windowed losses."""
    args = [*TINY, "--steps", "24", "--warmup", "1", "--loss-window", "5"]
    whole = run_app("gpt", *args).result()
    ck = ["--checkpoint-dir", str(tmp_path), "--checkpoint-every", "10"]
    died = run_app("gpt", *args, *ck, "--debug-fail-at-step", "14")
    assert died.returncode != 0 and "injected failure at step 14" in died.stderr
    resumed = run_app("gpt", *args, *ck).result()
    assert resumed["resumed_from_step"] == 10
    assert resumed["param_sha256"] == whole["param_sha256"]
    assert resumed["final_loss_window_mean"] == whole["final_loss_window_mean"]
    assert resumed["first_loss_window_mean"] == whole["first_loss_window_mean"]


def _plateau_args(tmp: Path | None, fail_at: int | None) -> argparse.Namespace:
    from workloads.runtime.cli import build_parser

    argv = [*TINY, "--steps", "40", "--warmup", "1", "--loss-window", "4", "--sync-every", "7"]
    if tmp is not None:
        argv += ["--checkpoint-dir", str(tmp), "--checkpoint-every", "10"]
    if fail_at is not None:
        argv += ["--debug-fail-at-step", str(fail_at)]
    return build_parser(_plateau_spec()).parse_args(argv)


def _plateau_spec():
    from workloads.anisosgs.model import APP
    from workloads.runtime.contract import Recipe

    recipe = Recipe(optimizer="adam", lr=0.05, schedule="plateau", factor=0.5, patience=0)
    return dataclasses.replace(APP, recipe=recipe)


def test_plateau_reacts_to_the_windowed_loss_and_resumes_bit_identically(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ReduceLROnPlateau on 4-step windows (a host sync at every window end, whatever
    --sync-every and --checkpoint-every say), all ranks deciding on the same mean; its state
    and the window in progress are checkpointed."""
    import torch

    from workloads.runtime import optim
    from workloads.runtime.train import run_training

    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    seen: list[float] = []
    real = optim.Schedule.window_loss
    monkeypatch.setattr(optim.Schedule, "window_loss",
                        lambda self, mean: (seen.append(mean), real(self, mean))[1])
    rc, whole = run_training(_plateau_spec(), _plateau_args(None, None), emit_json=False)
    assert rc == 0 and whole is not None
    assert len(seen) == 10  # steps 4, 8, ..., 40
    with pytest.raises(RuntimeError, match="injected failure at step 23"):
        run_training(_plateau_spec(), _plateau_args(tmp_path, 23), emit_json=False)
    rc, resumed = run_training(_plateau_spec(), _plateau_args(tmp_path, None), emit_json=False)
    assert rc == 0 and resumed is not None and resumed["resumed_from_step"] == 20
    assert resumed["param_sha256"] == whole["param_sha256"]
    state = torch.load(tmp_path / "step_000000040" / "state.pt", weights_only=True)
    assert state["schedule"]["plateau"]["num_bad_epochs"] is not None
    lrs = [g["lr"] for g in state["optimizer"]["param_groups"]]
    assert lrs[0] < 0.05  # the plateau did lower the rate


# ---------------------------------------------------------------- data formats, trials
@pytest.mark.slow
def test_each_original_format_is_written_and_read(tmp_path: Path) -> None:
    gpt, sgs, rn = tmp_path / "gpt", tmp_path / "sgs", tmp_path / "rn"
    assert run_app("gpt", "--tiny", "--make-data", str(gpt), "--samples", "40").returncode == 0
    tokens = np.memmap(gpt / "train.bin", dtype=np.uint16, mode="r")
    assert len(tokens) == 40 * 16 + 1 and tokens.max() < 64 and (gpt / "val.bin").is_file()
    assert run_app("anisosgs", "--make-data", str(sgs), "--samples", "64").returncode == 0
    assert np.load(sgs / "train.npy").shape == (64, 12)
    assert run_app("resnet50", "--tiny", "--make-data", str(rn), "--samples", "24"
                   ).returncode == 0
    jpegs = sorted((rn / "train").glob("*/*.JPEG"))
    assert len(jpegs) == 24 and jpegs[0].read_bytes()[:2] == b"\xff\xd8"  # JPEG files
    for app, data in (("gpt", gpt), ("anisosgs", sgs), ("resnet50", rn)):
        res = run_app(app, *TINY[:3], "--workers", "2", "--data", str(data), "--steps", "6",
                      "--warmup", "1")
        assert res.returncode == 0, res.stderr
        out = res.result()
        assert out["data"] == str(data) and math.isfinite(out["final_loss"]), app
        assert 0 <= out["data_wait_share"] <= 1


def test_image_folder_transforms_are_the_references() -> None:
    from workloads.resnet50.model import crop_params

    rng = np.random.default_rng(0)
    for _ in range(200):
        top, left, h, w = crop_params(rng, 500, 375)
        assert 0 <= top and 0 <= left and top + h <= 375 and left + w <= 500
        assert 0.08 * 500 * 375 * 0.9 <= h * w <= 500 * 375
    # a sliver: ten tries fail, the central crop at the nearest allowed ratio
    assert crop_params(np.random.default_rng(1), 1000, 10, scale=(0.99, 1.0)) == (0, 493, 10, 13)


@pytest.mark.slow
@pytest.mark.parametrize("app", ["unet3d", "resnet50"])
def test_trials_run_io_synthetic_and_full_in_one_run(app: str, tmp_path: Path) -> None:
    """SC22's benchy trials on the CPU, on files make-data wrote: three figures."""
    data = tmp_path / "data"
    mk = run_app(app, "--tiny", "--make-data", str(data), "--samples", "48")
    assert mk.returncode == 0, mk.stderr
    res = run_app(app, *TINY[:3], "--workers", "1", "--data", str(data), "--trials",
                  "--steps", "6", "--warmup", "1")
    assert res.returncode == 0, res.stderr
    line = re.search(r"trials \(samples/s\): io ([\d.e+]+), synthetic ([\d.e+]+), "
                     r"full ([\d.e+]+) \(disk data\)", res.stderr)
    assert line, res.stderr
    out = res.result()
    assert out["mode"] == "trials" and out["trials"]["data"] == "disk"
    for trial in ("io", "synthetic", "full"):
        assert out["trials"][f"{trial}_samples_per_sec"] > 0
    assert out["samples_per_sec"] == out["trials"]["full_samples_per_sec"]
    print(app, "trials:", line.group(0), file=sys.stderr)


# ---------------------------------------------------------------- the originals' figures
@pytest.mark.slow
def test_result_reports_the_unit_mfu_and_the_loaders_share() -> None:
    out = run_app("gpt", *TINY, "--steps", "5", "--warmup", "1").result()
    assert out["unit"] == "tokens"
    assert out["tokens_per_s"] == out["units_per_sec"] == pytest.approx(
        out["samples_per_sec"] * 16)
    assert out["train_flops_per_sample"] > 0 and out["mfu"] is None
    assert out["mfu_note"].startswith("no MFU on the CPU")
    assert 0 <= out["data_wait_share"] <= 1 and out["data_wait_s"] >= 0


def test_device_peaks_and_mfu() -> None:
    from workloads.runtime.metrics import LossTrack, mfu, peak_for

    assert peak_for("NVIDIA H100 80GB HBM3", "cuda", "bf16")[0] == pytest.approx(989.4e12)
    assert peak_for("NVIDIA H100 PCIe", "cuda", "bf16")[0] == pytest.approx(756e12)
    assert peak_for("NVIDIA A100-SXM4-40GB", "cuda", "tf32")[0] == pytest.approx(156e12)
    assert peak_for("AMD Instinct MI250X", "cuda", "bf16")[0] == pytest.approx(191.5e12)
    assert peak_for("Intel(R) Data Center GPU Max 1550", "xpu", "bf16")[0] == \
        pytest.approx(419.4e12)
    none, why = peak_for("NVIDIA GeForce RTX 4090", "cuda", "bf16")
    assert none is None and "no peak in the table" in why
    # nanoGPT's GPT-2 at 12 sequences in 0.1 s on 8 A100s in bf16
    assert mfu(875.2e9, 120.0, 312e12, 8) == pytest.approx(875.2e9 * 120 / (312e12 * 8))
    track = LossTrack(3)
    track.add(1, [4.0, 3.0, 2.0, 1.0])
    track.add(5, [0.5, 0.5])
    assert (track.first_mean(), track.last_mean()) == (3.0, pytest.approx(2 / 3))


@needs_tf
@pytest.mark.slow
def test_tensorflow_honours_the_recipe_schedule() -> None:
    """The TensorFlow runtime's warm-up + cosine is the same function of the step."""
    from workloads.gpt.model import RECIPE
    from workloads.runtime.optim import lr_at
    from workloads.tfruntime.backend import load, prepare
    from workloads.tfruntime.train import _rate

    prepare("fp32")
    recipe = dataclasses.replace(RECIPE, warmup_steps=5, decay_steps=0)
    schedule = _rate(load(), recipe, 1e-3, 20)
    for step in (0, 3, 5, 6, 12, 19):
        assert float(schedule(step)) == pytest.approx(lr_at(recipe, 1e-3, step, 20), rel=1e-5)


def test_run_flops_share_a_cost_that_does_not_grow_with_the_batch():
    """qcnn's quadrature filters cost the same per step at any batch: the result line's FLOPs
    per sample (and so its MFU) are those of the run's batch, not of the batch of 2 that
    --describe counts; a model whose work is all per sample gets the same figure at any batch."""
    pytest.importorskip("torch")
    from workloads.anisosgs.model import APP as ANISO
    from workloads.qcnn.model import APP as QCNN
    from workloads.runtime.flops import train_flops, train_flops_at

    cfg = dict(QCNN.sizes["tiny"])
    at2 = train_flops(QCNN, cfg)[1]
    assert train_flops_at(QCNN, cfg, 2) == at2
    at1, at4 = train_flops_at(QCNN, cfg, 1), train_flops_at(QCNN, cfg, 4)
    assert at1 > at2 > at4  # the fixed part is shared by more samples
    assert abs((at1 - at2) - 2 * (at2 - at4)) <= 2  # fixed / B: 1 - 1/2 = 2 x (1/2 - 1/4)
    cfg = dict(ANISO.sizes["tiny"])
    assert {train_flops_at(ANISO, cfg, b) for b in (1, 2, 32)} == {train_flops(ANISO, cfg)[1]}
