"""`jobgen diff`: sites, profile versions and scripts compared by meaning, exit codes like diff."""

from __future__ import annotations

import json
import shutil

from helpers import ROOT, run_jobgen

from jobgen.plan.build import Request
from jobgen.review.diffing import diff_sites


def _changes(result) -> list[dict]:
    return [c for comp in json.loads(result.stdout) for c in comp["changes"]]


def test_aurora_vs_sunspot_names_system_filesystem_and_queue_only():
    result = run_jobgen("diff", "--site", "aurora", "--site", "sunspot", "--format", "json")
    assert result.returncode == 1, result.stderr
    changes = {(c["group"], c["key"]): (c["old"], c["new"]) for c in _changes(result)}
    assert changes == {
        ("directives", "#PBS -q"): ("capacity", "workq"),
        ("directives", "#PBS -l select"): ("1", "1:system=sunspot"),
        ("directives", "#PBS -l filesystems"): ("home:flare", "home:tegu"),
        ("environment", "MASTER_ADDR"): (
            "${jobgen_first_host%%.*}.hsn.cm.aurora.alcf.anl.gov",
            "${jobgen_first_host%%.*}.hsn.cm.sunspot.alcf.anl.gov"),
    }
    text = run_jobgen("diff", "--site", "aurora", "--site", "sunspot", "--app", "gpt")
    assert text.returncode == 1
    assert text.stdout.splitlines()[:3] == ["--- aurora", "+++ sunspot", "directives:"]
    assert "~ #PBS -q: capacity -> workq" in text.stdout


def test_same_site_twice_is_equal_and_exits_0():
    result = run_jobgen("diff", "--site", "polaris", "--site", "polaris", "--nodes", "2")
    assert result.returncode == 0, result.stderr
    assert "no differences in meaning" in result.stdout


def test_request_options_apply_to_both_sites():
    comparison = diff_sites(["lumi", "polaris"], Request(site="-", app="ffn", nodes=2))[0]
    keys = {(c.group, c.key) for c in comparison.changes}
    assert ("launcher", "command") in keys and ("placement", "local rank 7") in keys


def test_script_against_a_hand_edited_copy(tmp_path):
    old, new = tmp_path / "job.slurm", tmp_path / "edited.slurm"
    assert run_jobgen("render", "--site", "lumi", "--app", "ffn", "-A", "p", "--out",
                      str(old)).returncode == 0
    text = old.read_text()
    # reorder two directives (no change in meaning) and change one export (a change)
    lines = text.splitlines(keepends=True)
    d = [i for i, line in enumerate(lines) if line.startswith("#SBATCH")]
    lines[d[0]], lines[d[1]] = lines[d[1]], lines[d[0]]
    new.write_text("".join(lines).replace("/torch_home\"", "/torch-cache\""))
    result = run_jobgen("diff", str(old), str(new))
    assert result.returncode == 1
    assert result.stdout.splitlines()[2:] == [
        "environment:", "  ~ TORCH_HOME: /scratch/${SLURM_JOB_ACCOUNT}/${USER}/torch_home -> "
        "/scratch/${SLURM_JOB_ACCOUNT}/${USER}/torch-cache"]
    assert run_jobgen("diff", str(old), str(old)).returncode == 0


def test_the_app_command_is_the_program_and_its_arguments_not_the_background_operator(
        tmp_path):
    old, new = tmp_path / "job.pbs", tmp_path / "hand.pbs"
    assert run_jobgen("render", "--site", "aurora", "--app", "ffn", "-A", "p", "--out",
                      str(old)).returncode == 0
    new.write_text(old.read_text().replace("--precision bf16", "--precision fp32"))
    result = run_jobgen("diff", str(old), str(new), "--format", "json")
    assert result.returncode == 1
    (change,) = _changes(result)
    assert change["group"] == "app command"
    assert change["old"].endswith("--precision bf16 --dist-backend xccl --no-ipex --workers 3")
    assert change["new"].endswith("--precision fp32 --dist-backend xccl --no-ipex --workers 3")


def test_lumi_renders_of_two_apps_differ_in_the_app_command_not_in_a_cleanup_step():
    """LUMI scripts run `srun ... rm -rf` in the cleanup function and `srun ... mkdir` before
    the launch; the app command is read from the launch of the ranks, after both."""
    result = run_jobgen("diff", str(ROOT / "examples" / "lumi" / "ffn.slurm"),
                        str(ROOT / "examples" / "lumi" / "gpt.slurm"), "--format", "json")
    assert result.returncode == 1
    changes = {c["group"]: c for c in _changes(result)}
    assert set(changes) == {"directives", "app command"}
    assert "python -m workloads.ffn" in changes["app command"]["old"]
    assert "python -m workloads.gpt" in changes["app command"]["new"]


def test_launch_words_stop_at_control_operators_and_skip_redirections():
    from jobgen.review.scriptparse import command_words

    assert command_words("srun -n 2 python t.py --lr 3e-4 > log 2>&1 &") == \
        ["srun", "-n", "2", "python", "t.py", "--lr", "3e-4"]
    assert command_words("mpiexec -n 2 bash -c 'a && b' | tee out; echo done") == \
        ["mpiexec", "-n", "2", "bash", "-c", "a && b"]


def test_profile_before_and_after_an_edit(tmp_path):
    before, after = tmp_path / "before", tmp_path / "after"
    for d in (before, after):
        d.mkdir()
        for name in ("aurora", "sunspot"):
            shutil.copy(ROOT / "site_profiles" / f"{name}.yaml", d / f"{name}.yaml")
    edited = (after / "aurora.yaml").read_text().replace(
        'default_walltime: "00:30:00"', 'default_walltime: "00:20:00"')
    (after / "aurora.yaml").write_text(edited)
    one = run_jobgen("diff", str(before / "aurora.yaml"), str(after / "aurora.yaml"))
    assert one.returncode == 1, one.stderr
    assert "~ scheduler.default_walltime: 00:30:00 -> 00:20:00" in one.stdout
    assert "~ #PBS -l walltime: 00:30:00 -> 00:20:00" in one.stdout
    # directories: sunspot extends the edited aurora next to it, so it changes too
    both = run_jobgen("diff", str(before), str(after), "--format", "json")
    assert both.returncode == 1
    compared = {c["new"].rsplit("/", 1)[-1]: c for c in json.loads(both.stdout)}
    assert set(compared) == {"aurora.yaml", "sunspot.yaml"}
    assert not compared["sunspot.yaml"]["equal"]
    same = run_jobgen("diff", str(before), str(before), "--site", "sunspot")
    assert same.returncode == 0, same.stdout + same.stderr


def test_mistakes_exit_2(tmp_path):
    assert run_jobgen("diff", "--site", "aurora").returncode == 2
    assert run_jobgen("diff", "--site", "aurora", "--site", "nowhere").returncode == 2
    script = tmp_path / "a.sh"
    script.write_text("#!/bin/bash\n")
    assert run_jobgen("diff", str(script), str(ROOT / "site_profiles" / "aurora.yaml")
                      ).returncode == 2
    assert run_jobgen("diff", str(script)).returncode == 2


def test_a_profile_to_profile_diff_shows_differences_only_and_an_entry_once():
    """aurora.yaml against sunspot.yaml: no unset values (None, []), and a queue or a section
    one side lacks is one line, not one per field."""
    res = run_jobgen("diff", "site_profiles/aurora.yaml", "site_profiles/sunspot.yaml")
    assert res.returncode == 1, res.stderr
    lines = res.stdout.splitlines()
    assert len(lines) < 80, res.stdout
    assert not [ln for ln in lines if ln.endswith((": None", ": []", "-> None", "-> []"))
                or ": None ->" in ln or ": [] ->" in ln]
    debug = [ln for ln in lines if "scheduler.queues[debug]" in ln]
    assert len(debug) == 1 and debug[0].startswith("  - scheduler.queues[debug]: name=debug")
    assert [ln for ln in lines if ln.startswith("  - copper")] == [
        next(ln for ln in lines if ln.startswith("  - copper: "))]
    assert "  + scheduler.queues[workq]: name=workq" in res.stdout
    assert "  ~ machine.nodes: 10624 -> 128" in lines
