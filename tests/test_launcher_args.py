"""Issue 30: a launcher given as the user's program is refused (render, explain, sweep) and
flagged by lint (LAUNCH005); `--launcher-args` passes the user's launcher options through the
escaping layer, refuses those the script decides, and explain names them as the user's.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from helpers import jobgen_here, plan_for, run_jobgen

from jobgen.errors import JobgenError
from jobgen.plan.launchopts import nested_launcher
from jobgen.text.render import render

NESTED = [
    (["mpiexec", "-n", "48", "python", "train.py"], "mpiexec"),
    (["srun", "--ntasks=4", "python", "train.py"], "srun"),
    (["torchrun", "--nproc-per-node", "4", "train.py"], "torchrun"),
    (["jsrun", "-n", "6", "python", "train.py"], "jsrun"),
    (["aprun", "-n", "8", "./a.out"], "aprun"),
    (["mpirun", "-np", "2", "python", "train.py"], "mpirun"),
    (["/opt/cray/pals/1.4/bin/mpiexec", "-n", "2", "python", "t.py"], "mpiexec"),
    (["env", "-u", "X", "FOO=1", "/usr/bin/srun", "python", "t.py"], "srun"),
    (["OMP_NUM_THREADS=1", "mpiexec", "python", "t.py"], "mpiexec"),
    (["python3", "-u", "-m", "torch.distributed.run", "--nproc-per-node", "2", "t.py"],
     "python3 -m torch.distributed.run"),
    (["python", "-mtorch.distributed.launch", "t.py"], "python -mtorch.distributed.launch"),
]
NOT_NESTED = [["python", "train.py"], ["python", "-m", "workloads.ffn"],
              ["python", "-c", "import os"], ["bash", "-c", "echo mpiexec"],
              ["env", "FOO=1", "python", "t.py"], ["./mpiexec-helper.sh"],
              ["python3.11", "-W", "ignore", "t.py"]]


@pytest.mark.parametrize("command, name", NESTED, ids=[n for _, n in NESTED])
def test_a_launcher_as_the_program_is_named(command, name):
    assert nested_launcher(command) == name


@pytest.mark.parametrize("command", NOT_NESTED, ids=lambda c: " ".join(c))
def test_a_program_is_not_a_launcher(command):
    assert nested_launcher(command) is None


@pytest.mark.parametrize("site", ["aurora", "polaris", "lumi", "summit", "local-mpich",
                                  "local"])
@pytest.mark.parametrize("verb", ["render", "explain"])
def test_render_and_explain_refuse_a_nested_launcher_in_one_line(site, verb):
    res = jobgen_here(verb, "--site", site, "-A", "p", "--", "mpiexec", "-n", "48", "python",
                      "train.py")
    assert res.returncode == 2 and res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "launcher `mpiexec`" in lines[0]
    assert "--launcher-args" in lines[0]


def test_sweep_refuses_a_nested_launcher_and_writes_nothing(tmp_path):
    out = tmp_path / "study"
    res = jobgen_here("sweep", "--out", str(out), "--site", "local", "--nodes", "1,2", "--",
                      "torchrun", "--nproc-per-node", "2", "train.py")
    assert res.returncode == 2 and "launcher `torchrun`" in res.stderr
    assert not out.exists()


# ---------------------------------------------------------------- --launcher-args
def test_launcher_args_follow_jobgens_options_quoted_and_explained():
    from jobgen.profiles.load import load_profile
    from jobgen.review.explain import build_report

    plan = plan_for("aurora", launcher_args="-l --line-buffer --label='a b;$(id)'")
    text = render(plan)
    line = next(x for x in text.splitlines() if x.startswith("mpiexec -n "))
    assert line.endswith("""--envall -l --line-buffer '--label=a b;$(id)' "$JOBGEN_WRAPPER" \\""")
    assert "#   -l --line-buffer '--label=a b;$(id)': your option (--launcher-args)" in text
    from jobgen.plan.build import Request, build_plan

    loaded = load_profile("aurora")
    req = Request(site="aurora", account="p", command=("python", "t.py"), launcher_args="-l")
    report = build_report(loaded, req, build_plan(loaded, req))
    ours = [a for a in report["launcher"]["args"] if a["text"] == "-l"]
    assert ours and ours[0]["why"].startswith("your option") and ours[0]["layer"] == \
        "command line"


REFUSED = [
    ("aurora", "--ppn 4", "the ranks per node"), ("aurora", "-n 8", "the rank count"),
    ("aurora", "--cpu-bind=depth", "the CPU binding"), ("aurora", "--envall",
                                                         "already passes --envall"),
    ("polaris", "--depth=8", "the CPU binding"),
    ("lumi", "--ntasks-per-node=2", "the ranks per node"),
    ("lumi", "--kill-on-bad-exit", "already passes --kill-on-bad-exit=1"),
    ("lumi", "--gpus-per-task=1", "the GPU binding"), ("lumi", "-N 3", "the hosts"),
    ("summit", "-a6", "the rank count"), ("summit", "--bind=packed:4", "the CPU binding"),
    ("local-mpich", "-ppn 1", "the ranks per node"),
    ("local", "--nproc-per-node=1", "the ranks per node"),
    ("aurora", "python train.py", "not a program"), ("aurora", "-l -- x", "`--` ends"),
    ("aurora", "-l 'unclosed", "--launcher-args"),
]


@pytest.mark.parametrize("site, text, why", REFUSED, ids=[f"{s}:{t}" for s, t, _ in REFUSED])
def test_launcher_args_that_change_what_the_script_sets_are_refused(site, text, why):
    with pytest.raises(JobgenError, match="--launcher-args") as exc:
        plan_for(site, launcher_args=text)
    assert why in str(exc.value) and "\n" not in str(exc.value)


def test_cli_refuses_with_exit_2_and_the_regenerate_line_keeps_the_options(tmp_path):
    res = jobgen_here("render", "--site", "aurora", "-A", "p", "--launcher-args", "--ppn 2",
                      "--", "python", "t.py")
    assert res.returncode == 2 and res.stderr.count("\n") == 1
    out = tmp_path / "job.sh"
    res = run_jobgen("render", "--site", "aurora", "-A", "p", "--launcher-args",
                     "-l --line-buffer", "--out", str(out), "--", "python", "t.py")
    assert res.returncode == 0, res.stderr
    assert run_jobgen("verify", str(out)).returncode == 0


@pytest.mark.skipif(shutil.which("mpiexec.mpich") is None, reason="MPICH is not installed")
def test_real_mpich_takes_the_users_option_and_runs_each_rank_once(tmp_path):
    """MPICH hydra's -l (label each output line with its rank), given through --launcher-args,
    reaches the real mpiexec: 2 ranks, each printed once with its label."""
    script = tmp_path / "job.sh"
    prog = "import os; os.write(1, ('hello ' + os.environ['RANK'] + '\\n').encode())"
    res = run_jobgen("render", "--site", "local-mpich", "--launcher-args", "-l", "--out",
                     str(script), "--", sys.executable, "-c", prog)
    assert res.returncode == 0, res.stderr
    run = subprocess.run(["bash", str(script)], capture_output=True, text=True, cwd=tmp_path,
                         timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    hellos = sorted(x for x in run.stdout.splitlines() if "hello" in x)
    assert hellos == ["[0] hello 0", "[1] hello 1"], run.stdout
