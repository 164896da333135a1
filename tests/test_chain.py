"""`jobgen chain`: the submit commands of each scheduler (dependencies and variables as each
documents them), a chain that runs to its end under the PBS stand-in (tests/emulation/pbs, its
jobs run by `run_eligible`), the stall cap, status and cancel, and hostile input (an edited
chain directory, a job id the scheduler does not know, link counts out of range, a chain
submitted twice): one line, exit 2, nothing submitted or written."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from helpers import run_jobgen

sys.path.insert(0, str(Path(__file__).resolve().parent / "emulation" / "pbs"))
from emulation.harness import install_bin  # noqa: E402
from pbs import run_eligible  # noqa: E402

PBS_STANDIN = Path(__file__).resolve().parent / "emulation" / "pbs"

# A user's program that trains one "step" per link: a new complete checkpoint each time, then
# exits 1 (stopped by the walltime) until step 3, where it exits 0 (finished).
TRAINER = """#!/bin/bash
ck={ck}
n=0
for d in "$ck"/step_*/COMPLETE; do [ -f "$d" ] && n=$((n + 1)); done
n=$((n + 1))
mkdir -p "$ck/$(printf 'step_%09d' "$n")"
touch "$ck/$(printf 'step_%09d' "$n")/COMPLETE"
echo "link ${{JOBGEN_CHAIN_LINK:-?}} made step $n"
printf '{{"app": "mine", "samples_per_sec": 5.0, "elapsed_s": 0, "resumed_from_step": %d, \
"checkpoint_seconds_max": 0.5, "chain_link": %d}}\n' "$((n - 1))" "${{JOBGEN_CHAIN_LINK:-0}}"
[ "$n" -ge 3 ]
"""
FAILER = "#!/bin/bash\necho 'cannot read the data' >&2\nexit 3\n"


def one_line_error(res) -> str:
    assert res.returncode == 2, res.stdout + res.stderr
    lines = res.stderr.strip().splitlines()
    assert "Traceback" not in res.stderr and len(lines) == 1, res.stderr
    assert lines[0].startswith("jobgen: error: ")
    return lines[0]


def pbs_env(tmp: Path, bin_dir: Path | None = None) -> dict[str, str]:
    path = f"{PBS_STANDIN}{os.pathsep}" + (f"{bin_dir}{os.pathsep}" if bin_dir else "")
    return {"PATH": path + os.environ["PATH"], "JOBGEN_EMU_PBS": str(tmp / "pbs"),
            "JOBGEN_EMU_QSUB": "ok"}


def qsubs(tmp: Path) -> list[list[str]]:
    log = tmp / "pbs" / "calls.log"
    calls = [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []
    return [c for c in calls if c[0] == "qsub" and c[1:] != ["--version"]]


def render(tmp: Path, site: str, name: str, *args: str) -> Path:
    res = run_jobgen("render", "--site", site, "-A", "PROJ", "--nodes", "1", *args)
    assert res.returncode == 0, res.stderr
    path = tmp / name
    path.write_text(res.stdout)
    return path


def program(tmp: Path, text: str, name: str = "prog.sh") -> Path:
    prog = tmp / name
    prog.write_text(text)
    prog.chmod(0o755)
    return prog


@pytest.fixture(scope="module")
def gpt_pbs(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("gpt")
    return render(tmp, "polaris", "job.pbs", "--app", "gpt", "--checkpoint-dir", "ckpt")


# ---------------------------------------------------------------- the submit commands
@pytest.mark.slow
def test_dry_run_prints_each_schedulers_dependency_and_variables(tmp_path):
    """PBS -W depend=afterany -v; Slurm --dependency=afterany --export=ALL,...; LSF -w
    'ended(ID)' with the variables in bsub's environment; Cobalt --dependencies --env A:B."""
    expect = {
        "polaris": ("job.pbs", [
            "qsub -v JOBGEN_CHAIN_DIR={d},JOBGEN_CHAIN_LINK=1 job.pbs",
            "qsub -W 'depend=afterany:<job id of link 1>' -v "
            "JOBGEN_CHAIN_DIR={d},JOBGEN_CHAIN_LINK=2 job.pbs"]),
        "lumi": ("job.slurm", [
            "sbatch --export=ALL,JOBGEN_CHAIN_DIR={d},JOBGEN_CHAIN_LINK=1 job.slurm",
            "sbatch '--dependency=afterany:<job id of link 1>' "
            "--export=ALL,JOBGEN_CHAIN_DIR={d},JOBGEN_CHAIN_LINK=2 job.slurm"]),
        "summit": ("job.lsf", [
            "JOBGEN_CHAIN_DIR={d} JOBGEN_CHAIN_LINK=1 bsub < job.lsf",
            "JOBGEN_CHAIN_DIR={d} JOBGEN_CHAIN_LINK=2 bsub -w "
            "'ended(<job id of link 1>)' < job.lsf"]),
        "jlse-mi250": ("job.cobalt", [
            "qsub --env JOBGEN_CHAIN_DIR={d}:JOBGEN_CHAIN_LINK=1 job.cobalt",
            "qsub --dependencies '<job id of link 1>' --env "
            "JOBGEN_CHAIN_DIR={d}:JOBGEN_CHAIN_LINK=2 job.cobalt"]),
    }
    prog = program(tmp_path, FAILER)
    for site, (name, lines) in expect.items():
        extra = ("--python", "/usr/bin/python3") if site == "jlse-mi250" else ()
        script = render(tmp_path, site, name, *extra, "--", str(prog))
        res = run_jobgen("chain", str(script), "--links", "2", "--dry-run")
        assert res.returncode == 0, res.stderr
        out = res.stdout.splitlines()
        d = f"{script}.chain"
        assert out[0] == f"cd {tmp_path}"
        assert out[1:3] == [x.format(d=d) for x in lines], site
        assert not Path(d).exists()


def test_the_bill_is_links_times_one_link(gpt_pbs):
    res = run_jobgen("chain", str(gpt_pbs), "--links", "4", "--dry-run")
    assert res.returncode == 0, res.stderr
    assert ("# the chain's bill: at most 2 node-hours for 4 jobs (the largest 0.5; each job's "
            "rule in `jobgen explain`); one link: at most 0.5 node-hours (1 node x 0.5 h)"
            ) in res.stdout


# ---------------------------------------------------------------- chains that run (PBS)
@pytest.mark.slow
def test_a_pbs_chain_runs_to_the_end_and_cancels_the_links_it_no_longer_needs(tmp_path):
    bin_dir = install_bin(tmp_path / "bin")
    prog = program(tmp_path, TRAINER.format(ck=tmp_path / "ck"))
    script = render(tmp_path, "polaris", "job.pbs", "--ranks-per-node", "1", "--",
                    str(prog))
    env = pbs_env(tmp_path, bin_dir)
    res = run_jobgen("chain", str(script), "--links", "5", "--checkpoint-dir",
                     str(tmp_path / "ck"), env=env)
    assert res.returncode == 0, res.stderr
    assert "jobgen: the chain's bill: at most 2.5 node-hours for 5 jobs" in res.stderr
    ids = [f"{k}.pbs01" for k in range(1, 6)]
    assert res.stdout.splitlines() == [f"link {k}: job {i}" for k, i in enumerate(ids, 1)]
    calls = qsubs(tmp_path)
    d = f"{script}.chain"
    assert calls[0] == ["qsub", "-v", f"JOBGEN_CHAIN_DIR={d},JOBGEN_CHAIN_LINK=1", "job.pbs"]
    assert calls[1] == ["qsub", "-W", "depend=afterany:1.pbs01", "-v",
                        f"JOBGEN_CHAIN_DIR={d},JOBGEN_CHAIN_LINK=2", "job.pbs"]
    state = json.loads((tmp_path / "pbs" / "jobs.json").read_text())
    assert [state[i]["job_state"] for i in ids] == ["Q", "H", "H", "H", "H"]
    ran = run_eligible(tmp_path / "pbs", {"PATH": env["PATH"], "HOME": str(tmp_path),
                                          "JOBGEN_EMU_LOG": str(tmp_path / "events.jsonl"),
                                          "JOBGEN_EMU_OUT": str(tmp_path)},
                       _nodefile(tmp_path))
    assert ran == ids[:3], (tmp_path / "jobgen.o1").read_text()[-3000:]
    links = [json.loads((Path(d) / f"link-{k}.json").read_text()) for k in (1, 2, 3)]
    assert [(x["exit_code"], x["step_before"], x["step_after"], x["progress"], x["finished"])
            for x in links] == [(1, 0, 1, True, False), (1, 1, 2, True, False),
                                (0, 2, 3, True, True)]
    assert (Path(d) / "STOPPED").read_text() == "link 3: the training is finished\n"
    status = run_jobgen("status", d, "--format", "json", env=env)
    assert status.returncode == 0, status.stderr
    rows = json.loads(status.stdout)["links"]
    assert [(r["state"], r["exit_code"]) for r in rows] == [
        ("failed", 1), ("failed", 1), ("done", 0), ("cancelled", 271), ("cancelled", 271)]
    assert rows[0]["output"] == str(tmp_path / "jobgen.o1")
    assert "checkpoint step 0 -> 1" in rows[0]["note"]
    table = run_jobgen("status", d, env=env)
    assert "stopped: link 3: the training is finished" in table.stdout
    found = run_jobgen("collect", d, "--format", "json", env=env)
    assert found.returncode == 0, found.stderr
    chain = json.loads(found.stdout)
    assert [(x["steps"], x["resumed_from_step"], x["chain_link"]) for x in chain["links"]] == [
        (1, 0, 1), (1, 1, 2), (1, 2, 3), (None, None, None), (None, None, None)]
    assert (chain["steps"], chain["last_step"], chain["links_run"]) == (3, 3, 3)
    assert chain["checkpoint_seconds_max"] == 0.5 and chain["restart_lost_s"] >= 0
    table = run_jobgen("collect", d, env=env)
    assert table.returncode == 0, table.stderr
    assert "3 step(s) in all, last step 3; lost to restarts" in table.stdout


def _nodefile(tmp: Path) -> Path:
    path = tmp / "nodefile"
    path.write_text("x3000c0s1b0n0\n")
    return path


def test_a_chain_that_fails_twice_in_a_row_stops_at_the_cap(tmp_path):
    bin_dir = install_bin(tmp_path / "bin")
    prog = program(tmp_path, FAILER)
    script = render(tmp_path, "polaris", "job.pbs", "--ranks-per-node", "1", "--",
                    str(prog))
    env = pbs_env(tmp_path, bin_dir)
    res = run_jobgen("chain", str(script), "--links", "4", env=env)
    assert res.returncode == 0, res.stderr
    ran = run_eligible(tmp_path / "pbs", {"PATH": env["PATH"], "HOME": str(tmp_path)},
                       _nodefile(tmp_path))
    assert ran == ["1.pbs01", "2.pbs01"]
    d = Path(f"{script}.chain")
    assert (d / "STOPPED").read_text() == (
        "link 2: 2 link(s) in a row made no progress (the cap is 2)\n")
    rows = json.loads(run_jobgen("status", str(d), "--format", "json", env=env).stdout)
    assert [(r["state"], r["exit_code"]) for r in rows["links"]] == [
        ("failed", 3), ("failed", 3), ("cancelled", 271), ("cancelled", 271)]
    assert rows["stopped"].startswith("link 2: 2 link(s) in a row")


def test_cancel_leaves_nothing_queued_last_link_first(tmp_path):
    prog = program(tmp_path, FAILER)
    script = render(tmp_path, "polaris", "job.pbs", "--", str(prog))
    env = pbs_env(tmp_path)
    assert run_jobgen("chain", str(script), "--links", "3", env=env).returncode == 0
    d = f"{script}.chain"
    res = run_jobgen("cancel", d, env=env)
    assert res.returncode == 0, res.stderr
    assert res.stderr.strip() == "cancelled 3 link(s): 3.pbs01 2.pbs01 1.pbs01"
    state = json.loads((tmp_path / "pbs" / "jobs.json").read_text())
    assert {j["job_state"] for j in state.values()} == {"F"}
    assert (Path(d) / "STOPPED").read_text() == "cancelled with jobgen cancel\n"
    again = run_jobgen("cancel", d, env=env)
    assert again.returncode == 0 and "nothing to cancel" in again.stderr


# ---------------------------------------------------------------- hostile input
@pytest.mark.parametrize("links", ["0", "10000", "-1"])
def test_link_counts_out_of_range_are_one_line(gpt_pbs, tmp_path, links):
    env = pbs_env(tmp_path)
    line = one_line_error(run_jobgen("chain", str(gpt_pbs), "--links", links, env=env))
    assert "a chain has 1 to 100 links" in line
    assert not qsubs(tmp_path) and not Path(f"{gpt_pbs}.chain").exists()


def test_a_bundled_app_without_checkpoint_dir_and_a_local_script_are_refused(tmp_path):
    env = pbs_env(tmp_path)
    script = render(tmp_path, "polaris", "job.pbs", "--app", "gpt")
    line = one_line_error(run_jobgen("chain", str(script), "--links", "2", env=env))
    assert line.endswith("render again with --checkpoint-dir DIR")
    local = render(tmp_path, "local", "job.sh", "--app", "gpt", "--checkpoint-dir", "ck")
    line = one_line_error(run_jobgen("chain", str(local), "--links", "2", env=env))
    assert "has no batch scheduler" in line
    assert not qsubs(tmp_path) and not list(tmp_path.glob("*.chain"))


def test_a_chain_submitted_twice_is_refused_and_force_waits_for_the_old_links(tmp_path):
    prog = program(tmp_path, FAILER)
    script = render(tmp_path, "polaris", "job.pbs", "--", str(prog))
    env = pbs_env(tmp_path)
    assert run_jobgen("chain", str(script), "--links", "2", env=env).returncode == 0
    before = (Path(f"{script}.chain") / "chain.json").read_bytes()
    line = one_line_error(run_jobgen("chain", str(script), "--links", "2", env=env))
    assert "was chained already" in line and "--force" in line
    line = one_line_error(run_jobgen("chain", str(script), "--links", "2", "--force",
                                     env=env))
    assert "still queued" in line and "jobgen cancel" in line
    assert len(qsubs(tmp_path)) == 2
    assert (Path(f"{script}.chain") / "chain.json").read_bytes() == before


def test_a_dependency_on_a_job_the_scheduler_does_not_know(tmp_path):
    prog = program(tmp_path, FAILER)
    script = render(tmp_path, "polaris", "job.pbs", "--", str(prog))
    env = pbs_env(tmp_path)
    line = one_line_error(run_jobgen("chain", str(script), "--links", "2", "--after",
                                     "999.pbs01", env=env))
    assert "nothing submitted" in line and "Unknown Job Id 999.pbs01" in line
    assert not Path(f"{script}.chain").exists()


@pytest.mark.parametrize("edit", ["jobs", "chain", "link"])
def test_an_edited_chain_directory_is_one_line(tmp_path, edit):
    prog = program(tmp_path, FAILER)
    script = render(tmp_path, "polaris", "job.pbs", "--", str(prog))
    env = pbs_env(tmp_path)
    assert run_jobgen("chain", str(script), "--links", "2", env=env).returncode == 0
    d = Path(f"{script}.chain")
    if edit == "jobs":  # someone else's job id put in: a link would cancel it
        (d / "jobs.txt").write_text("1 1.pbs01\n2 77.pbs01\n")
    elif edit == "chain":
        text = (d / "chain.json").read_text().replace('"max_stalled": 2', '"max_stalled": "x"')
        (d / "chain.json").write_text(text)
    else:
        (d / "link-1.json").write_text('{"link": 1, "exit_code": "rm -rf /"}')
    for command in ("status", "cancel"):
        line = one_line_error(run_jobgen(command, str(d), env=env))
        assert str(d) in line
    state = json.loads((tmp_path / "pbs" / "jobs.json").read_text())
    assert {j["job_state"] for j in state.values()} <= {"Q", "H"}  # nothing cancelled
    assert not (d / "STOPPED").exists()


# ---------------------------------------------------------------- LSF and Cobalt stand-ins
LSF_STANDIN = Path(__file__).resolve().parent / "emulation" / "lsf"
COBALT_STANDIN = Path(__file__).resolve().parent / "emulation" / "cobalt"


def _standin(kind: str):
    import importlib.util

    path = (LSF_STANDIN / "lsf.py") if kind == "lsf" else (COBALT_STANDIN / "cobalt.py")
    spec = importlib.util.spec_from_file_location(f"emu_{kind}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["lsf", "cobalt"])
def test_lsf_and_cobalt_chains_run_to_the_end_and_cancel(tmp_path, kind):
    """Summit's bsub -w 'ended(ID)' (variables through bsub's environment) and JLSE's Cobalt
    --dependencies/--env: the trainer chain ends at its last step; a second chain cancels."""
    bin_dir = install_bin(tmp_path / "bin")
    standin = LSF_STANDIN if kind == "lsf" else COBALT_STANDIN
    env = {"PATH": f"{standin}{os.pathsep}{bin_dir}{os.pathsep}{os.environ['PATH']}",
           f"JOBGEN_EMU_{kind.upper()}": str(tmp_path / kind)}
    prog = program(tmp_path, TRAINER.format(ck=tmp_path / "ck"))
    site, name, extra = (("summit", "job.lsf", ()) if kind == "lsf" else
                         ("jlse-mi250", "job.cobalt", ("--python", "python3")))
    script = render(tmp_path, site, name, "--ranks-per-node", "1", *extra, "--", str(prog))
    res = run_jobgen("chain", str(script), "--links", "4", "--checkpoint-dir",
                     str(tmp_path / "ck"), env=env)
    assert res.returncode == 0, res.stderr
    ids = [line.split()[-1] for line in res.stdout.splitlines()]
    log = [json.loads(x) for x in (tmp_path / kind / "calls.log").read_text().splitlines()]
    submits = [c for c in log if c[0] in ("bsub", "qsub") and c[1:] not in (["-V"],
                                                                             ["--version"])]
    d = f"{script}.chain"
    if kind == "lsf":
        assert submits == [["bsub"], ["bsub", "-w", f"ended({ids[0]})"],
                           ["bsub", "-w", f"ended({ids[1]})"],
                           ["bsub", "-w", f"ended({ids[2]})"]]
        hosts = tmp_path / "hosts"
        hosts.write_text("batch1\n" + "h41n01\n" * 42)
    else:
        assert submits[1] == ["qsub", "--dependencies", ids[0], "--env",
                              f"JOBGEN_CHAIN_DIR={d}:JOBGEN_CHAIN_LINK=2", "job.cobalt"]
        hosts = _nodefile(tmp_path)
    module = _standin(kind)
    ran = module.run_eligible(tmp_path / kind, {"PATH": env["PATH"], "HOME": str(tmp_path),
                                                "JOBGEN_EMU_LOG": str(tmp_path / "ev.jsonl"),
                                                "JOBGEN_EMU_OUT": str(tmp_path)}, hosts)
    assert ran == ids[:3], [p.read_text()[-2000:] for p in tmp_path.glob("*.out*")]
    rows = json.loads(run_jobgen("status", d, "--format", "json", env=env).stdout)
    assert [r["exit_code"] for r in rows["links"][:3]] == [1, 1, 0]
    assert rows["links"][3]["state"] == "cancelled"  # by link 3
    assert rows["stopped"] == "link 3: the training is finished"
    # a second chain, cancelled before it runs: nothing is left to run
    script2 = render(tmp_path, site, "two." + name.split(".")[1], "--ranks-per-node", "1",
                     *extra, "--", str(program(tmp_path, FAILER, "f.sh")))
    res = run_jobgen("chain", str(script2), "--links", "3", env=env)
    assert res.returncode == 0, res.stderr
    ids = [line.split()[-1] for line in res.stdout.splitlines()]
    cancel = run_jobgen("cancel", f"{script2}.chain", env=env)
    assert cancel.returncode == 0, cancel.stderr
    assert cancel.stderr.strip() == f"cancelled 3 link(s): {ids[2]} {ids[1]} {ids[0]}"
    assert module.run_eligible(tmp_path / kind, {"PATH": env["PATH"]}, hosts) == []


def test_a_later_link_refused_keeps_the_earlier_ones_and_says_so(tmp_path):
    """The queue takes 2 jobs: links 1 and 2 stay queued, link 3's refusal is recorded and
    shown, exit 1 (not 2: something was submitted)."""
    prog = program(tmp_path, FAILER)
    script = render(tmp_path, "polaris", "job.pbs", "--", str(prog))
    env = {**pbs_env(tmp_path), "JOBGEN_EMU_QSUB": "limit=2"}
    res = run_jobgen("chain", str(script), "--links", "4", env=env)
    assert res.returncode == 1, res.stderr
    assert res.stdout.splitlines() == ["link 1: job 1.pbs01", "link 2: job 2.pbs01"]
    assert res.stderr.strip().splitlines()[-1] == (
        "jobgen: link 3: qsub failed: qsub: would exceed queue generic's per-user limit")
    rows = json.loads(run_jobgen("status", f"{script}.chain", "--format", "json",
                                 env=env).stdout)["links"]
    assert [r["state"] for r in rows] == ["queued", "held", "not submitted", "not submitted"]
    assert rows[2]["note"] == "qsub: would exceed queue generic's per-user limit"
    assert (tmp_path / "job.pbs.chain" / "jobs.txt").read_text() == "1 1.pbs01\n2 2.pbs01\n"


def test_open_mpi_forwards_the_chain_link_and_deadline_the_ranks_read(tmp_path):
    """Open MPI's mpirun hands remote ranks only the variables `-x` names (mpirun(1), "-x
    <env>"), so the link number the apps record (JOBGEN_CHAIN_LINK) must be named, and exported
    (empty outside a chain) so that `-x` never names an unset variable."""
    out = tmp_path / "job.sh"
    r = run_jobgen("render", "--site", "jlse-mi250", "--app", "cosmictagger", "--nodes", "2",
                   "-A", "proj", "--python", "/x/bin/python", "--out", str(out))
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    launch = [line for line in text.splitlines()
              if line.startswith("mpirun") and "$JOBGEN_WRAPPER" in line]
    assert len(launch) == 1, launch
    for name in ("JOBGEN_CHAIN_LINK", "JOBGEN_DEADLINE"):
        assert f" -x {name} " in launch[0]
        assert text.index(f"export {name}=") < text.index(launch[0])
