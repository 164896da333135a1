"""Overhead of the workloads runtime against a bare hand-written PyTorch loop.

For each app, the same model (same seed), same batch size and same number of steps run twice in
this process, alternating, several repeats:

* bare:    ``zero_grad -> forward -> loss -> backward -> step`` on one fixed batch, with a single
           device sync at the end;
* runtime: ``workloads.runtime.train.run_training`` in ``--mode compute`` (one fixed synthetic
           batch), i.e. with its autocast context, step timing, loss window, NaN and signal
           checks, periodic host syncs and final result assembly.

With ``--train-mode`` the comparison is repeated in ``--mode train`` (a fresh synthetic batch per
step) against a bare loop that generates batches with the same task function.

The reported ratio is runtime time per step / bare time per step (best of the repeats);
the target is a runtime cost under 3 % (ratio < 1.03).

``--clock cpu`` measures this thread's CPU time instead of the wall clock: each loop runs
``steps`` and ``2 * steps`` steps and the difference, divided by ``steps``, is the CPU time of
one step with every start-up and final cost cancelled out; the median of the repeats is
reported. On a shared machine it is unmoved by other processes' load, and on a GPU it is the
host work per step, what a launch-bound app (qcnn on the H100) pays in full.

    python benchmarks/workloads_overhead.py [--apps gpt,resnet50] [--size tiny|default]
        [--device cpu|cuda|xpu|auto] [--steps 60] [--warmup 5] [--repeats 5] [--batch-size N]
        [--clock wall|cpu]
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402

from workloads import APPS  # noqa: E402
from workloads.runtime.cli import build_parser  # noqa: E402
from workloads.runtime.data import mix_seed  # noqa: E402
from workloads.runtime.device import select_device  # noqa: E402
from workloads.runtime.spec import AppSpec  # noqa: E402
from workloads.runtime.train import run_training  # noqa: E402


def bare_loop(spec: AppSpec, cfg: dict[str, Any], device: torch.device, batch: int,
              steps: int, warmup: int, lr: float, fresh_batches: bool) -> float:
    """Seconds per step of a minimal training loop."""
    torch.manual_seed(0)
    model = spec.build_model(cfg).to(device)
    model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=lr)
    task = spec.make_task(cfg, device)
    gen = torch.Generator(device=device)
    gen.manual_seed(mix_seed(0, 0, 0))
    x, y = task(gen, batch)
    t0 = 0.0
    for i in range(warmup + steps):
        if i == warmup:
            synchronize_dev(device)
            t0 = time.perf_counter()
        if fresh_batches:
            gen.manual_seed(mix_seed(0, 0, i))
            x, y = task(gen, batch)
        opt.zero_grad(set_to_none=True)
        loss = spec.loss_fn(model(x), y)
        loss.backward()
        opt.step()
    synchronize_dev(device)
    return (time.perf_counter() - t0) / steps


def synchronize_dev(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    elif device.type == "xpu":
        torch.xpu.synchronize(device)


def runtime_loop(spec: AppSpec, args_list: list[str]) -> float:
    args = build_parser(spec).parse_args(args_list)
    rc, result = run_training(spec, args, emit_json=False)
    assert rc == 0 and result is not None
    return result["elapsed_s"] / result["timed_steps"]


def cpu_per_step(run: Callable[[int], object], steps: int) -> float:
    """This thread's CPU seconds per step: runs of `steps` and `2 * steps`, differenced."""
    t0 = time.thread_time()
    run(steps)
    t1 = time.thread_time()
    run(2 * steps)
    t2 = time.thread_time()
    return ((t2 - t1) - (t1 - t0)) / steps


def measure(spec: AppSpec, cfg: dict[str, Any], dev: torch.device, batch: int, mode: str,
            a: argparse.Namespace) -> tuple[float, float]:
    """(bare, runtime) seconds per step, one repeat, on the chosen clock."""
    fresh = mode == "train"

    def args_for(steps: int) -> list[str]:
        return (["--device", a.device, "--mode", mode, "--steps", str(steps + a.warmup),
                 "--warmup", str(a.warmup), "--batch-size", str(batch), "--sync-every", "20"]
                + (["--tiny"] if a.size == "tiny" else []))

    if a.clock == "cpu":
        bare = cpu_per_step(lambda n: bare_loop(spec, cfg, dev, batch, n, a.warmup, spec.lr,
                                                fresh), a.steps)
        return bare, cpu_per_step(lambda n: runtime_loop(spec, args_for(n)), a.steps)
    return (bare_loop(spec, cfg, dev, batch, a.steps, a.warmup, spec.lr, fresh),
            runtime_loop(spec, args_for(a.steps)))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--apps", default=",".join(APPS))
    p.add_argument("--size", choices=("tiny", "default"), default="tiny")
    p.add_argument("--device", default="cpu")
    p.add_argument("--steps", type=int, default=60)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--batch-size", type=int, default=None)
    p.add_argument("--train-mode", action="store_true",
                   help="also compare --mode train (fresh synthetic batch every step)")
    p.add_argument("--json", action="store_true", help="print one JSON line per app")
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help="wall: elapsed time per step; cpu: this thread's CPU time per step "
                        "(differenced runs; host work only on a GPU)")
    a = p.parse_args()
    dev = select_device(a.device, 0)
    modes = ["compute", "train"] if a.train_mode else ["compute"]
    print(f"device {dev.name} [{dev.type}], torch {torch.__version__}, "
          f"{torch.get_num_threads()} threads, size {a.size}, {a.steps} steps x {a.repeats}, "
          f"{a.clock} clock",
          file=sys.stderr)
    header = f"{'app':<13}{'mode':<9}{'batch':>6}{'bare ms':>10}{'runtime ms':>12}{'ratio':>8}"
    print(header)
    worst = 0.0
    for app in a.apps.split(","):
        spec: AppSpec = importlib.import_module(f"workloads.{app}.model").APP
        cfg = dict(spec.sizes[a.size])
        batch = a.batch_size or (spec.tiny_batch_size if a.size == "tiny"
                                 else spec.default_batch_size)
        for mode in modes:
            bare, rt = [], []
            for _ in range(a.repeats):  # alternate to share machine noise fairly
                one_bare, one_rt = measure(spec, cfg, dev.device, batch, mode, a)
                bare.append(one_bare)
                rt.append(one_rt)
            # best of the repeats on the wall clock; the median of the differenced CPU times
            # (a difference has noise on both sides, so its minimum is biased low)
            agg = statistics.median if a.clock == "cpu" else min
            b, r = agg(bare), agg(rt)
            ratio = r / b
            worst = max(worst, ratio)
            print(f"{app:<13}{mode:<9}{batch:>6}{b * 1e3:>10.3f}{r * 1e3:>12.3f}{ratio:>8.3f}")
            if a.json:
                print(json.dumps({"app": app, "mode": mode, "batch_size": batch,
                                  "bare_ms": b * 1e3, "runtime_ms": r * 1e3, "ratio": ratio,
                                  "clock": a.clock}))
            sys.stdout.flush()
    print(f"worst ratio {worst:.3f} (target < 1.03)")


if __name__ == "__main__":
    main()
