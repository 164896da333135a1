"""The run-time placement check (--placement-check): every rank compares its CPUs, NUMA node
and device with the plan before its program starts; a mismatch stops the job (exit 2) or, with
warn, is reported and the program runs.

In-process: the bundled apps' comparison and table (workloads/runtime/placement.py) with an
injected affinity, environment and framework device (no GPU here); the rendered wrapper run
alone under `taskset`. Real launchers (slow): MPICH's mpiexec with a launcher that binds
wrong on purpose (its user binding list reversed), a Python that rebinds the app after the
wrapper's check, torchrun, and the real test Slurm, whose task/none plugin ignores the
binding a profile asks for (`srun: cluster configuration lacks support for cpu binding`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from emulation.harness import wrapper_text
from helpers import run_jobgen

from workloads.runtime import placement as pc

TINY = "--tiny --steps 4 --warmup 1"
MPICH = shutil.which("mpiexec.mpich")
needs_mpich = pytest.mark.skipif(MPICH is None, reason="MPICH is not installed "
                                 "(apt-get install mpich; .ci/run does)")
needs_two_cpus = pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2,
                                    reason="binding two ranks apart needs two CPUs")

# A launcher that binds wrong on purpose: MPICH's `-bind-to user:A,B` list reversed, so each
# local rank lands on the other's core.
SWAPPED_MPIEXEC = """#!/bin/bash
args=()
for a in "$@"; do
    if [[ "$a" == user:* ]]; then
        IFS=, read -ra l <<< "${a#user:}"
        r=()
        for ((i = ${#l[@]} - 1; i >= 0; i--)); do r+=("${l[i]}"); done
        a="user:$(IFS=,; echo "${r[*]}")"
    fi
    args+=("$a")
done
exec mpiexec.mpich "${args[@]}"
"""
PROFILES = {
    "bound-mpich": """name: bound-mpich
extends: local-mpich
description: this machine, MPICH binding each rank to its own core (hydra -bind-to user)
cpu_binding:
  style: list
  why: each local rank on its own core, so that a wrong binding shows
  source: HYDRA
""",
    "swapped-mpich": """name: swapped-mpich
extends: bound-mpich
description: bound-mpich through a launcher that swaps the ranks' cores
launcher:
  command: {shim}
""",
    "bound-slurm": """name: bound-slurm
extends: local-slurm
description: the test Slurm asked for one core per rank, which its task/none plugin ignores
cpu_binding:
  style: mask
  why: one CPU mask per local rank (srun --cpu-bind=mask_cpu)
  source: SRUN
""",
}
PROGRAM = '#!/bin/bash\necho "TRAINED rank $RANK"\n'


@pytest.fixture
def profiles(tmp_path, monkeypatch) -> Path:
    """The test profiles on JOBGEN_PROFILE_PATH, and a user program that says it ran."""
    d = tmp_path / "profiles"
    d.mkdir()
    shim = d / "swapped-mpiexec"
    shim.write_text(SWAPPED_MPIEXEC)
    shim.chmod(0o755)
    for name, text in PROFILES.items():
        (d / f"{name}.yaml").write_text(text.replace("{shim}", str(shim)))
    program = tmp_path / "train.sh"
    program.write_text(PROGRAM)
    program.chmod(0o755)
    monkeypatch.setenv("JOBGEN_PROFILE_PATH", str(d))
    return d


def render(tmp: Path, *args: str, name: str = "") -> str:
    name = name or f"rendered-{len(list(tmp.glob('rendered-*.sh')))}.sh"
    res = run_jobgen("render", "--out", str(tmp / name), *args)
    assert res.returncode == 0, res.stderr
    return (tmp / name).read_text()


def run(script: str, tmp: Path, timeout: float = 120,
        prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    path = tmp / "run.sh"
    path.write_text(script)
    return subprocess.run([*prefix, "bash", str(path)], capture_output=True, text=True,
                          cwd=tmp, timeout=timeout)


# ---------------------------------------------------------------- the apps' check, in-process
WANT = {"JOBGEN_PLACEMENT_CHECK": "stop", "JOBGEN_PLACEMENT_HOST": "n1",
        "JOBGEN_PLACEMENT_CPUS": "0-7", "JOBGEN_PLACEMENT_THREADS": "0-7,64-71",
        "JOBGEN_PLACEMENT_NUMA": "", "JOBGEN_PLACEMENT_MASK_VARIABLE": "CUDA_VISIBLE_DEVICES",
        "JOBGEN_PLACEMENT_MASK": "3", "CUDA_VISIBLE_DEVICES": "3"}


def test_a_rank_where_the_plan_puts_it_has_no_problem():
    want = pc.expected(WANT)
    for cpus in (range(8), [*range(8), *range(64, 72)]):  # its cores, or with SMT threads
        r = pc.own_report(0, 0, want, "0000:07:00", cpus, WANT, sysfs="/nonexistent")
        assert r.ok and r.cpus in ("0-7", "0-7,64-71") and r.mask == "3", r


def test_wrong_cpus_mask_and_shared_device_are_each_caught():
    want = pc.expected(WANT)
    wrong_cpus = pc.own_report(0, 0, want, "", range(16), WANT, sysfs="/nonexistent")
    assert wrong_cpus.problems == (
        "CPUs expected 0-7 (or 0-7,64-71 with their SMT threads), got 0-15",)
    env = {**WANT, "CUDA_VISIBLE_DEVICES": "0,1,2,3"}  # a mask reset after the wrapper
    wrong_mask = pc.own_report(0, 0, want, "", range(8), env, sysfs="/nonexistent")
    assert wrong_mask.problems == ("CUDA_VISIBLE_DEVICES expected 3, got 0,1,2,3",)
    env = {k: v for k, v in WANT.items() if k != "CUDA_VISIBLE_DEVICES"}
    unset = pc.own_report(0, 0, want, "", range(8), env, sysfs="/nonexistent")
    assert unset.problems == ("CUDA_VISIBLE_DEVICES expected 3, got unset",)
    # two ranks of one node opened one GPU (the framework's report, injected): the second
    a = pc.Report(0, "n1", 0, "0-7", "", "3", "0000:07:00")
    b = pc.Report(1, "n1", 1, "8-15", "", "2", "0000:07:00")
    c = pc.Report(2, "n2", 0, "0-7", "", "3", "0000:07:00")  # another node: its own GPU
    out = pc.with_node_problems([c, b, a])
    assert [r.rank for r in out] == [0, 1, 2]
    assert out[0].ok and out[2].ok
    assert out[1].problems == ("device 0000:07:00 also opened by rank 0: the plan gives each "
                               "rank its own",)
    assert all(r.ok for r in pc.with_node_problems([a, b], ranks_per_device=2))
    twice = pc.with_node_problems([a, pc.Report(1, "n1", 0, "0-7", "", "3", "")])
    assert twice[1].problems == ("local rank 0 started twice on n1 (rank 0 too)",)


def test_the_table_has_a_line_per_agreeing_node_and_every_rank_of_the_others():
    ok = [pc.Report(r, f"n{r // 2}", r % 2, f"{8 * (r % 2)}-{8 * (r % 2) + 7}", str(r % 2),
                    str(r % 2), f"0000:0{r % 2}:00", f"{8 * (r % 2)}-{8 * (r % 2) + 7}")
          for r in range(4)]
    assert pc.table(ok, "stop", 4, "CUDA_VISIBLE_DEVICES") == [
        "placement check (stop): 4 of 4 ranks reported, all as planned",
        "  n0: ranks 0-1 as planned: CPUs 0-7 8-15; NUMA 0 1; CUDA_VISIBLE_DEVICES 0 1; "
        "devices 0000:00:00 0000:01:00",
        "  n1: ranks 2-3 as planned: CPUs 0-7 8-15; NUMA 0 1; CUDA_VISIBLE_DEVICES 0 1; "
        "devices 0000:00:00 0000:01:00"]
    bad = [*ok[:3], pc.Report(3, "n1", 1, "0-15", "0", "1", "", problems=("CPUs expected "
                                                                          "8-15, got 0-15",))]
    lines = pc.table(bad, "warn", 5)
    assert lines[0] == "placement check (warn): 4 of 5 ranks reported, 1 differ from the plan"
    assert lines[2:] == ["  n1 rank 2 (local 0): ok (CPUs 0-7, NUMA 0, device 0000:00:00)",
                         "  n1 rank 3 (local 1): CPUs expected 8-15, got 0-15 (CPUs 0-15, "
                         "NUMA 0)",
                         "  not reported: ranks 4"]
    assert pc.stop_line(bad, "stop") == (
        "placement check: rank 3 (host n1, local rank 1): CPUs expected 8-15, got 0-15; "
        "stopped before training (exit 2; render with --placement-check warn to run anyway)")


def test_check_stops_every_rank_with_stop_and_lets_them_run_with_warn():
    """All ranks get one answer from the same gathered reports; only rank 0 prints."""
    def others(mine: pc.Report) -> list[pc.Report]:
        return [mine, pc.Report(1, "n1", 1, "8-15", "", "2", "", "8-15", problems=())]

    for mode, code in (("stop", 2), ("warn", 0)):
        env = {**WANT, "JOBGEN_PLACEMENT_CHECK": mode, "CUDA_VISIBLE_DEVICES": "5"}
        lines: list[str] = []
        got = pc.check(0, 0, 2, others, lines.append, "", 1, env, range(8))
        assert got == code
        assert lines[-1].startswith("placement check: rank 0 (host n1, local rank 0): "
                                    "CUDA_VISIBLE_DEVICES expected 3, got 5")
        quiet: list[str] = []
        assert pc.check(1, 1, 2, others, quiet.append, "", 1, env, range(8)) == code
        assert quiet == []


def test_no_check_without_the_scripts_row():
    """A run not started by a jobgen script (or rendered with off) gathers nothing."""
    def gather(_: pc.Report) -> list[pc.Report]:
        raise AssertionError("no gather without a check")

    assert pc.check(0, 0, 1, gather, print, environ={}) == 0
    assert pc.check(0, 0, 1, gather, print,
                    environ={**WANT, "JOBGEN_PLACEMENT_CHECK": "off"}) == 0


# ---------------------------------------------------------------- render and explain
def test_render_default_stop_warn_and_off(tmp_path, profiles):
    program = str(tmp_path / "train.sh")
    stop = render(tmp_path, "--site", "bound-mpich", "--", program, name="stop.sh")
    assert "# placement check (stop)" in stop and "--placement-check" not in stop.split(
        "\n")[2]
    assert "  0) jobgen_want_cpus=0 jobgen_want_numa='' jobgen_want_mask='' ;;" in stop
    assert "exit 2\n" in stop
    warn = render(tmp_path, "--site", "bound-mpich", "--placement-check", "warn", "--",
                  program, name="warn.sh")
    assert "--placement-check=warn" in warn.split("\n")[2] and "exit 2\n" not in warn
    off = render(tmp_path, "--site", "bound-mpich", "--placement-check", "off", "--", program,
                 name="off.sh")
    assert "jobgen_want_cpus" not in off and "placement" not in wrapper_text(off)
    for text in (stop, warn, off):
        assert subprocess.run(["bash", "-n"], input=text, text=True).returncode == 0
    res = run_jobgen("explain", "--site", "bound-mpich", "--", program)
    assert "placement check: stop (every rank, before the program starts)" in res.stdout
    assert "layer: computed by jobgen" in res.stdout.split("placement check: stop")[1][:900]
    app = render(tmp_path, "--site", "local", "--app", "ffn", name="app.sh")
    assert "export JOBGEN_PLACEMENT_CHECK=stop" in app


# ---------------------------------------------------------------- the wrapper alone, bash only
def test_the_wrapper_stops_a_misbound_rank_and_one_started_twice(tmp_path, profiles):
    """The rendered wrapper, run as one rank under taskset: the right core runs the program,
    the wrong one stops it before it starts (or warns), a second local rank 0 is refused."""
    if not shutil.which("taskset"):
        pytest.skip("taskset (util-linux) is not installed")
    cpu = sorted(os.sched_getaffinity(0))[0]
    other = [c for c in sorted(os.sched_getaffinity(0)) if c != cpu]
    program = str(tmp_path / "train.sh")
    (tmp_path / "placement").mkdir()

    def rank(script: str, rank: int, local: int, bind: int) -> subprocess.CompletedProcess:
        path = tmp_path / "rank-wrapper.sh"
        path.write_text(wrapper_text(script))
        path.chmod(0o755)
        env = {"PATH": os.environ["PATH"], "MPI_LOCALRANKID": str(local), "PMI_RANK": str(rank)}
        return subprocess.run(["taskset", "-c", str(bind), str(path), program], env=env,
                              capture_output=True, text=True, timeout=30)

    stop = render(tmp_path, "--site", "bound-mpich", "--", program, name="stop.sh")
    assert f"  0) jobgen_want_cpus={cpu} " in stop
    good = rank(stop, 0, 0, cpu)
    assert good.returncode == 0 and good.stdout == "TRAINED rank 0\n", good.stderr
    report = (tmp_path / "placement" / "rank-0").read_text().split()
    assert report[:5] == ["0", report[1], "0", str(cpu), str(cpu)] and report[-1] == "ok"
    twice = rank(stop, 1, 0, cpu)
    assert twice.returncode == 2 and twice.stdout == ""
    assert "(host " in twice.stderr and "local rank 0 started twice on" in twice.stderr
    if not other:
        return
    shutil.rmtree(tmp_path / "placement")
    bad = rank(stop, 0, 0, other[0])
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().endswith(
        f"local rank 0): CPUs expected {cpu}, got {other[0]}; stopped before the program "
        "started (exit 2; render with --placement-check warn to run anyway)")
    assert bad.stderr.count("\n") == 1
    shutil.rmtree(tmp_path / "placement")
    warn = render(tmp_path, "--site", "bound-mpich", "--placement-check", "warn", "--",
                  program, name="warn.sh")
    goes_on = rank(warn, 0, 0, other[0])
    assert goes_on.returncode == 0 and goes_on.stdout == "TRAINED rank 0\n"
    assert "warning: rank 0" in goes_on.stderr and "the program starts anyway" in goes_on.stderr


# ---------------------------------------------------------------- real launchers
@needs_mpich
@needs_two_cpus
def test_mpich_a_launcher_that_binds_wrong_is_stopped_or_warned(tmp_path, profiles):
    program = str(tmp_path / "train.sh")
    right = run(render(tmp_path, "--site", "bound-mpich", "--", program), tmp_path)
    assert right.returncode == 0, right.stderr
    assert sorted(right.stdout.splitlines()) == ["TRAINED rank 0", "TRAINED rank 1"]
    assert "jobgen: placement check (stop): 2 of 2 ranks reported, all as planned" in \
        right.stderr
    assert ": ranks 0-1 as planned: CPUs 0 1;" in right.stderr
    wrong = run(render(tmp_path, "--site", "swapped-mpich", "--", program), tmp_path)
    assert wrong.returncode == 2 and "TRAINED" not in wrong.stdout
    assert "local rank 0): CPUs expected 0, got 1; stopped before the program started" in \
        wrong.stderr
    warned = run(render(tmp_path, "--site", "swapped-mpich", "--placement-check", "warn", "--",
                        program), tmp_path)
    assert warned.returncode == 0, warned.stderr
    assert sorted(warned.stdout.splitlines()) == ["TRAINED rank 0", "TRAINED rank 1"]
    assert "placement check (warn): 2 of 2 ranks reported, 2 differ from the plan" in \
        warned.stderr
    assert " rank 1 (local 1): CPUs expected 1, got 0 (CPUs 0, NUMA " in warned.stderr


@pytest.mark.slow
@needs_mpich
@needs_two_cpus
def test_mpich_app_rebound_after_the_wrapper_stops_before_training(tmp_path, profiles):
    """The bundled app checks again after importing torch: a Python that rebinds itself
    (`taskset -c 1` before exec) passes the wrapper's check but not the app's."""
    shim = tmp_path / "bin" / "python3"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\nexec taskset -c 1 "{sys.executable}" "$@"\n')
    shim.chmod(0o755)
    script = render(tmp_path, "--site", "bound-mpich", "--app", "ffn", "--python", str(shim),
                    "--app-args", TINY, "--env", "MASTER_PORT=29733")
    res = run(script, tmp_path, timeout=300)
    assert res.returncode == 2, res.stderr[-3000:]
    assert not any(x.startswith("{") for x in res.stdout.splitlines()), "no result line"
    assert "[workloads] placement check (stop): 2 of 2 ranks reported, 1 differ" in res.stderr
    assert ("[workloads] placement check: rank 0 (host " in res.stderr
            and "local rank 0): CPUs expected 0, got 1; stopped before training (exit 2"
            in res.stderr), res.stderr[-3000:]


@pytest.mark.slow
def test_torchrun_user_program_passes(tmp_path, profiles):
    res = run(render(tmp_path, "--site", "local", "--", str(tmp_path / "train.sh")), tmp_path)
    assert res.returncode == 0, res.stderr
    assert "placement check (stop): 2 of 2 ranks reported, all as planned" in res.stderr


@pytest.mark.slow
def test_slurm_binding_the_cluster_ignores_is_caught_and_warn_runs(slurm, tmp_path, profiles):
    """srun on the test Slurm (TaskPlugin=task/none) binds nothing: a plan with a core per
    rank is stopped; the local-slurm plan (no binding) passes on its 2 nodes."""
    from test_e2e import submit_and_wait

    program = str(tmp_path / "train.sh")
    stop = tmp_path / "stop" / "job.sh"
    stop.parent.mkdir()
    stop.write_text(render(stop.parent, "--site", "bound-slurm", "--nodes", "1",
                           "--ranks-per-node", "2", "--walltime", "5", "--", program))
    job, out = submit_and_wait(slurm, stop)
    assert job.fields["ExitCode"].startswith("2:"), out
    assert "TRAINED" not in out
    assert "local rank 0): CPUs expected 0, got 0-1; stopped before the program started" in out
    warn = tmp_path / "warn" / "job.sh"
    warn.parent.mkdir()
    warn.write_text(render(warn.parent, "--site", "bound-slurm", "--nodes", "1",
                           "--ranks-per-node", "2", "--walltime", "5", "--placement-check",
                           "warn", "--", program))
    job, out = submit_and_wait(slurm, warn)
    assert job.fields["ExitCode"].startswith("0:"), out
    assert out.count("TRAINED") == 2 and "2 differ from the plan" in out
    ok = tmp_path / "ok" / "job.sh"
    ok.parent.mkdir()
    ok.write_text(render(ok.parent, "--site", "local-slurm", "--nodes", "2", "--walltime", "5",
                         "--", program))
    job, out = submit_and_wait(slurm, ok)
    assert job.fields["ExitCode"].startswith("0:"), out
    assert "placement check (stop): 2 of 2 ranks reported, all as planned" in out
    assert [x.split(":")[0].strip() for x in out.splitlines() if ": rank 0 as planned: " in x
            or ": rank 1 as planned: " in x] == ["jgn1", "jgn2"]


def test_device_id_is_the_pci_address_else_the_uuid(monkeypatch):
    """The framework's report, from the property names torch gives (torch/csrc/cuda/Module.cpp
    _CudaDeviceProperties: pci_domain_id, pci_bus_id, pci_device_id, uuid); a fake device
    API stands in for the GPU this machine lacks."""
    pytest.importorskip("torch")
    import types

    import torch

    from workloads.runtime import distributed
    from workloads.runtime.device import DeviceInfo

    props = {0: types.SimpleNamespace(pci_domain_id=0, pci_bus_id=7, pci_device_id=0,
                                      uuid="GPU-1"),
             1: types.SimpleNamespace(uuid="GPU-2")}
    api = types.SimpleNamespace(get_device_properties=props.__getitem__)
    monkeypatch.setattr(distributed, "device_api", lambda dev: None if dev.type == "cpu"
                        else api)
    cuda = [DeviceInfo(torch.device("cuda", i), "cuda", "fake", "cuda", False) for i in (0, 1)]
    assert distributed.device_id(cuda[0]) == "0000:07:00"
    assert distributed.device_id(cuda[1]) == "GPU-2"
    cpu = DeviceInfo(torch.device("cpu"), "cpu", "cpu", "cpu", False)
    assert distributed.device_id(cpu) == ""
