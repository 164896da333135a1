"""Issue 34: on PBS (and Cobalt), which send no warning before the walltime's end, the script
runs a timer that sends the signal it forwards to the ranks at walltime - lead. Run here under
the emulated PBS of tests/emulation (the Polaris script unchanged, its PALS mpiexec a
stand-in that starts local processes): the timer's signal reaches every rank, a job that ends
first leaves no timer or sleep behind, and a link a timer stopped resumes in the next.

The lead is the render option --stop-lead: a 5-minute walltime (the queue's minimum) with a
lead a few seconds under it makes the timer fire a few seconds after the start, with no hook
in the script for tests."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

import pytest
from emulation.harness import REPORT_COMMAND, Site, finish, install_bin, start_script
from helpers import ROOT

from jobgen.errors import JobgenError
from jobgen.plan.build import Request, build_plan
from jobgen.profiles.load import load_profile
from jobgen.text.render import render

POLARIS = Site("polaris", "pbs",
               ("x3006c0s13b0n0.hsn.cm.polaris.alcf.anl.gov",
                "x3006c0s19b1n0.hsn.cm.polaris.alcf.anl.gov"),
               "x3006c0s13b0n0.hsn.cm.polaris.alcf.anl.gov")
POLARIS_ONE = Site("polaris", "pbs", POLARIS.hosts[:1], POLARIS.hosts[0])


@pytest.fixture(scope="module")
def emu_bin(tmp_path_factory):
    return install_bin(tmp_path_factory.mktemp("emu-bin"))


def plan(site: str = "polaris", **kw):
    kw.setdefault("nodes", 2)
    kw.setdefault("command", REPORT_COMMAND)
    return build_plan(load_profile(site), Request(site=site, account="MYPROJECT",
                                                  walltime="00:05:00", **kw))


def sleeps_of(log: Path) -> list[int]:
    """Processes still running with this emulated job's environment (its event log), other
    than this test: a timer or its sleep left behind."""
    mine = f"JOBGEN_EMU_LOG={log}".encode()
    left = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            env = (entry / "environ").read_bytes()
        except OSError:
            continue
        if mine in env.split(b"\0"):
            left.append(int(entry.name))
    return left


def test_the_timer_is_planned_for_pbs_and_cobalt_only_with_a_lead_under_the_walltime():
    p = plan(stop_lead=200)
    assert p.stop_timer and p.stop_lead == 200 and p.signals[0] == "TERM"
    assert p.stop_fact.layer == "command line" and "00:01:40" in p.stop_fact.text
    default = plan(checkpoint_dir="/lus/ck")  # a program that checkpoints: the default lead
    assert default.stop_timer and default.stop_lead == 120
    assert "jobgen's default lead" in default.stop_fact.why
    assert not plan().stop_timer and plan().deadline  # a program not known to handle it
    cobalt = plan("jlse-mi250", stop_lead=60)
    assert cobalt.stop_timer and cobalt.stop_lead == 60
    lumi = plan("lumi", stop_lead=290)  # Slurm: the scheduler's own warning, at the lead
    assert not lumi.stop_timer and lumi.stop_lead == 290
    assert "#SBATCH --signal=B:USR2@290" in [d.text for d in lumi.directives]
    summit = plan("summit", stop_lead=290)
    assert "#BSUB -wt 5" in [d.text for d in summit.directives]
    for bad in (0, 300, 10**6):
        with pytest.raises(JobgenError, match=r"^--stop-lead \d+: the lead must be 1 to 299 "):
            plan(stop_lead=bad)
    with pytest.raises(JobgenError, match="no scheduler"):
        build_plan(load_profile("local"), Request(site="local", command=("true",),
                                                  stop_lead=5))


def test_bundled_app_stops_on_its_own_before_the_timer():
    p = build_plan(load_profile("polaris"), Request(site="polaris", app="pointnet", nodes=2,
                   account="MYPROJECT", walltime="01:00:00", checkpoint_dir="/lus/ck"))
    words = list(p.command)
    assert words[words.index("--stop-lead") + 1] == "120"  # the app's lead: >= the timer's
    assert "JOBGEN_DEADLINE=$((jobgen_start + 3600))" in render(p)


def test_the_timer_signal_reaches_every_rank(tmp_path, emu_bin):
    p = plan(stop_lead=296)  # the timer fires ~4 s after the start
    proc, run = start_script(render(p), POLARIS, tmp_path, emu_bin,
                             env={"JOBGEN_EMU_AWAIT_SIGNAL": "1"})
    run = finish(proc, run, timeout=60)
    signalled = [e for e in run.calls("report_rank") if e["event"] == "signalled"]
    assert sorted(e["rank"] for e in signalled) == list(range(p.world_size)), run.explain()
    assert {e["signal"] for e in signalled} == {signal.SIGTERM}
    assert "296 s before the walltime's end: sending SIGTERM" in run.proc.stderr
    assert "SIGTERM received, forwarding it to the ranks" in run.proc.stderr
    assert run.proc.returncode == 128 + signal.SIGTERM, run.explain()
    assert not run.jobgen_dir.exists()
    assert sleeps_of(run.emu_dir / "events.jsonl") == []


def test_a_job_that_ends_first_stops_its_timer_and_leaves_nothing(tmp_path, emu_bin):
    p = plan(stop_lead=10)  # the timer would fire after 290 s
    proc, run = start_script(render(p), POLARIS, tmp_path, emu_bin)
    run = finish(proc, run, timeout=60)
    assert run.proc.returncode == 0, run.explain()
    assert sorted(run.reports) == list(range(p.world_size))
    assert "sending SIG" not in run.proc.stderr
    assert sleeps_of(run.emu_dir / "events.jsonl") == []


@pytest.mark.slow
def test_a_link_stopped_by_the_timer_resumes_in_the_next(tmp_path, emu_bin):
    """A training program (the bundled pointnet, run as the user's own program after --) is
    stopped by the timer, checkpoints and exits; the same script again (the next link of a
    chain) resumes from that checkpoint."""
    ck = tmp_path / "ck"
    command = (sys.executable, "-m", "workloads.pointnet", "--tiny", "--device", "cpu",
               "--workers", "0", "--steps", "100000", "--warmup", "1", "--sync-every", "1",
               "--checkpoint-dir", str(ck), "--debug-step-sleep", "0.3")
    p = plan(nodes=1, ranks_per_node=1, command=command, stop_lead=280)  # timer after ~20 s
    assert p.stop_timer
    text = render(p)
    env = {"PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    steps = []
    for link in (1, 2):
        proc, run = start_script(text, POLARIS_ONE, tmp_path / f"link{link}", emu_bin, env=env)
        run = finish(proc, run, timeout=120)
        assert run.proc.returncode == 128 + signal.SIGTERM, run.explain()
        assert "sending SIGTERM" in run.proc.stderr, run.explain()
        line = json.loads(run.proc.stdout.strip().splitlines()[-1])
        assert line["stop_reason"] == "SIGTERM" and line["checkpoints_written"] >= 1
        steps.append(int(run.proc.stderr.split("saved a checkpoint at step ")[1].split()[0]))
        assert (ck / f"step_{steps[-1]:09d}" / "COMPLETE").is_file()
        if link == 2:
            assert line["resumed_from_step"] == steps[0], run.explain()
            assert f"at step {steps[0]}" in run.proc.stderr  # "resumed from ... at step N"
        assert sleeps_of(run.emu_dir / "events.jsonl") == []
    assert steps[1] > steps[0] >= 1
    assert not (ck / "FINISHED").exists()


def test_requeue_keeps_the_signal_driven_stop_on_slurm_and_lsf():
    """--requeue: the script requeues itself on the scheduler's warning, so the bundled app
    gets no deadline to stop before it on its own (it would exit 0 and never be requeued)."""
    for site in ("lumi", "summit"):
        kw = dict(site=site, app="gpt", nodes=2, account="MYPROJECT", walltime="01:00:00",
                  checkpoint_dir="/scratch/ck")
        if site == "summit":
            kw["walltime"] = "02:00:00"
        chained = build_plan(load_profile(site), Request(**kw))
        assert chained.deadline and "--stop-lead" in chained.command
        requeued = build_plan(load_profile(site), Request(**kw, requeue=2))
        assert not requeued.deadline and "--stop-lead" not in requeued.command
        assert "JOBGEN_DEADLINE" not in render(requeued)
        assert "requeues itself" in requeued.stop_fact.why
