"""jobgen's own process spawner (workloads/spawn.py), which starts the local ranks where there
is no torchrun (a TensorFlow environment): rank variables, signals passed on, a failing rank
stops the others, exit statuses; and the rendered local TensorFlow script running a program
with no torch importable."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from helpers import ROOT, python3_in, run_jobgen

SPAWN = [sys.executable, "-m", "workloads.spawn"]
# Each rank writes its variables to $OUT/rank-$RANK.json.
REPORT = ("import json, os; keys = ('RANK', 'LOCAL_RANK', 'WORLD_SIZE', 'LOCAL_WORLD_SIZE', "
          "'MASTER_ADDR', 'MASTER_PORT', 'JOBGEN_SPAWN_ID'); "
          "open(os.path.join(os.environ['OUT'], 'rank-%s.json' % os.environ['RANK']), 'w')"
          ".write(json.dumps({k: os.environ.get(k) for k in keys}))")


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "MASTER_ADDR",
                        "MASTER_PORT")}
    env.update({"PYTHONPATH": str(ROOT), "OUT": str(tmp_path), **extra})
    return env


def _reports(tmp_path: Path) -> dict[int, dict]:
    return {int(p.stem.split("-")[1]): json.loads(p.read_text())
            for p in tmp_path.glob("rank-*.json")}


def test_each_rank_gets_torchs_variables_and_the_callers_rendezvous(tmp_path):
    res = subprocess.run([*SPAWN, "--nproc-per-node", "3", sys.executable, "-c", REPORT],
                         env=_env(tmp_path, MASTER_PORT="31234"), capture_output=True,
                         text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    reports = _reports(tmp_path)
    assert sorted(reports) == [0, 1, 2]
    ids = {r["JOBGEN_SPAWN_ID"] for r in reports.values()}
    assert len(ids) == 1 and ids != {None}
    for rank, r in reports.items():
        assert (r["RANK"], r["LOCAL_RANK"]) == (str(rank), str(rank))
        assert (r["WORLD_SIZE"], r["LOCAL_WORLD_SIZE"]) == ("3", "3")
        assert (r["MASTER_ADDR"], r["MASTER_PORT"]) == ("127.0.0.1", "31234")


def test_a_failing_rank_stops_the_others_and_its_status_is_the_spawners(tmp_path):
    """Rank 1 exits 7 while the others would wait a minute (as in a collective): they are
    stopped, and the spawner exits 7 in seconds."""
    prog = "import os, sys, time\nif os.environ['RANK'] == '1': sys.exit(7)\ntime.sleep(60)"
    start = time.monotonic()
    res = subprocess.run([*SPAWN, "--nproc-per-node", "3", sys.executable, "-c", prog],
                         env=_env(tmp_path), capture_output=True, text=True, timeout=60)
    assert res.returncode == 7
    assert "rank 1 exited with status 7; stopping the other ranks" in res.stderr
    assert time.monotonic() - start < 30, "the sleeping ranks were stopped, not waited for"


def test_a_rank_killed_by_a_signal_reads_as_128_plus_its_number(tmp_path):
    prog = "import os, signal\nif os.environ['RANK'] == '0': os.kill(os.getpid(), signal.SIGKILL)"
    res = subprocess.run([*SPAWN, "--nproc-per-node", "2", sys.executable, "-c", prog],
                         env=_env(tmp_path), capture_output=True, text=True, timeout=60)
    assert res.returncode == 128 + signal.SIGKILL


def test_signals_reach_every_rank_which_stop_in_their_own_time(tmp_path):
    """The job script signals its launcher (USR1 before the time limit, TERM): each rank gets
    it once, handles it (a checkpoint) and exits; the spawner exits with their status."""
    prog = ("import os, signal, sys, time\n"
            "def stop(n, f):\n"
            "    open(os.path.join(os.environ['OUT'], 'got-%s-%d' % (os.environ['RANK'], n)),"
            " 'a').write('x')\n"
            "    time.sleep(0.5)\n"
            "    sys.exit(143)\n"
            "signal.signal(signal.SIGUSR1, stop)\n"
            "open(os.path.join(os.environ['OUT'], 'up-' + os.environ['RANK']), 'w').close()\n"
            "time.sleep(60)\n")
    proc = subprocess.Popen([*SPAWN, "--nproc-per-node", "2", sys.executable, "-c", prog],
                            env=_env(tmp_path), stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while len(list(tmp_path.glob("up-*"))) < 2:
            assert time.monotonic() < deadline and proc.poll() is None, "ranks did not start"
            time.sleep(0.05)
        proc.send_signal(signal.SIGUSR1)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 143
    got = sorted(p.name for p in tmp_path.glob("got-*"))
    assert got == [f"got-0-{int(signal.SIGUSR1)}", f"got-1-{int(signal.SIGUSR1)}"]
    assert all((tmp_path / g).read_text() == "x" for g in got), "each rank got it once"
    assert "stopping the other ranks" not in err, "a signalled stop is not a failure"


def test_bad_invocations_exit_2_with_one_line():
    for args in (["--nproc-per-node", "2"], ["--nproc-per-node", "0", "true"]):
        res = subprocess.run([*SPAWN, *args], env=_env(Path(".")), capture_output=True,
                             text=True, timeout=60)
        assert res.returncode == 2 and "Traceback" not in res.stderr


def test_local_tensorflow_script_runs_a_program_with_no_torch(tmp_path):
    """`jobgen render --site local --framework tensorflow -- python3 prog.py | bash` where
    `import torch` fails: the spawner starts both ranks through the wrapper, exit 0."""
    res = run_jobgen("render", "--site", "local", "--framework", "tensorflow", "--",
                     "python3", "-c", REPORT)
    assert res.returncode == 0, res.stderr
    script = res.stdout
    assert "python3 -m workloads.spawn --nproc-per-node=2" in script and "torchrun" not in script
    shim = tmp_path / "no-torch" / "torch"
    shim.mkdir(parents=True)
    (shim / "__init__.py").write_text("raise ImportError('no torch in this environment')\n")
    bindir = tmp_path / "bin"  # `python3` is this interpreter, as on a TensorFlow-only machine
    python3_in(bindir)
    out = tmp_path / "out"
    out.mkdir()
    env = _env(out, PYTHONPATH=str(shim.parent), PATH=f"{bindir}:{os.environ['PATH']}")
    assert subprocess.run([str(bindir / "python3"), "-c", "import torch"], env=env,
                          capture_output=True).returncode != 0
    run = subprocess.run(["bash"], input=script, cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    reports = _reports(out)
    assert sorted(reports) == [0, 1]
    assert {r["MASTER_ADDR"] for r in reports.values()} == {"127.0.0.1"}
    assert all(r["JOBGEN_SPAWN_ID"] for r in reports.values())


def test_python3_on_a_tests_path_is_this_interpreter_with_its_packages(tmp_path):
    """The `python3` the tests put first on PATH keeps this interpreter's prefix: in a venv a
    symlink to sys.executable starts the base interpreter without the venv's packages."""
    python3 = python3_in(tmp_path / "bin")
    res = subprocess.run([str(python3), "-c", "import sys; print(sys.prefix)"],
                         capture_output=True, text=True, timeout=60, check=True)
    assert res.stdout.strip() == sys.prefix
