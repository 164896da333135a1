"""The TensorFlow versions of cosmictagger and ffn, run as real processes on the CPU: one
process, two MultiWorkerMirroredStrategy workers (one host, and "two hosts" meeting at
MASTER_ADDR), Horovod over MPICH when the opt-in build is installed, checkpoint and resume,
the NaN guard, precisions and XLA."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import python3_in
from workloads_testlib import (
    MPIEXEC,
    REPO,
    TF,
    TINY,
    Result,
    base_env,
    free_port,
    listening_on,
    needs_horovod,
    needs_mpich,
    needs_tf,
    run_app,
)

from workloads.runtime.loop import RESULT_KEYS

TF_APPS = ["cosmictagger", "ffn"]
TIMEOUT = 600  # importing TensorFlow alone takes 5-20 s on a loaded 2-core machine


def _check(res: Result, app: str, world: int, steps: int) -> dict:
    assert res.returncode == 0, res.stderr[-4000:]
    out = res.result()
    # the PyTorch apps' keys, in the same order (then <unit>_per_s for an app with a unit)
    assert tuple(out)[:len(RESULT_KEYS)] == RESULT_KEYS
    assert (out["app"], out["framework"], out["device"]) == (app, "tensorflow", "cpu")
    assert (out["world_size"], out["steps"]) == (world, steps)
    assert out["samples_per_sec"] > 0 and out["peak_mem_mb"] is None
    assert out["first_loss"] > 0 and out["final_loss"] > 0
    return out


def _spawn(app: str, args: list[str], rank: int, world: int, local_world: int, port: int,
           **env: str) -> subprocess.Popen:
    """One rank as the jobgen wrapper starts it: RANK, LOCAL_RANK, WORLD_SIZE, MASTER_*."""
    e = base_env(RANK=str(rank), LOCAL_RANK=str(rank % local_world), WORLD_SIZE=str(world),
                 LOCAL_WORLD_SIZE=str(local_world), MASTER_ADDR="127.0.0.1",
                 MASTER_PORT=str(port), **env)
    return subprocess.Popen([sys.executable, "-m", f"workloads.{app}", *TF, *args], cwd=REPO,
                            env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish(procs: list[subprocess.Popen]) -> list[Result]:
    done = [p.communicate(timeout=TIMEOUT) for p in procs]
    return [Result(p.returncode, out, err) for p, (out, err) in zip(procs, done, strict=True)]


# ---------------------------------------------------------------- command line, no TensorFlow
def test_framework_flag_is_refused_where_there_is_no_such_version() -> None:
    gpt = run_app("gpt", *TF, "--steps", "1")
    assert gpt.returncode == 2 and "invalid choice: 'tensorflow'" in gpt.stderr
    disk = run_app("ffn", *TF, "--data", "/nonexistent")
    assert disk.returncode == 2
    assert len(disk.stderr.strip().splitlines()) == 1  # one line, no usage block
    assert ("the TensorFlow version trains on --data synthetic only (datasets on disk: the "
            "PyTorch version)") in disk.stderr
    bad = run_app("ffn", "--framework", "jax")
    assert bad.returncode == 2 and "invalid choice: 'jax'" in bad.stderr


def test_pytorch_only_options_are_refused_by_the_tensorflow_parser_at_render_time() -> None:
    """jobgen checks --app-args with the TensorFlow version's own parser (no framework
    imported): PyTorch-only options are exit 2 before anything is submitted."""
    from workloads.runtime.cli import check_args

    for bad in (["--optimizer-impl", "foreach"], ["--batch-size", "auto"], ["--pin-memory"]):
        ns, error = check_args("ffn", ["--framework", "tensorflow", *bad], "tensorflow")
        assert ns is None and error, bad
        ns, error = check_args("ffn", bad, "pytorch")
        assert error is None, (bad, error)
    ns, error = check_args("ffn", ["--framework", "tensorflow", "--xla"], "tensorflow")
    assert error is None and ns.compile is True


@pytest.mark.slow
@needs_tf
def test_check_imports_tensorflow_says_ready_in_one_line_and_trains_nothing() -> None:
    res = run_app("ffn", *TF, *TINY, "--check", "--xla", timeout=TIMEOUT)
    assert res.returncode == 0 and res.stdout == "", res.stderr[-2000:]
    ready = [ln for ln in res.stderr.splitlines() if ln.startswith("[workloads]")]
    assert len(ready) == 1 and ready[0].startswith("[workloads] ffn ready: tensorflow "), ready


_WITHOUT = """
import runpy, sys
for name in sys.argv[1].split(","):
    sys.modules[name] = None  # as on a Python where it is not installed
sys.argv = ["ffn", *sys.argv[2:]]
runpy.run_module("workloads.ffn", run_name="__main__")
"""


@pytest.mark.slow
@needs_tf
@pytest.mark.parametrize(("missing", "args", "says"), [
    ("tf_keras", [], "-m pip install --no-deps 'tf-keras~=2."),
    ("horovod", ["--dist-backend", "horovod"], "No module named 'horovod.tensorflow'"),
], ids=["no-tf-keras", "no-horovod"])
def test_check_fails_in_one_line_when_the_run_could_not_start(missing: str, args: list[str],
                                                              says: str) -> None:
    """Polaris's TensorFlow 2.21 module has Keras 3 and no tf-keras: the preflight's
    ``--check`` must fail there, in the batch shell, not the ranks after the queue wait."""
    res = subprocess.run([sys.executable, "-c", _WITHOUT, missing, *TF, *TINY, "--check",
                          *args], cwd=REPO, env=base_env(), capture_output=True, text=True,
                         timeout=TIMEOUT)
    assert res.returncode == 1 and res.stdout == "", res.stderr[-2000:]
    last = res.stderr.strip().splitlines()[-1]
    assert last.startswith("[workloads] ffn cannot start: ") and says in last, res.stderr[-2000:]
    assert "Traceback" not in res.stderr


# ---------------------------------------------------------------- one process
@pytest.mark.slow
@needs_tf
@pytest.mark.parametrize("app", TF_APPS)
def test_single_process_prints_the_pytorch_json_keys_without_importing_torch(app: str) -> None:
    env = base_env(PYTHONPROFILEIMPORTTIME="1")  # -X importtime: every import on stderr
    res = run_app(app, *TF, *TINY, "--steps", "4", "--warmup", "1", env=env, timeout=TIMEOUT)
    out = _check(res, app, 1, 4)
    assert (out["launcher"], out["dist_backend"], out["compile"]) == ("none", None, False)
    # lr_last: the rate step 3 trained at; CosmicTagger is in build_lr_schedule's linear
    # warm-up from 1e-4 (epoch = step x global batch / 1e6 synthetic events), ffn is constant
    schedule = out["recipe"]["schedule"]
    assert schedule == {"cosmictagger": "warmup_flat_decay", "ffn": "constant"}[app]
    expected = out["lr"] if schedule == "constant" else (
        1e-4 + (out["lr"] - 1e-4) * 3 * out["global_batch_size"] / 1e6)
    assert out["lr_last"] == pytest.approx(expected, rel=1e-9)
    imported = {ln.rsplit("|", 1)[-1].strip() for ln in res.stderr.splitlines()
                if ln.startswith("import time:")}
    assert "tensorflow" in imported and "torch" not in imported


# ---------------------------------------------------------------- two workers
@pytest.mark.slow
@needs_tf
@pytest.mark.parametrize("app", TF_APPS)
def test_two_multiworker_ranks_under_torchrun(app: str) -> None:
    res = run_app(app, *TF, *TINY, "--steps", "3", "--warmup", "1", "--dist-backend",
                  "multiworker", launcher="torchrun", timeout=TIMEOUT)
    out = _check(res, app, 2, 3)
    assert (out["launcher"], out["dist_backend"]) == ("torchrun", "multiworker-ring")
    assert out["global_batch_size"] == 2 * out["batch_size"]


@pytest.mark.slow
@needs_tf
def test_workers_on_different_hosts_meet_at_master_addr() -> None:
    """LOCAL_WORLD_SIZE=1 per rank, as on two nodes: the workers exchange their addresses
    through MASTER_ADDR:MASTER_PORT instead of assuming one host."""
    port = free_port()
    args = [*TINY, "--steps", "3", "--warmup", "1", "--dist-backend", "multiworker"]
    res = _finish([_spawn("ffn", args, r, 2, 1, port) for r in range(2)])
    out = _check(res[0], "ffn", 2, 3)
    assert out["dist_backend"] == "multiworker-ring"
    assert res[1].returncode == 0 and res[1].json_lines() == []


_LEAVE = """
import sys, time
from workloads.runtime.ranks import detect_dist_env, export_env
from workloads.tfruntime.backend import load
from workloads.tfruntime.device import select_device
from workloads.tfruntime.distributed import init_distributed
denv = detect_dist_env(); export_env(denv); tf = load().tf
dist = init_distributed(tf, denv, select_device(tf, "cpu", denv.local_rank), "multiworker", 60)
dist.all_reduce([1.0], "sum")  # the last collective
if dist.rank == 1:
    time.sleep(3)  # still busy after it, as a slow peer reading its buffers would be
t0 = time.perf_counter()
dist.leave(60)
print(f"{time.perf_counter() - t0:.2f}")
"""


def _two_workers_run(code: str, **extra: str) -> list[Result]:
    """``python -c code`` as two ranks on this host, to the end."""
    port = free_port()
    procs = []
    for r in range(2):
        e = base_env(RANK=str(r), LOCAL_RANK=str(r), WORLD_SIZE="2", LOCAL_WORLD_SIZE="2",
                     MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), **extra)
        procs.append(subprocess.Popen([sys.executable, "-c", code], cwd=REPO, env=e,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    return _finish(procs)


@pytest.mark.slow
@needs_tf
def test_rank_zero_leaves_only_after_every_worker_is_done() -> None:
    """MultiWorkerMirroredStrategy workers pull their peers' buffers after a collective, so
    leaving right after the last one can cut a slower peer off (seen as "Connection reset by
    peer" in rank 1's final barrier): leave() holds every rank until all are done."""
    res = _two_workers_run(_LEAVE)
    assert [r.returncode for r in res] == [0, 0], res[0].stderr[-3000:] + res[1].stderr[-3000:]
    assert float(res[0].stdout.split()[-1]) >= 2.5  # rank 0 waited for rank 1


# Rank 0 leaves only once rank 1 has told it (a file) that it is done with the last
# collective: leaving earlier cuts rank 1 off inside the all-gather, whose buffer it still
# pulls from rank 0 (the CI failure of 2026-11-27: "Socket closed" in the all_reduce, not at
# the barrier). A file, not a sleep: under a loaded machine no sleep is long enough.
_LEADER_GONE = _LEAVE.replace(
    "if dist.rank == 1:",
    "import os, pathlib\n"
    "done = pathlib.Path(os.environ['LEAVE_TEST_DONE'])\n"
    "if dist.rank == 1:\n    done.touch()\n"
    "if dist.rank == 0:\n"
    "    deadline = time.monotonic() + 60\n"
    "    while not done.exists() and time.monotonic() < deadline:\n"
    "        time.sleep(0.05)\n"
    "    os._exit(3)\n"
    "if dist.rank == 1:")


@pytest.mark.slow
@needs_tf
def test_a_worker_whose_leader_is_gone_at_the_leave_barrier_exits_with_its_own_code(
        tmp_path: Path) -> None:
    """The leave barrier lives in rank 0's coordination service, and rank 0 may exit as soon
    as it opens, before rank 1's reply is sent ("Socket closed": the CI failure of rank 1 with
    exit 1 instead of 138). Rank 1 then exits with its own code and says why; rank 0's code
    reports rank 0. Forced here by a rank 0 that is gone before the barrier."""
    res = _two_workers_run(_LEADER_GONE, LEAVE_TEST_DONE=str(tmp_path / "rank1-done"))
    assert [r.returncode for r in res] == [3, 0], res[1].stderr[-3000:]
    assert "rank 0 left before the leave barrier answered; exiting" in res[1].stderr


@pytest.mark.slow
@needs_tf
def test_workers_start_when_the_ports_next_to_master_port_are_taken() -> None:
    """MASTER_PORT+1 and +2 held by another program: the workers still start (each takes a
    port the kernel says is free), where the old scheme failed with "Could not start gRPC
    server"."""
    port = free_port()
    args = [*TINY, "--steps", "2", "--warmup", "1", "--dist-backend", "multiworker"]
    with listening_on(port + 1, port + 2) as held:
        res = _finish([_spawn("ffn", args, r, 2, 2, port) for r in range(2)])
    assert held == 2
    _check(res[0], "ffn", 2, 2)
    assert res[1].returncode == 0, res[1].stderr[-3000:]


@needs_tf
@pytest.mark.slow
def test_rendered_local_script_trains_the_tensorflow_app_without_torch(tmp_path: Path) -> None:
    """`jobgen render --site local --framework tensorflow --app ffn | bash` in an environment
    where `import torch` fails (a shim first on PYTHONPATH): jobgen's spawner, not torchrun,
    starts the wrapper, the wrapper the TensorFlow app, and the workers meet through TF_CONFIG."""
    script = subprocess.run(
        [sys.executable, "-m", "jobgen", "render", "--site", "local", "--app", "ffn",
         "--framework", "tensorflow", "--app-args", "--tiny --steps 4 --warmup 1"],
        cwd=REPO, env=base_env(), capture_output=True, text=True, timeout=60, check=True).stdout
    assert "-m workloads.ffn --framework tensorflow --device cpu" in script
    assert "python3 -m workloads.spawn --nproc-per-node=2" in script and "torchrun" not in script
    shim = tmp_path / "no-torch" / "torch"
    shim.mkdir(parents=True)
    (shim / "__init__.py").write_text("raise ImportError('no torch in this environment')\n")
    env = base_env()
    env["PYTHONPATH"] = str(shim.parent)  # not the checkout: the script copies the package
    bindir = tmp_path / "bin"  # `python3` is this interpreter, as on a TensorFlow-only machine
    python3_in(bindir)
    env["PATH"] = f"{bindir}:{env['PATH']}"
    assert subprocess.run([str(bindir / "python3"), "-c", "import torch"], env=env,
                          capture_output=True).returncode != 0, "the shim hides torch"
    p = subprocess.run(["bash"], input=script, cwd=tmp_path, env=env, capture_output=True,
                       text=True, timeout=TIMEOUT)
    out = _check(Result(p.returncode, p.stdout, p.stderr), "ffn", 2, 4)
    assert (out["launcher"], out["dist_backend"]) == ("spawn", "multiworker-ring")


# ---------------------------------------------------------------- checkpoint and resume
def _uninterrupted_hash(app: str, args: list[str], **kw) -> str:
    res = run_app(app, *TF, *args, timeout=TIMEOUT, **kw)
    assert res.returncode == 0, res.stderr[-3000:]
    return res.result()["param_sha256"]


@pytest.mark.slow
@needs_tf
def test_sigterm_checkpoint_and_resume_is_bit_identical(tmp_path: Path) -> None:
    app, steps = "cosmictagger", 16
    ckdir = tmp_path / "ckpt"
    args = [*TINY, "--steps", str(steps), "--warmup", "1", "--sync-every", "1"]
    ck = ["--checkpoint-dir", str(ckdir), "--checkpoint-every", "5"]
    cmd = [sys.executable, "-m", f"workloads.{app}", *TF, *args, *ck,
           "--debug-step-sleep", "0.2"]
    proc = subprocess.Popen(cmd, cwd=REPO, env=base_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    seen = []
    for line in proc.stderr:  # wait until training is under way
        seen.append(line)
        if line.startswith("[workloads] step 6/"):
            break
    else:
        pytest.fail("run ended before step 6:\n" + "".join(seen))
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=TIMEOUT)
    err = "".join(seen) + err
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert "received SIGTERM" in err
    # the stopped run's result line says why it stopped (issue 34), and wrote no FINISHED
    stopped_line = json.loads(out.strip())
    assert stopped_line["stop_reason"] == "SIGTERM" and stopped_line["checkpoints_written"] >= 1
    assert not (ckdir / "FINISHED").exists()
    stopped = int(err.split("saved a checkpoint at step ")[1].split()[0])
    assert 6 <= stopped < steps
    assert (ckdir / f"step_{stopped:09d}" / "state.npz").is_file()

    res = run_app(app, *TF, *args, *ck, timeout=TIMEOUT)  # the same command again: resumes
    resumed = _check(res, app, 1, steps)
    assert resumed["resumed_from_step"] == stopped
    assert resumed["param_sha256"] == _uninterrupted_hash(app, args)


@pytest.mark.slow
@needs_tf
@pytest.mark.parametrize("app", TF_APPS)
def test_two_workers_stop_together_when_one_is_signalled_and_resume(app: str,
                                                                    tmp_path: Path) -> None:
    """SIGUSR1 reaches rank 1 only: the ranks agree at the next sync point, both checkpoint
    and exit 138; the relaunch resumes and ends where an uninterrupted 2-worker run ends
    (cosmictagger: each worker also gets its own batch-norm statistics back)."""
    steps = 14
    args = [*TINY, "--steps", str(steps), "--warmup", "1", "--sync-every", "2",
            "--dist-backend", "multiworker"]
    ck = ["--checkpoint-dir", str(tmp_path / "ckpt")]
    port = free_port()
    procs = [_spawn(app, [*args, *ck, "--debug-step-sleep", "0.2"], r, 2, 2, port)
             for r in range(2)]
    assert procs[0].stderr is not None
    seen = []
    for line in procs[0].stderr:
        seen.append(line)
        if line.startswith("[workloads] step 4/"):
            break
    else:
        pytest.fail("run ended before step 4:\n" + "".join(seen))
    procs[1].send_signal(signal.SIGUSR1)
    stopped_runs = _finish(procs)
    err0 = "".join(seen) + stopped_runs[0].stderr
    assert [r.returncode for r in stopped_runs] == [138, 138], \
        f"rank 0:\n{err0[-3000:]}\nrank 1:\n{stopped_runs[1].stderr[-3000:]}"
    stopped = int(err0.split("saved a checkpoint at step ")[1].split()[0])
    assert 4 <= stopped < steps

    port = free_port()
    resumed = _check(_finish([_spawn(app, [*args, *ck], r, 2, 2, port) for r in range(2)])[0],
                     app, 2, steps)
    assert resumed["resumed_from_step"] == stopped
    port = free_port()
    whole = _check(_finish([_spawn(app, args, r, 2, 2, port) for r in range(2)])[0], app, 2,
                   steps)
    assert resumed["param_sha256"] == whole["param_sha256"]


# ---------------------------------------------------------------- NaN, precision, XLA
@pytest.mark.slow
@needs_tf
def test_nan_loss_stops_with_step_number() -> None:
    res = run_app("ffn", *TF, *TINY, "--steps", "8", "--warmup", "1", "--sync-every", "4",
                  "--inject-nan-at-step", "3", timeout=TIMEOUT)
    assert res.returncode == 3, res.stderr[-3000:]
    assert "loss became nan at step 3" in res.stderr
    assert res.json_lines() == []


@pytest.mark.slow
@needs_tf
def test_reduced_precision_and_xla_on_cpu() -> None:
    fp16 = run_app("ffn", *TF, *TINY, "--steps", "3", "--warmup", "1", "--precision", "fp16",
                   "--xla", timeout=TIMEOUT)
    out = _check(fp16, "ffn", 1, 3)
    assert (out["precision"], out["precision_requested"], out["compile"]) == (
        "bf16", "fp16", True)
    assert "fell back to mixed_bfloat16" in out["precision_note"]
    bf16 = run_app("cosmictagger", *TF, *TINY, "--steps", "3", "--warmup", "1",
                   "--precision", "bf16", timeout=TIMEOUT)
    assert _check(bf16, "cosmictagger", 1, 3)["precision"] == "bf16"
    assert "mixed_bfloat16" in bf16.stderr
    tf32 = run_app("ffn", *TF, *TINY, "--steps", "2", "--warmup", "1", "--precision", "tf32",
                   timeout=TIMEOUT)
    out = _check(tf32, "ffn", 1, 2)
    assert out["precision"] == "fp32" and "tf32 has no effect on the CPU" in out["precision_note"]


# ---------------------------------------------------------------- Horovod (opt-in build)
@needs_tf
@needs_horovod
@needs_mpich
@pytest.mark.parametrize("app", TF_APPS)
def test_horovod_two_ranks_over_mpich(app: str) -> None:
    """mpiexec.mpich starts the ranks: Horovod is importable and MPI launched them, so the
    runtime picks it on its own (--dist-backend auto)."""
    assert MPIEXEC is not None
    res = run_app(app, *TF, *TINY, "--steps", "3", "--warmup", "1", launcher="mpich",
                  timeout=TIMEOUT)
    out = _check(res, app, 2, 3)
    assert (out["launcher"], out["dist_backend"]) == ("mpich", "horovod")


@needs_tf
@needs_horovod
@needs_mpich
@pytest.mark.parametrize("app", TF_APPS)
def test_horovod_resume_ends_where_an_uninterrupted_run_ends(app: str, tmp_path: Path) -> None:
    """A Horovod run that checkpointed at step 5 of 10 and is relaunched (the same command
    with --steps 10) ends with rank 0's variables of an uninterrupted 10-step run
    (cosmictagger: each rank also gets its own batch-norm statistics back)."""
    base = [*TF, *TINY, "--warmup", "1", "--sync-every", "1"]
    ck = ["--checkpoint-dir", str(tmp_path / "ckpt")]
    first = run_app(app, *base, *ck, "--steps", "5", launcher="mpich", timeout=TIMEOUT)
    assert _check(first, app, 2, 5)["dist_backend"] == "horovod"
    resumed = _check(run_app(app, *base, *ck, "--steps", "10", launcher="mpich",
                             timeout=TIMEOUT), app, 2, 10)
    assert resumed["resumed_from_step"] == 5
    whole = _check(run_app(app, *base, "--steps", "10", launcher="mpich", timeout=TIMEOUT),
                   app, 2, 10)
    assert resumed["param_sha256"] == whole["param_sha256"]
    assert resumed["final_loss"] == whole["final_loss"]
