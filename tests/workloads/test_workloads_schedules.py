"""The originals' schedules and batching that issue 22 left out: PointNet's staircase learning
rate and batch-norm decay (charlesq34/pointnet part_seg/train.py), CosmicTagger's
``build_lr_schedule`` (coreyjadams/CosmicTagger src/utils/core/trainercore.py) and nanoGPT's
gradient accumulation (karpathy/nanoGPT train.py). Each formula is checked against an
independent transcription of the original's code, each resume is bit-identical, and the
accumulated gradient equals one large batch's, in one process and over 2 gloo ranks."""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from workloads_testlib import REPO, TINY, base_env, needs_torch

pytestmark = needs_torch


# ---------------------------------------------------------------- PointNet
def _tf_exponential_decay(rate0: float, global_step: int, decay_steps: float, decay_rate: float,
                          staircase: bool = True) -> np.float32:
    """TensorFlow 1's ``tf.train.exponential_decay`` as its source computes it: everything cast
    to the rate's dtype (float32), ``p = floor(global_step / decay_steps)``,
    ``rate0 * decay_rate ** p``."""
    f32 = np.float32
    p = f32(global_step) / f32(decay_steps)
    if staircase:
        p = np.floor(p)
    return f32(rate0) * np.power(f32(decay_rate), p)


def _part_seg_train(step: int, batch_size: int = 32) -> tuple[float, float]:
    """part_seg/train.py @2618f72 lines 52-62, 105-121, transcribed: (learning rate, PyTorch
    momentum = 1 - bn_decay) at optimizer step ``step`` (``batch`` before its update)."""
    decay_step, decay_rate, clip = 16881 * 20, 0.5, 1e-5
    bn_init, bn_rate, bn_step, bn_clip = 0.5, 0.5, float(16881 * 20 * 2), 0.99
    lr = np.maximum(_tf_exponential_decay(0.001, step * batch_size, decay_step, decay_rate),
                    np.float32(clip))
    bn_momentum = _tf_exponential_decay(bn_init, step * batch_size, bn_step, bn_rate)
    bn_decay = np.minimum(np.float32(bn_clip), np.float32(1) - bn_momentum)
    return float(lr), float(np.float32(1) - bn_decay)


def test_pointnet_recipe_is_part_seg_train() -> None:
    from workloads.pointnet.model import RECIPE
    from workloads.runtime.schedules import bn_momentum_at, lr_at

    assert (RECIPE.schedule, RECIPE.lr, RECIPE.decay_rate, RECIPE.decay_samples,
            RECIPE.min_lr) == ("staircase", 1e-3, 0.5, 337_620, 1e-5)
    assert (RECIPE.bn_momentum, RECIPE.bn_momentum_decay_rate,
            RECIPE.bn_momentum_decay_samples, RECIPE.bn_decay_clip) == (0.5, 0.5, 675_240, 0.99)
    # the steps around each halving at batch 32 (337,620 / 32 = 10,550.6) and the clips
    steps = [0, 1, 10_550, 10_551, 21_101, 21_102, 21_103, 42_202, 42_203, 63_303, 126_605,
             126_606, 200_000, 1_000_000]
    seen_lr, seen_bn = set(), set()
    for step in steps:
        lr, momentum = _part_seg_train(step)
        ours = lr_at(RECIPE, RECIPE.lr, step, 10, samples_per_step=32)
        assert np.float32(ours) == np.float32(lr), step
        assert bn_momentum_at(RECIPE, step * 32) == pytest.approx(momentum, rel=1e-6), step
        seen_lr.add(ours)
        seen_bn.add(round(bn_momentum_at(RECIPE, step * 32), 12))
    assert lr_at(RECIPE, 1e-3, 10_550, 10, 32) == 1e-3
    assert lr_at(RECIPE, 1e-3, 10_551, 10, 32) == 5e-4
    assert lr_at(RECIPE, 1e-3, 1_000_000, 10, 32) == 1e-5  # LEARNING_RATE_CLIP
    assert bn_momentum_at(RECIPE, 0) == 0.5
    assert bn_momentum_at(RECIPE, 21_102 * 32) == 0.25  # 675,264 samples: one decay
    assert bn_momentum_at(RECIPE, 1_000_000 * 32) == pytest.approx(0.01)  # BN_DECAY_CLIP 0.99
    assert len(seen_lr) >= 6 and len(seen_bn) >= 5


def _fast(recipe: Any) -> Any:
    """PointNet's recipe with decays every 2 and 3 steps of tiny's batch 8."""
    return dataclasses.replace(recipe, decay_samples=16, bn_momentum_decay_samples=24)


def test_the_schedule_sets_the_rate_and_every_batch_norm_momentum() -> None:
    import torch

    from workloads.pointnet.model import APP, RECIPE
    from workloads.runtime.optim import Schedule
    from workloads.runtime.schedules import bn_momentum_at

    model = APP.build_model(APP.sizes["tiny"])
    norms = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm1d)]
    assert len(norms) > 10
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    recipe = _fast(RECIPE)
    sched = Schedule(opt, recipe, 1e-3, 12, 10, samples_per_step=8, model=model)
    assert sched.apply is not None
    for i in (0, 1, 2, 3, 5, 6, 11):
        sched.apply(i)
        assert opt.param_groups[0]["lr"] == max(1e-5, 1e-3 * 0.5 ** (i * 8 // 16))
        want = 1 - min(0.99, 1 - 0.5 * 0.5 ** (i * 8 // 24))
        assert want == bn_momentum_at(recipe, i * 8)
        assert {m.momentum for m in norms} == {want}, i
    # without a momentum schedule the modules keep their own
    plain = Schedule(opt, dataclasses.replace(recipe, bn_momentum=0.0), 1e-3, 12, 10, 8, model)
    norms[0].momentum = 0.123
    assert plain.apply is not None
    plain.apply(11)
    assert norms[0].momentum == 0.123


def _args(app: Any, extra: list[str]) -> argparse.Namespace:
    from workloads.runtime.cli import build_parser

    return build_parser(app).parse_args([*TINY, "--warmup", "1", *extra])


def _resume_matches(app: Any, tmp: Path, steps: int, every: int, fail: int) -> dict[str, Any]:
    """Runs ``app`` whole, then dead at step ``fail`` and resumed from its last checkpoint;
    asserts both end with the same parameters and buffers; returns the whole run's result."""
    from workloads.runtime.train import run_training

    base = ["--steps", str(steps), "--loss-window", "4"]
    ck = ["--checkpoint-dir", str(tmp), "--checkpoint-every", str(every)]
    rc, whole = run_training(app, _args(app, base), emit_json=False)
    assert rc == 0 and whole is not None
    with pytest.raises(RuntimeError, match=f"injected failure at step {fail}"):
        run_training(app, _args(app, [*base, *ck, "--debug-fail-at-step", str(fail)]),
                     emit_json=False)
    rc, resumed = run_training(app, _args(app, [*base, *ck]), emit_json=False)
    assert rc == 0 and resumed is not None
    assert resumed["resumed_from_step"] == every * ((fail - 1) // every)
    assert resumed["param_sha256"] == whole["param_sha256"]
    assert resumed["final_loss_window_mean"] == whole["final_loss_window_mean"]
    return whole


@pytest.mark.slow
def test_pointnet_resumes_bit_identically_across_its_decays(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """Halvings at steps 2, 4, ... and momentum decays at 3, 6, 9 on both sides of the step-5
    checkpoint; the running statistics (in the hash) move with the scheduled momentum."""
    from workloads.pointnet.model import APP, RECIPE
    from workloads.runtime.train import run_training

    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    app = dataclasses.replace(APP, recipe=_fast(RECIPE))
    whole = _resume_matches(app, tmp_path, 10, 5, 8)
    assert whole["recipe"]["schedule"] == "staircase"
    constant_bn = dataclasses.replace(APP, recipe=dataclasses.replace(_fast(RECIPE),
                                                                      bn_momentum=0.0))
    rc, other = run_training(constant_bn, _args(constant_bn, ["--steps", "10"]), emit_json=False)
    assert rc == 0 and other is not None and other["param_sha256"] != whole["param_sha256"]


# ---------------------------------------------------------------- CosmicTagger
class _Trainer:
    """coreyjadams/CosmicTagger@156c480 src/utils/core/trainercore.py ``build_lr_schedule``
    (lines 143-208), transcribed with its default stages, on a stand-in ``self``."""

    def __init__(self, learning_rate: float, minibatch_size: int, train_data_size: float):
        self.args = argparse.Namespace(
            mode=argparse.Namespace(optimizer=argparse.Namespace(learning_rate=learning_rate)),
            run=argparse.Namespace(minibatch_size=minibatch_size))
        self._train_data_size = train_data_size

    def build_lr_schedule(self, learning_rate_schedule: Any = None) -> None:
        if learning_rate_schedule is None:
            learning_rate_schedule = {
                'warm_up': {'function': 'linear', 'start': 0, 'n_epochs': 1,
                            'initial_rate': 0.0001},
                'flat': {'function': 'flat', 'start': 1, 'n_epochs': 20},
                'decay': {'function': 'decay', 'start': 21, 'n_epochs': 4, 'floor': 0.0001,
                          'decay_rate': 0.999},
            }
        func_list = []
        cond_list = []
        for i, key in enumerate(learning_rate_schedule):
            start = learning_rate_schedule[key]['start']
            length = learning_rate_schedule[key]['n_epochs']
            if i + 1 == len(learning_rate_schedule):
                condition = lambda x, s=start, l=length: x >= s  # noqa: E731, E741
            else:
                condition = lambda x, s=start, l=length: x >= s and x < s + l  # noqa: E731, E741
            if learning_rate_schedule[key]['function'] == 'linear':
                initial_rate = learning_rate_schedule[key]['initial_rate']
                final_rate = self.args.mode.optimizer.learning_rate
                function = (lambda x, s=start, l=length, i=initial_rate, f=final_rate:  # noqa: E731, E741
                            np.interp(x, [s, s + l], [i, f]))
            elif learning_rate_schedule[key]['function'] == 'flat':
                rate = self.args.mode.optimizer.learning_rate
                function = lambda x: rate  # noqa: E731, B023 - late binding, as the original
            elif learning_rate_schedule[key]['function'] == 'decay':
                decay = learning_rate_schedule[key]['decay_rate']
                floor = learning_rate_schedule[key]['floor']
                rate = self.args.mode.optimizer.learning_rate
                function = (lambda x, s=start, d=decay, f=floor:  # noqa: E731
                            (rate - f) * np.exp(-(d * (x - s))) + f)  # noqa: B023
            cond_list.append(condition)
            func_list.append(function)
        self.lr_calculator = lambda x: np.piecewise(
            x * (self.args.run.minibatch_size / self._train_data_size),
            [c(x * (self.args.run.minibatch_size / self._train_data_size)) for c in cond_list],
            func_list)


@pytest.mark.parametrize(("batch", "events"), [(2, 1e6), (8, 1e6), (2, 64), (6, 100)])
def test_cosmictagger_schedule_is_build_lr_schedule(batch: int, events: float) -> None:
    """The rate of every step around the stage boundaries equals the original's
    ``lr_calculator(step)`` bit for bit (LambdaLR's factor on Adam's base rate 1.0: the torch
    trainer's rate of step ``step``), for the synthetic 1e6 events and small files."""
    from workloads.cosmictagger.config import RECIPE
    from workloads.runtime.schedules import lr_at

    original = _Trainer(3e-4, batch, events)
    original.build_lr_schedule()
    recipe = dataclasses.replace(RECIPE, epoch_samples=int(events))
    per_epoch = events / batch
    steps = {0, 1, 2, 3}
    for epoch in (0.5, 1, 2, 20, 21, 22, 25, 40):
        mid = int(epoch * per_epoch)
        steps |= {max(mid + d, 0) for d in (-2, -1, 0, 1, 2)}
    values = set()
    for step in sorted(steps):
        ours = lr_at(recipe, 3e-4, step, 1, samples_per_step=batch)
        assert ours == float(original.lr_calculator(step)), step
        values.add(ours)
    assert lr_at(recipe, 3e-4, 0, 1, batch) == 1e-4
    assert lr_at(recipe, 3e-4, math.ceil(2 * per_epoch), 1, batch) == 3e-4
    assert 1e-4 < lr_at(recipe, 3e-4, math.ceil(22 * per_epoch), 1, batch) < 3e-4
    assert len(values) > 10
    assert (RECIPE.warmup_lr, RECIPE.warmup_epochs, RECIPE.flat_epochs, RECIPE.decay_rate,
            RECIPE.min_lr, RECIPE.epoch_samples) == (1e-4, 1, 20, 0.999, 1e-4, 1_000_000)


@pytest.mark.slow
def test_cosmictagger_resumes_bit_identically_across_its_stages(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Epochs of 8 events (4 steps at batch 2): warm-up over steps 0-3, flat over 4-7, decay
    from 8 on, the checkpoint at step 5; the TensorFlow runtime's table gives the same rates."""
    from workloads.cosmictagger.config import RECIPE
    from workloads.cosmictagger.model import APP

    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    recipe = dataclasses.replace(RECIPE, epoch_samples=8, flat_epochs=1)
    whole = _resume_matches(dataclasses.replace(APP, recipe=recipe), tmp_path, 11, 5, 7)
    assert whole["recipe"]["schedule"] == "warmup_flat_decay"


def test_cosmictagger_counts_epochs_of_the_files_events(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """With --data PATH the epoch is the files' event count (the original's
    ``_train_data_size``: its larcv file's size), not the synthetic 1e6."""
    pytest.importorskip("h5py")
    from workloads.cosmictagger.model import APP
    from workloads.runtime.train import run_training

    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    APP.write_dataset(str(tmp_path), dict(APP.sizes["tiny"]), 12, 0)
    rc, out = run_training(APP, _args(APP, ["--steps", "2", "--data", str(tmp_path)]),
                           emit_json=False)
    assert rc == 0 and out is not None
    assert out["recipe"]["epoch_samples"] == 12


def test_tensorflow_gives_the_same_table() -> None:
    pytest.importorskip("tensorflow")
    from workloads.cosmictagger.config import RECIPE
    from workloads.pointnet.model import RECIPE as POINTNET
    from workloads.runtime.schedules import lr_at
    from workloads.tfruntime.backend import load, prepare
    from workloads.tfruntime.train import _rate

    prepare("fp32")
    for recipe in (dataclasses.replace(RECIPE, epoch_samples=8, flat_epochs=1),
                   _fast(POINTNET)):
        schedule = _rate(load(), recipe, 3e-4, 20, 2)
        for step in (0, 2, 3, 4, 7, 8, 9, 19, 25):
            assert float(schedule(step)) == pytest.approx(
                lr_at(recipe, 3e-4, min(step, 19), 20, 2), rel=1e-6)


# ---------------------------------------------------------------- nanoGPT's accumulation
def test_gpt_accumulates_40_micro_batches_over_the_ranks_as_nanogpt() -> None:
    from workloads.gpt.model import SIZES
    from workloads.runtime.loop import Logger
    from workloads.runtime.train import _grad_accum

    assert (SIZES["default"]["grad_accum"], SIZES["default"]["batch_size"]) == (40, 12)
    assert SIZES["gpt2"]["grad_accum"] == 40 and SIZES["tiny"]["grad_accum"] == 2
    log = Logger(1)  # rank 1: quiet
    none = argparse.Namespace(grad_accum=None)
    assert [_grad_accum(none, SIZES["default"], w, log) for w in (1, 2, 4, 8, 40)] == \
        [40, 20, 10, 5, 1]
    assert _grad_accum(none, SIZES["default"], 12, log) == 3  # nanoGPT would assert
    assert _grad_accum(argparse.Namespace(grad_accum=6), SIZES["default"], 2, log) == 3
    assert _grad_accum(none, {}, 4, log) == 1


def _one_sgd_step(accum: int, batch: Any, ddp: Any = None, model: Any = None) -> Any:
    """One runtime train step of tiny GPT with SGD at rate 1 (no momentum, no clipping): the
    parameters after it are the parameters minus the step's gradient."""
    import torch

    from workloads.gpt.model import APP
    from workloads.runtime.contract import Recipe
    from workloads.runtime.device import select_device
    from workloads.runtime.optim import Schedule
    from workloads.runtime.precision import setup_precision
    from workloads.runtime.train import _train_step

    if model is None:
        torch.manual_seed(0)
        model = APP.build_model(APP.sizes["tiny"])
    opt = torch.optim.SGD(model.parameters(), lr=1.0)
    recipe = Recipe(optimizer="sgd", lr=1.0)
    sched = Schedule(opt, recipe, 1.0, 1, 10)
    prec = setup_precision("fp32", select_device("cpu", 0))
    step = _train_step(APP, ddp if ddp is not None else model, opt, prec, sched, None, None,
                       accum, ddp)
    loss = step(batch, 0)
    return model, loss


def test_accumulated_micro_batches_give_one_large_batchs_gradient() -> None:
    import torch

    from workloads.gpt.model import APP

    task = APP.make_task(APP.sizes["tiny"], torch.device("cpu"))
    batch = task(torch.Generator().manual_seed(1), 8)
    big, big_loss = _one_sgd_step(1, batch)
    acc, acc_loss = _one_sgd_step(4, batch)  # 4 micro-batches of 2
    one, _ = _one_sgd_step(1, (batch[0][:2], batch[1][:2]))
    assert acc_loss.item() == pytest.approx(big_loss.item(), rel=1e-5)
    for (name, p), q in zip(big.named_parameters(), acc.parameters(), strict=True):
        torch.testing.assert_close(q, p, rtol=1e-5, atol=1e-6, msg=name)
    assert any(not torch.allclose(p, r)
               for p, r in zip(big.parameters(), one.parameters(), strict=True))


@pytest.mark.slow
def test_ddp_accumulation_syncs_once_and_matches_the_whole_batch(tmp_path: Path) -> None:
    """2 gloo ranks under torchrun, 2 micro-batches each: one all-reduce per step (counted by
    a communication hook), equal parameters on both ranks, and those of one process doing
    the 4 micro-batches alone."""
    import torch

    from workloads.gpt.model import APP

    worker = Path(__file__).with_name("accum_ddp_worker.py")
    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node",
           "2", str(worker), str(tmp_path)]
    p = subprocess.run(cmd, cwd=REPO, env=base_env(), capture_output=True, text=True,
                       timeout=180)
    assert p.returncode == 0, p.stderr[-3000:]
    ranks = [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in (0, 1)]
    assert [r["allreduce_calls"] for r in ranks] == [1, 1]  # 1 bucket, last micro-step only
    assert ranks[0]["params"] == ranks[1]["params"]
    assert ranks[0]["allreduce_calls_without_flag"] == 2  # the flag is what saves one
    task = APP.make_task(APP.sizes["tiny"], torch.device("cpu"))
    xs, ys = zip(*(task(torch.Generator().manual_seed(10 + r), 4) for r in (0, 1)), strict=True)
    alone, _ = _one_sgd_step(4, (torch.cat(xs), torch.cat(ys)))
    for p, q in zip(alone.parameters(), ranks[0]["params"], strict=True):
        torch.testing.assert_close(p.detach().flatten(), torch.tensor(q), rtol=1e-5, atol=1e-6)


@pytest.mark.slow
def test_result_counts_every_micro_batch(tmp_path: Path) -> None:
    """samples/s, tokens/s and the global batch count all micro-batches (MFU is counted FLOPs
    per sample x samples/s); a run resumed across accumulated steps is bit-identical."""
    from workloads.gpt.model import APP

    whole = _resume_matches(APP, tmp_path, 9, 4, 6)
    assert whole["gradient_accumulation_steps"] == 2 and whole["batch_size"] == 2
    assert whole["global_batch_size"] == 4
    rate = 4 * whole["timed_steps"] / whole["elapsed_s"]
    assert whole["samples_per_sec"] == pytest.approx(rate, rel=1e-9)
    assert whole["tokens_per_s"] == pytest.approx(rate * 16, rel=1e-9)
