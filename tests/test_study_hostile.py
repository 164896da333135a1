"""The study workflow against hostile and messy input (issue 24): each reproducer F2-F15 as
it was found, and the one answer jobgen gives now.

Sweeps are real (`jobgen sweep`); runs are real where they can be (MPICH on this machine,
the test Slurm); PBS, which cannot run here, is the stand-in in tests/emulation/pbs/.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT, capped, jobgen_here, run_jobgen

from jobgen.study import manifest as mf
from jobgen.study.collect import chance_of_separation, csv_cell, verdict

PBS_STANDIN = ROOT / "tests" / "emulation" / "pbs"
RESULT = "import json; print(json.dumps({'app': 'mine', 'samples_per_sec': 5.0}))"


# ---------------------------------------------------------------- helpers
here = jobgen_here  # the CLI in this process


def standin(monkeypatch, tmp_path: Path, knob: str = "ok") -> None:
    for key, value in pbs_env(tmp_path, knob).items():
        monkeypatch.setenv(key, value)


def one_error(res: subprocess.CompletedProcess[str]) -> str:
    """The run ended with exit 2 and exactly one line, an error (no traceback)."""
    assert res.returncode == 2, res.stdout + res.stderr
    lines = res.stderr.strip().splitlines()
    assert "Traceback" not in res.stderr and len(lines) == 1, res.stderr
    assert lines[0].startswith("jobgen: error: ")
    return lines[0]


def pbs_env(tmp_path: Path, knob: str = "ok") -> dict[str, str]:
    return {"PATH": f"{PBS_STANDIN}{os.pathsep}{os.environ['PATH']}",
            "JOBGEN_EMU_PBS": str(tmp_path / "pbs"), "JOBGEN_EMU_QSUB": knob}


def qsub_calls(tmp_path: Path) -> list[list[str]]:
    log = tmp_path / "pbs" / "calls.log"
    calls = [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []
    return [c for c in calls if c[0] == "qsub" and c[1:] != ["--version"]]


def copy(src: Path, tmp_path: Path, name: str = "s") -> Path:
    dst = tmp_path / name
    shutil.copytree(src, dst, symlinks=True)
    return dst


def edit(sweep: Path, change) -> None:
    path = sweep / mf.NAME
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def snapshot(root: Path) -> dict[str, bytes | str]:
    """Every entry under `root`: file contents, link targets."""
    out: dict[str, bytes | str] = {}
    for p in sorted(root.rglob("*")):
        rel = str(p.relative_to(root))
        out[rel] = f"-> {os.readlink(p)}" if p.is_symlink() else (
            p.read_bytes() if p.is_file() else "dir")
    return out


def outside(tmp_path: Path) -> Path:
    """A directory beside the sweep that nothing may touch."""
    out = tmp_path / "outside"
    (out / "r1").mkdir(parents=True)
    (out / "r1" / "keep.txt").write_text("precious")
    (out / "victim.txt").write_text("precious")
    (out / "output.txt").write_text("precious")
    (out / "job.sh").write_text(f"#!/bin/bash\ntouch {out}/RAN\n")
    return out


@pytest.fixture(scope="module")
def polaris(tmp_path_factory) -> Path:
    """Two runs for PBS (1 node, the debug queue), scripts only."""
    out = tmp_path_factory.mktemp("polaris") / "s"
    res = run_jobgen("sweep", "--site", "polaris", "-A", "proj", "--app", "qcnn", "--nodes", "1",
                     "--repeat", "2", "--out", str(out))
    assert res.returncode == 0, res.stderr
    return out


@pytest.fixture(scope="module")
def mine(tmp_path_factory) -> Path:
    """A sweep of the user's own program on this machine (MPICH), submitted: it ran."""
    out = tmp_path_factory.mktemp("mine") / "s"
    res = run_jobgen("sweep", "--site", "local-mpich", "--ranks-per-node", "1", "--repeat", "2",
                     "--out", str(out), "--submit", "--", "python3", "-c", RESULT)
    assert res.returncode == 0, res.stderr
    return out


# ---------------------------------------------------------------- F2: paths from the manifest
@pytest.mark.parametrize(("field", "value"), [
    ("dir", "../outside"), ("dir", "/tmp"), ("script", "../outside/job.sh"),
    ("script", "rpn1/r1/../../../outside/job.sh"), ("output", "../outside/output.txt"),
    ("output", "rpn1/r2/output.txt"),  # another run's file
])
def test_f2_submit_and_collect_refuse_paths_outside_the_run(mine, tmp_path, field, value):
    out = outside(tmp_path)
    before = snapshot(out)
    sweep = copy(mine, tmp_path)

    def change(data):
        run = data["points"][0]["runs"][0]
        run[field] = value
        run["exit_code"] = None  # not submitted yet: submit would run it
    edit(sweep, change)
    for command in (("submit", "--again"), ("collect",), ("status",)):
        line = one_error(here(*command[:1], str(sweep), *command[1:]))
        assert "manifest.json: points.0.runs.0" in line
    assert snapshot(out) == before and not (out / "RAN").exists()


# ---------------------------------------------------------------- F3, F15: links
def test_f3_sweep_force_over_a_linked_point_directory_leaves_the_target_alone(tmp_path):
    out = outside(tmp_path)
    before = snapshot(out)
    sweep = tmp_path / "s"
    args = ("sweep", "--site", "local-mpich", "--ranks-per-node", "1", "--out", str(sweep))
    program = ("--", "python3", "-c", RESULT)
    assert run_jobgen(*args, *program).returncode == 0
    shutil.rmtree(sweep / "rpn1")
    (sweep / "rpn1").symlink_to(out)
    res = run_jobgen(*args, "--force", *program)
    assert res.returncode == 0, res.stderr
    assert snapshot(out) == before  # the link's target keeps its r1
    assert not (sweep / "rpn1").is_symlink() and (sweep / "rpn1" / "r1" / "job.sh").is_file()


def test_f3_submit_never_writes_a_runs_output_through_a_planted_link(mine, tmp_path):
    out = outside(tmp_path)
    before = snapshot(out)
    sweep = copy(mine, tmp_path)
    target = sweep / "rpn1" / "r1" / "output.txt"
    target.unlink()
    target.symlink_to(out / "victim.txt")
    res = run_jobgen("submit", str(sweep), "--again")
    assert res.returncode == 0, res.stderr
    assert snapshot(out) == before
    assert not target.is_symlink() and "samples_per_sec" in target.read_text()


def test_f3_collect_never_writes_results_through_a_planted_link(mine, tmp_path):
    out = outside(tmp_path)
    before = snapshot(out)
    sweep = copy(mine, tmp_path)
    (sweep / "results.csv").unlink(missing_ok=True)
    (sweep / "results.csv").symlink_to(out / "victim.txt")
    edit(sweep, lambda data: data.update(results=[]))  # not a file an earlier collect wrote
    line = one_error(run_jobgen("collect", str(sweep)))
    assert line.endswith("results.csv exists: add --force to replace it")
    assert run_jobgen("collect", str(sweep), "--force").returncode == 0
    assert snapshot(out) == before
    assert not (sweep / "results.csv").is_symlink()
    assert (sweep / "results.csv").read_text().startswith("sweep,point,")


def test_f3_a_run_directory_replaced_by_a_link_is_not_followed(mine, tmp_path):
    out = outside(tmp_path)
    before = snapshot(out)
    sweep = copy(mine, tmp_path)
    shutil.rmtree(sweep / "rpn1" / "r1")
    (sweep / "rpn1" / "r1").symlink_to(out)
    line = one_error(run_jobgen("submit", str(sweep), "--again"))
    assert "jobgen does not follow links inside a sweep" in line
    assert snapshot(out) == before and not (out / "RAN").exists()


@pytest.mark.slow
def test_f15_report_out_obeys_force_and_never_writes_through_a_link(mine, tmp_path):
    pytest.importorskip("matplotlib", reason="pip install 'jobgen[report]'")
    out = outside(tmp_path)
    chart = tmp_path / "chart.svg"
    chart.write_text("mine")
    assert one_error(run_jobgen("report", str(mine), "--out", str(chart))).endswith(
        "exists: add --force to overwrite it")
    assert chart.read_text() == "mine"
    chart.unlink()
    chart.symlink_to(out / "victim.txt")
    one_error(run_jobgen("report", str(mine), "--out", str(chart)))
    res = run_jobgen("report", str(mine), "--out", str(chart), "--force")
    assert res.returncode == 0, res.stderr
    assert (out / "victim.txt").read_text() == "precious"
    assert not chart.is_symlink() and chart.read_text().startswith("<?xml")


# ---------------------------------------------------------------- F4: output name patterns
@pytest.mark.parametrize("pattern", ["{id:>300000000}", "{0}", "{x}", "{id",
                                     "{id.__class__.__mro__}", "a/%j", "%x.out", ".."])
def test_f4_an_output_pattern_is_never_a_format_string(polaris, tmp_path, monkeypatch,
                                                       pattern):
    sweep = copy(polaris, tmp_path)
    edit(sweep, lambda d: d["points"][0]["runs"][0].update(output_pattern=pattern))
    size = (sweep / mf.NAME).stat().st_size
    standin(monkeypatch, tmp_path)
    line = one_error(here("submit", str(sweep)))
    assert "points.0.runs.0.output_pattern" in line
    assert qsub_calls(tmp_path) == [] and (sweep / mf.NAME).stat().st_size == size


def test_f4_output_names_substitute_fixed_tokens_only():
    assert mf.output_name("qcnn-%j.o%s", "123.pbs01") == "qcnn-123.pbs01.o123"
    assert mf.output_name("100%%-%j", "7") == "100%-7"
    with pytest.raises(Exception, match="not a job id"):
        mf.output_name("%j", "../../etc")


def test_f4_a_format_1_manifest_is_read_with_its_two_tokens(polaris, tmp_path):
    sweep = copy(polaris, tmp_path)

    def old(data):
        data["format"] = 1
        data["points"][0]["runs"][0]["output_pattern"] = "qcnn-n1-r1.o{seq}"
    edit(sweep, old)
    assert mf.load(sweep).points[0].runs[0].output_pattern == "qcnn-n1-r1.o%s"


# ---------------------------------------------------------------- F5, F12: the scheduler's answers
def test_f5_f12_a_scheduler_printing_bytes_and_escapes_is_read_and_the_ids_kept(polaris,
                                                                               tmp_path):
    sweep = copy(polaris, tmp_path)
    res = run_jobgen("submit", str(sweep), env=pbs_env(tmp_path, "noise"))
    assert res.returncode == 0, res.stderr
    runs = [r for p in mf.load(sweep).valid_points for r in p.runs]
    assert [r.job_id for r in runs] == ["1.pbs01", "2.pbs01"]
    assert [r.output for r in runs] == ["n1/r1/qcnn-n1-r1.o1", "n1/r2/qcnn-n1-r2.o2"]
    assert res.stderr.splitlines()[-1].startswith("jobgen: done: 2 of 2 run(s) submitted, in ")
    assert res.stderr.endswith(f"; next: jobgen status {sweep}, then jobgen collect {sweep}\n")
    again = run_jobgen("submit", str(sweep), env=pbs_env(tmp_path, "noise"))
    assert "submitted already" in one_error(again)
    assert len(qsub_calls(tmp_path)) == 2  # submit is idempotent


def test_f12_a_refusal_with_escape_sequences_reaches_the_terminal_escaped(polaris, tmp_path):
    sweep = copy(polaris, tmp_path)
    res = run_jobgen("submit", str(sweep), env=pbs_env(tmp_path, "fail"))
    assert res.returncode == 1
    assert "\x1b" not in res.stderr and "\\x1b[31mUnknown queue" in res.stderr
    assert "stopped after the first failure: 1 run(s) not submitted" in res.stderr
    assert "jobgen: done: 0 of 2 run(s) submitted, 1 failed, 1 not sent, in " in res.stderr
    assert len(qsub_calls(tmp_path)) == 1  # not 54 x 9 s
    res = run_jobgen("submit", str(sweep), "--keep-going", env=pbs_env(tmp_path, "fail"))
    assert res.returncode == 1 and len(qsub_calls(tmp_path)) == 3


def test_a_job_id_is_never_lost_when_jobgen_is_killed_during_qsub(polaris, tmp_path):
    sweep = copy(polaris, tmp_path)
    env = dict(os.environ, **pbs_env(tmp_path, "hang"), PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "jobgen", "submit", str(sweep)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not qsub_calls(tmp_path) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert qsub_calls(tmp_path), "qsub was never called"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # jobgen and the hanging qsub
        proc.wait()
    [first, second] = [r for p in mf.load(sweep).valid_points for r in p.runs]
    assert first.maybe_submitted and first.job_id is None  # recorded before qsub ran
    res = run_jobgen("submit", str(sweep), env=pbs_env(tmp_path))
    assert res.returncode == 0, res.stderr
    assert len(qsub_calls(tmp_path)) == 2  # the second run only: the first may exist
    status = run_jobgen("status", str(sweep), "--format", "json", env=pbs_env(tmp_path))
    states = {s["repeat"]: s["state"] for s in json.loads(status.stdout)}
    assert states == {1: "unknown", 2: "queued"}


def test_a_submit_that_prints_no_job_id_is_not_sent_twice(polaris, tmp_path):
    sweep = copy(polaris, tmp_path)
    res = run_jobgen("submit", str(sweep), "--keep-going", env=pbs_env(tmp_path, "noid"))
    assert res.returncode == 1 and "printed no job id" in res.stderr
    assert "submitted already" in one_error(run_jobgen("submit", str(sweep),
                                                       env=pbs_env(tmp_path)))
    assert len(qsub_calls(tmp_path)) == 2


# ---------------------------------------------------------------- F6: types, sizes, nesting
NESTED = "[" * 50_000 + "]" * 50_000


@pytest.mark.parametrize(("value", "says"), [
    ("NaN", "samples_per_sec"), ("Infinity", "samples_per_sec"),
    ("-Infinity", "samples_per_sec"), ("1e400", "samples_per_sec"),
    ('"fast"', "samples_per_sec"), ("[1, 2]", "samples_per_sec"), ("-5", "samples_per_sec"),
    ("1" + "0" * 4000, "samples_per_sec"), (NESTED, "levels deep"), ("true", "samples_per_sec"),
], ids=["nan", "inf", "-inf", "1e400", "string", "list", "negative", "4000-digits",
        "50k-nested", "bool"])
def test_f6_a_bad_result_line_is_one_line_naming_file_line_and_field(mine, tmp_path, value,
                                                                      says):
    pytest.importorskip("matplotlib", reason="pip install 'jobgen[report]'")
    sweep = copy(mine, tmp_path)
    out = sweep / "rpn1" / "r1" / "output.txt"
    out.write_text(f"log line\n{{\"app\": \"mine\", \"samples_per_sec\": {value}}}\n")
    for command in ("collect", "report"):
        extra = ("--out", str(tmp_path / "c.svg")) if command == "report" else ()
        line = one_error(here(command, str(sweep), *extra))
        assert f"{out} line 2: " in line and says in line


def test_f6_nan_in_a_field_collect_does_not_read_is_dropped_not_fatal(mine, tmp_path):
    sweep = copy(mine, tmp_path)
    (sweep / "rpn1" / "r1" / "output.txt").write_text(
        '{"app": "mine", "samples_per_sec": 7.5, "final_loss": NaN, "x": [1e999]}\n')
    res = run_jobgen("collect", str(sweep), "--format", "json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)[0]["best"] == 7.5
    assert "NaN" not in (sweep / "results.json").read_text()


def _deep(data):
    data["points"] = json.loads("[" * 200 + "]" * 200)


@pytest.mark.parametrize(("change", "says"), [
    (lambda d: d["points"][0]["runs"][0].update(dir=5), "points.0.runs.0.dir"),
    (lambda d: d["points"][0].update(plan=[]), "points.0.plan"),
    (lambda d: d["points"][0].update(runs={}), "points.0.runs"),
    (lambda d: d.update(dialect="sge"), "dialect"),
    (lambda d: d.update(repeat=True), "repeat"),
    (lambda d: d["axes"].update(nodes=[1.5]), "axes.nodes.0"),
    (lambda d: d["points"][0]["plan"].update(nodes=10 ** 30), "of sensible size"),
    (lambda d: d["points"][0]["plan"].update(world_size=float("nan")), "not a finite number"),
    (lambda d: d.update(points=d["points"] * 2), "a point id appears twice"),
    (lambda d: d["points"][0].update(id="../x"), "points.0.id"),
    (lambda d: d.update(surprise=1), "surprise"),
    (lambda d: d.update(format=7), "format"),
    (_deep, "levels deep"),
])
def test_f6_a_damaged_manifest_is_one_line_naming_the_file_and_field(polaris, tmp_path,
                                                                     monkeypatch, change, says):
    sweep = copy(polaris, tmp_path)
    edit(sweep, change)
    standin(monkeypatch, tmp_path)
    for command in ("collect", "submit", "status", "cancel"):
        line = one_error(here(command, str(sweep)))
        assert f"{sweep / mf.NAME}: " in line and says in line, line
    assert qsub_calls(tmp_path) == []


def test_f6_a_manifest_of_200000_nested_brackets_is_one_line(polaris, tmp_path):
    sweep = copy(polaris, tmp_path)
    (sweep / mf.NAME).write_text("[" * 200_000 + "]" * 200_000)
    assert "levels deep" in one_error(run_jobgen("collect", str(sweep)))


# ---------------------------------------------------------------- F7: bounded reads
def test_f7_a_3_gb_output_is_read_from_its_end(mine, tmp_path):
    sweep = copy(mine, tmp_path)
    out = sweep / "rpn1" / "r1" / "output.txt"
    with open(out, "r+b") as fh:  # sparse: no disk is used
        fh.truncate(3 << 30)
        fh.seek(0, os.SEEK_END)
        fh.write(b'\n{"app": "mine", "samples_per_sec": 9.0}\n')
    res = run_jobgen("collect", str(sweep), "--format", "json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)[0]["best"] == 9.0


def test_f7_a_huge_manifest_and_config_are_one_line(polaris, tmp_path):
    sweep = copy(polaris, tmp_path)
    with open(sweep / mf.NAME, "r+b") as fh:
        fh.truncate(3 << 30)
    assert "is too large for a sweep manifest" in one_error(run_jobgen("collect", str(sweep)))
    config = tmp_path / "config" / "jobgen" / "config.yaml"
    config.parent.mkdir(parents=True)
    with open(config, "wb") as fh:
        fh.truncate(3 << 30)
    res = run_jobgen("render", "--site", "local", "--app", "qcnn",
                     env={"XDG_CONFIG_HOME": str(tmp_path / "config")})
    assert "is too large for a user config" in one_error(res)


def test_f7_a_fifo_as_output_does_not_hang_collect(mine, tmp_path):
    sweep = copy(mine, tmp_path)
    out = sweep / "rpn1" / "r1" / "output.txt"
    out.unlink()
    os.mkfifo(out)
    res = run_jobgen("collect", str(sweep), "--format", "json", timeout=60)
    assert res.returncode == 1  # that run has no output file now
    assert json.loads(res.stdout)[0]["ok"] == 1


# ---------------------------------------------------------------- F9: report text is plain
def test_f9_titles_and_names_with_dollars_are_drawn_as_text(mine, tmp_path):
    pytest.importorskip("matplotlib", reason="pip install 'jobgen[report]'")
    sweep = copy(mine, tmp_path)
    edit(sweep, lambda d: d.update(device="GPU $\\sqrt{$ x"))
    chart = tmp_path / "c.svg"
    res = run_jobgen("report", str(sweep), "--out", str(chart), "--title", "$\\sqrt{$")
    assert res.returncode == 0, res.stderr
    text = chart.read_text()
    assert "$\\sqrt{$" in text and "GPU $\\sqrt{$ x" in text


# ---------------------------------------------------------------- F12: CSV cells
@pytest.mark.parametrize("name", ["=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)"])
def test_f12_csv_cells_are_never_formulas(mine, tmp_path, name):
    sweep = copy(mine, tmp_path)
    edit(sweep, lambda d: d.update(device=name))
    assert here("collect", str(sweep)).returncode == 0
    import csv

    with open(sweep / "results.csv", newline="") as fh:
        row = next(csv.DictReader(fh))
    assert row["device"].startswith("'") or not row["device"].startswith(("=", "+", "-", "@"))
    assert csv_cell(name)[0] == "'" and csv_cell(-2.5) == -2.5


# ---------------------------------------------------------------- F13, F14: concurrency, bounds
def test_f13_two_sweeps_into_one_directory_at_once_one_wins_one_is_told(tmp_path):
    out = tmp_path / "s"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    argv = [sys.executable, "-m", "jobgen", "sweep", "--site", "polaris", "-A", "p", "--app",
            "qcnn", "--nodes", "1,2,3", "--repeat", "3", "--out", str(out)]
    procs = [subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(2)]
    results = [(p.wait(timeout=120), p.communicate()[1]) for p in procs]
    assert sorted(rc for rc, _ in results) == [0, 2], results
    loser = next(err for rc, err in results if rc == 2).strip().splitlines()[-1]
    assert ("is in use by another jobgen" in loser or "is not empty" in loser), loser
    assert len([r for p in mf.load(out).valid_points for r in p.runs]) == 9


def test_f13_a_sweep_that_loses_the_lock_leaves_the_winners_directory(tmp_path, monkeypatch):
    """The race the test above meets under load, made certain: both sweeps saw no directory,
    the other one made it and locked it first. The loser used to remove the (still empty)
    directory under the winner, and both failed."""
    import fcntl

    from jobgen.errors import JobgenError
    from jobgen.plan.build import Request
    from jobgen.study import files
    from jobgen.study import sweep as sw

    out = tmp_path / "s"
    made = files._make_dirs
    held: list[int] = []

    def winner_locks_first(path: Path) -> None:
        made(path)
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        held.append(fd)

    monkeypatch.setattr(files, "_make_dirs", winner_locks_first)
    try:
        with pytest.raises(JobgenError, match="in use by another jobgen"):
            sw.sweep(Request(site="polaris", app="qcnn", nodes=1, account="p"),
                     {"nodes": [1, 2]}, 1, out)
        assert out.is_dir(), "the losing sweep removed the directory the winner holds"
    finally:
        for fd in held:
            os.close(fd)


@pytest.mark.parametrize(("args", "says"), [
    (("--repeat", "100000000"), "--repeat must be from 1 to 100, not 100000000"),
    (("--nodes", "²"), "--nodes: '²' is not a whole number from 1 to 9999999"),
    (("--nodes", "99999999999999999999"), "is not a whole number from 1 to 9999999"),
    (("--nodes", ",".join(map(str, range(1, 60))), "--ranks-per-node",
      ",".join(map(str, range(1, 60)))), "more than a sweep holds"),
])
def test_f13_f14_sweep_bounds_are_one_line(tmp_path, args, says):
    res = run_jobgen("sweep", "--site", "local", "--app", "qcnn", "--out", str(tmp_path / "s"),
                     *args)
    assert says in one_error(res)


# ---------------------------------------------------------------- honest statistics
@pytest.mark.parametrize(("runs", "reference", "expected"), [
    ([241, 450, 667], [262, 300, 360], "within noise"),  # the issue's bf16 vs fp32
    ([400, 410, 420], [300, 310, 320], "helped"),
    ([200, 210, 220], [300, 310, 320], "hurt"),
    ([400, 410], [300, 310], "within noise"),  # separate, but 2+2 do so 1 time in 3
    ([400], [300], "within noise"),
])
def test_a_verdict_needs_runs_that_separate_beyond_luck(runs, reference, expected):
    assert verdict(runs, reference)[0] == expected
    assert chance_of_separation(3, 3) == pytest.approx(0.1)


@pytest.fixture(scope="module")
def noise(tmp_path_factory) -> Path:
    """fp32 and bf16 of one program whose speed depends only on the repeat (r1, r2, r3):
    nothing but noise separates the precisions. Run for real with MPICH."""
    out = tmp_path_factory.mktemp("noise") / "s"
    program = ("import json, os; k = int(os.path.basename(os.getcwd())[1:]); "
               "print(json.dumps({'app': 'mine', 'samples_per_sec': [241.0, 667.0, 360.0][k - 1]"
               "}))")
    res = run_jobgen("sweep", "--site", "local-mpich", "--ranks-per-node", "1", "--precision",
                     "fp32,bf16", "--repeat", "3", "--out", str(out), "--submit", "--",
                     "python3", "-c", program)
    assert res.returncode == 0, res.stderr
    return out


@pytest.mark.slow
def test_a_noise_only_sweep_is_within_noise_on_table_csv_and_chart(noise, tmp_path):
    res = run_jobgen("collect", str(noise))
    assert res.returncode == 0, res.stderr
    bf16 = next(line for line in res.stdout.splitlines() if line.startswith("bf16"))
    assert "1.00x within noise" in bf16 and "helped" not in res.stdout
    assert all(len(line) <= 80 for line in res.stdout.splitlines())
    import csv

    with open(noise / "results.csv", newline="") as fh:
        rows = {r["point"]: r for r in csv.DictReader(fh)}
    assert rows["bf16-rpn1"]["verdict"] == "within noise"
    assert rows["bf16-rpn1"]["runs"] == "241 667 360"
    pytest.importorskip("matplotlib", reason="pip install 'jobgen[report]'")
    chart = tmp_path / "c.svg"
    assert run_jobgen("report", str(noise), "--out", str(chart)).returncode == 0
    text = chart.read_text()
    assert 'id="marker:within noise"' in text and "marker:helped" not in text
    assert text.count('id="runs:') == 2  # every repeat drawn, per bar
    page = tmp_path / "c.html"
    assert run_jobgen("report", str(noise), "--out", str(page)).returncode == 0
    html = page.read_text()
    assert "<th>ranks/node</th>" in html and "241, 667, 360" in html


# ---------------------------------------------------------------- queue policies
def test_the_profiles_carry_the_documented_per_user_job_limits():
    from jobgen.profiles.load import load_profile

    def limits(site, queue):
        [q] = [q for q in load_profile(site).profile.scheduler.queues if q.name == queue]
        return [(x.per, x.max_jobs, x.max_running) for x in q.job_limits]

    assert limits("polaris", "debug-scaling") == [("user", 1, None)]
    assert limits("polaris", "capacity") == [("user", 2, 1)]
    assert limits("aurora", "debug") == [("user", 1, None)]
    assert limits("lumi", "dev-g") == [("user", 2, 1)]
    assert limits("summit", "debug") == [("user", 1, None)]


@pytest.mark.slow  # five jobgen runs
def test_sweep_warns_and_submit_holds_back_what_debug_scaling_refuses(tmp_path):
    sweep = tmp_path / "s"
    res = run_jobgen("sweep", "--site", "polaris", "-A", "p", "--app", "qcnn", "--nodes",
                     "3,4,5", "--out", str(sweep))
    assert res.returncode == 0, res.stderr
    assert ("warning: 3 runs go to queue debug-scaling, and queue debug-scaling takes 1 "
            "job(s) queued or running per user") in res.stderr
    env = pbs_env(tmp_path, "limit=1")  # the stand-in refuses as the queue would
    res = run_jobgen("submit", str(sweep), env=env)
    assert res.returncode == 0, res.stderr
    assert "2 run(s) held back" in res.stderr and len(qsub_calls(tmp_path)) == 1
    res = run_jobgen("submit", str(sweep), env=env)  # the first job still queued
    assert res.returncode == 0 and len(qsub_calls(tmp_path)) == 1
    assert run_jobgen("cancel", str(sweep), env=env).returncode == 0
    status = json.loads(run_jobgen("status", str(sweep), "--format", "json", env=env).stdout)
    assert [s["state"] for s in status] == ["failed", "not submitted", "not submitted"]
    assert status[0]["word"] == "F:271"
    res = run_jobgen("submit", str(sweep), env=env)
    assert res.returncode == 0 and len(qsub_calls(tmp_path)) == 2


def test_max_in_flight_holds_back_without_a_queue_limit(polaris, tmp_path):
    sweep = copy(polaris, tmp_path)
    res = run_jobgen("submit", str(sweep), "--max-in-flight", "1", env=pbs_env(tmp_path))
    assert res.returncode == 0 and "1 run(s) held back" in res.stderr
    assert len(qsub_calls(tmp_path)) == 1


# ---------------------------------------------------------------- the user's own program
def test_a_sweep_of_my_program_resolves_its_relative_paths_and_runs(tmp_path):
    (tmp_path / "train.py").write_text(
        "import json, sys\nprint(json.dumps({'app': 'mine', 'samples_per_sec': "
        "float(open(sys.argv[2]).read())}))\n")
    (tmp_path / "rate.txt").write_text("42.5")
    res = run_jobgen("sweep", "--site", "local-mpich", "--ranks-per-node", "1", "--out", "s",
                     "--submit", "--", "python3", "train.py", "--rate", "rate.txt",
                     cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert f"train.py -> {tmp_path / 'train.py'}" in res.stderr
    res = run_jobgen("collect", str(tmp_path / "s"), "--format", "json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)[0]["best"] == 42.5


def test_a_sweep_of_a_program_missing_here_stops_before_writing(tmp_path):
    res = run_jobgen("sweep", "--site", "local-mpich", "--out", "s", "--", "python3",
                     "nosuch.py", cwd=tmp_path)
    assert "the program nosuch.py is not in" in one_error(res)
    assert not (tmp_path / "s").exists()


# ================================================================ issue 36 (adversary N2-N18)
CAP = 10  # s: far above what the linear code takes, far below the quadratic code's minutes




def refused(res: subprocess.CompletedProcess[str]) -> str:
    """Exit 2 with exactly one `jobgen: error:` line and no traceback (progress and warning
    lines may come before it)."""
    assert res.returncode == 2, res.stdout + res.stderr
    assert "Traceback" not in res.stderr, res.stderr
    errors = [x for x in res.stderr.splitlines() if x.startswith("jobgen: error: ")]
    assert len(errors) == 1 and res.stderr.strip().splitlines()[-1] == errors[0], res.stderr
    return errors[0]


def fake_bin(tmp_path: Path, **scripts: str) -> dict[str, str]:
    """Commands that answer what a test needs (hostile answers, not emulations), ahead of the
    PBS stand-in on PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name, body in scripts.items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    env = pbs_env(tmp_path)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    return env


def monitor_dir(sweep: Path) -> Path:
    where = sweep / "rpn1" / "r1" / "jobgen-runs" / "job.1" / "monitor"
    where.mkdir(parents=True)
    return where


# ---------------------------------------------------------------- N2: monitor files
def test_n2_a_monitor_link_out_of_the_sweep_is_refused_and_its_values_never_read(mine,
                                                                                tmp_path):
    sweep = copy(mine, tmp_path)
    victim = tmp_path / "outside.csv"
    victim.write_text("t,0,50,31337,40000\n")
    (monitor_dir(sweep) / "n.gpu.csv").symlink_to(victim)
    line = refused(here("collect", str(sweep)))
    assert "does not follow links" in line
    assert not (sweep / "results.csv").exists() and victim.read_text() == "t,0,50,31337,40000\n"


def test_n2_a_linked_jobgen_runs_directory_is_refused(mine, tmp_path):
    sweep = copy(mine, tmp_path)
    elsewhere = tmp_path / "tree" / "job.1" / "monitor"
    elsewhere.mkdir(parents=True)
    (elsewhere / "n.gpu.csv").write_text("t,0,50,31337,40000\n")
    shutil.rmtree(sweep / "rpn1" / "r1" / "jobgen-runs")  # the run's own (its provenance.json)
    (sweep / "rpn1" / "r1" / "jobgen-runs").symlink_to(tmp_path / "tree")
    assert "does not follow links" in refused(here("collect", str(sweep)))


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "huge"])
def test_n2_a_fifo_dev_zero_or_huge_monitor_file_is_one_line_at_once(mine, tmp_path, kind):
    sweep = copy(mine, tmp_path)
    target = monitor_dir(sweep) / "n.cpu.csv"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "dev-zero":
        target.symlink_to("/dev/zero")
    else:
        with open(target, "wb") as fh:  # sparse
            fh.truncate(3 << 30)
    with capped(CAP):
        line = refused(here("collect", str(sweep)))
    assert "n.cpu.csv" in line


def test_n2_nan_inf_and_out_of_range_samples_are_skipped(mine, tmp_path):
    sweep = copy(mine, tmp_path)
    where = monitor_dir(sweep)
    (where / "n.gpu.csv").write_text("t,0,nan,nan,40000\nt,0,inf,1e400,3\nt,1,40,1000,4000\n")
    (where / "n.cpu.csv").write_text("time_s,cpu,mem,total\n1,inf,1e400,3\n2,nan,5,9\n3,20,"
                                     "300,900\n")
    res = here("collect", str(sweep), "--format", "json")
    assert res.returncode == 0, res.stderr
    row = json.loads(res.stdout)[0]
    assert (row["gpu_util_mean_pct"], row["gpu_mem_peak_mib"]) == (40.0, 1000.0)
    assert (row["cpu_busy_mean_pct"], row["host_mem_peak_mib"]) == (20.0, 300.0)


# ---------------------------------------------------------------- N3-N5, N17: linear scans
def test_n3_a_result_line_of_60_kb_unterminated_escaped_quotes_is_one_line_at_once(mine,
                                                                                  tmp_path):
    sweep = copy(mine, tmp_path)
    (sweep / "rpn1" / "r1" / "output.txt").write_text(
        '{"app":"mine","samples_per_sec":1,"x":"' + '\\"' * 30000 + "}\n")
    with capped(CAP):
        assert "not valid JSON" in refused(here("collect", str(sweep)))


def test_n3_a_manifest_with_a_200_kb_unterminated_string_is_one_line_at_once(polaris,
                                                                             tmp_path):
    sweep = copy(polaris, tmp_path)
    text = (sweep / mf.NAME).read_text()
    (sweep / mf.NAME).write_text(text[:-3] + ', "x": "' + '\\"' * 100_000)
    with capped(CAP):
        assert "not valid JSON" in refused(here("status", str(sweep)))


def test_n3_an_80_kb_qstat_answer_is_read_at_once(polaris, tmp_path, monkeypatch):
    sweep = copy(polaris, tmp_path)
    standin(monkeypatch, tmp_path)
    assert here("submit", str(sweep)).returncode == 0
    answer = tmp_path / "answer"
    answer.write_text('{"Jobs": {"1.pbs01": {"job_state": "' + '\\"' * 40_000 + "\n")
    for key, value in fake_bin(tmp_path, qstat=f"cat {answer}").items():
        monkeypatch.setenv(key, value)
    with capped(CAP):
        res = here("status", str(sweep), "--format", "json")
    assert res.returncode == 0, res.stderr  # an unreadable answer lists no job: gone


def test_n4_diff_of_a_720_kb_line_repeating_the_monitor_launch_is_linear(tmp_path):
    good = tmp_path / "good.sh"
    assert here("render", "--site", "polaris", "-A", "p", "--app", "qcnn", "--out",
                str(good)).returncode == 0
    bad = tmp_path / "x.sh"
    bad.write_text("#!/bin/bash\n" + 'bash "$JOBGEN_MONITOR" "$JOBGEN_MONITOR_DIR" ' * 16_000
                   + "\n")
    with capped(CAP):
        res = here("diff", str(good), str(bad))
    assert "Traceback" not in res.stderr and res.returncode in (0, 1, 2)


@pytest.mark.parametrize("dialect", ["polaris", "jlse-mi250"])
def test_n5_40000_blank_lines_from_qsub_are_read_at_once(tmp_path, monkeypatch, dialect):
    out = tmp_path / "s"
    args = ["sweep", "--site", dialect, "-A", "p", "--app", "qcnn", "--out", str(out)]
    if dialect == "jlse-mi250":
        args += ["--python", "/usr/bin/python3"]
    assert here(*args).returncode == 0
    body = ('[ "$1" = --version ] && { echo "pbs_version = 1"; exit 0; }\n'
            if dialect == "polaris" else '[ "$1" = --version ] && { echo "cobalt 1"; exit 0; }\n')
    for key, value in fake_bin(tmp_path, qsub=body + 'yes "" | head -n 40000; echo queued'
                               ).items():
        monkeypatch.setenv(key, value)
    with capped(CAP):
        res = here("submit", str(out))
    assert res.returncode == 1 and "printed no job id" in res.stderr, res.stderr


@pytest.mark.slow  # reads 1.5 GB from a pipe
def test_n17_a_qsub_printing_1_5_gb_stays_under_1_gb_of_memory(polaris, tmp_path):
    sweep = copy(polaris, tmp_path)
    env = fake_bin(tmp_path, qsub='[ "$1" = --version ] && { echo "pbs_version = 1"; exit 0; }'
                   "\nhead -c 1500000000 /dev/zero; echo; echo 7.pbs01")
    res = limited_jobgen("submit", str(sweep), env=env)
    assert "Traceback" not in res.stderr and "MemoryError" not in res.stderr, res.stderr
    assert res.returncode == 1 and "printed no job id" in res.stderr


def limited_jobgen(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None,
                   memory: int = 1 << 30, timeout: float = 60
                   ) -> subprocess.CompletedProcess[str]:
    """The CLI in a child process under RLIMIT_AS (`memory` bytes) and a time cap."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    full = dict(os.environ)
    full.update(env or {})
    full["PYTHONPATH"] = os.pathsep.join(x for x in (str(ROOT), full.get("PYTHONPATH")) if x)
    return subprocess.run([sys.executable, "-m", "jobgen", *args], capture_output=True,
                          text=True, env=full, cwd=cwd or ROOT, timeout=timeout,
                          preexec_fn=limit)


# ---------------------------------------------------------------- N6, N7: cancel and --wait
def test_n6_cancel_of_a_copied_sweep_cancels_nothing_of_the_original(polaris, tmp_path):
    sweep = copy(polaris, tmp_path)
    env = pbs_env(tmp_path)
    assert run_jobgen("submit", str(sweep), env=env).returncode == 0
    twin = copy(sweep, tmp_path, "s2")
    line = refused(run_jobgen("cancel", str(twin), env=env))
    assert "not this sweep's" in line and "a copied sweep?" in line
    log = (tmp_path / "pbs" / "calls.log").read_text()
    assert '"qdel"' not in log
    res = run_jobgen("cancel", str(sweep), env=env)
    assert res.returncode == 0 and res.stderr.strip() == "cancelled 2 job(s): 1.pbs01 2.pbs01"


def test_n6_an_edited_job_id_is_never_sent_to_qdel(polaris, tmp_path):
    sweep = copy(polaris, tmp_path)
    env = pbs_env(tmp_path)
    other = copy(polaris, tmp_path, "other")
    assert run_jobgen("submit", str(other), env=env).returncode == 0  # jobs 1 and 2
    assert run_jobgen("submit", str(sweep), env=env).returncode == 0  # jobs 3 and 4
    # one of sweep's ids now names another sweep's job, one names no job at all
    edit(sweep, lambda d: d["points"][0]["runs"][0].update(job_id="1.pbs01"))
    edit(sweep, lambda d: d["points"][0]["runs"][1].update(job_id="4242.pbs01"))
    assert "not this sweep's" in refused(run_jobgen("cancel", str(sweep), env=env))
    calls = [json.loads(x) for x in (tmp_path / "pbs" / "calls.log").read_text().splitlines()]
    assert not [c for c in calls if c[0] == "qdel"]


def test_n7_submit_wait_lets_status_collect_and_cancel_through_and_stops_after_cancel(
        polaris, tmp_path):
    sweep = copy(polaris, tmp_path)
    env = pbs_env(tmp_path)
    full = {**os.environ, **env, "PYTHONPATH": str(ROOT)}
    waiting = subprocess.Popen([sys.executable, "-m", "jobgen", "submit", str(sweep),
                                "--max-in-flight", "1", "--wait", "--poll", "1"], env=full,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while len(qsub_calls(tmp_path)) < 1:
            assert time.monotonic() < deadline and waiting.poll() is None
            time.sleep(0.2)
        time.sleep(1.5)  # it is waiting now (the job never finishes)
        assert run_jobgen("status", str(sweep), env=env).returncode == 0
        assert run_jobgen("collect", str(sweep), env=env).returncode == 1  # no results yet
        res = run_jobgen("cancel", str(sweep), env=env)
        assert res.returncode == 0, res.stderr
        _, err = waiting.communicate(timeout=30)
    finally:
        if waiting.poll() is None:
            waiting.kill()
            waiting.wait()
    assert waiting.returncode == 0 and "the sweep was cancelled" in err, err
    assert len(qsub_calls(tmp_path)) == 1  # the held run was never sent


# ---------------------------------------------------------------- N8, N10-N12, N15, N18
def test_n8_a_25000_character_argument_is_one_line_and_nothing_written(tmp_path):
    (tmp_path / "prog.py").write_text("print(1)\n")
    res = run_jobgen("sweep", "--site", "local", "--out", "s", "--", "python3", "prog.py",
                     "a" * 25_000, cwd=tmp_path)
    assert "cannot be recorded in manifest.json" in refused(res)
    assert not (tmp_path / "s").exists()


def test_n8_a_300_character_gpu_model_is_one_line_and_nothing_written(tmp_path):
    profiles = tmp_path / "profiles"
    profiles.mkdir()
    (profiles / "m.yaml").write_text("name: m\nextends: local-gpu\nnode:\n  gpus:\n    model: "
                                     + "G" * 300 + "\n")
    env = {"JOBGEN_PROFILE_PATH": str(profiles)}
    assert run_jobgen("render", "--site", "m", "--app", "qcnn", env=env).returncode == 0
    res = run_jobgen("sweep", "--site", "m", "--app", "qcnn", "--out", str(tmp_path / "s"),
                     env=env)
    assert "device" in refused(res) and not (tmp_path / "s").exists()


def test_n10_extreme_finite_rates_give_no_ratio_and_no_traceback(mine, tmp_path):
    sweep = copy(mine, tmp_path)
    data = json.loads((sweep / mf.NAME).read_text())
    first = data["points"][0]
    first["params"] = {"precision": "fp32"}
    first["plan"]["precision"] = "fp32"
    second = json.loads(json.dumps(first))
    second.update(id="bf16", params={"precision": "bf16"})
    second["plan"]["precision"] = "bf16"
    for run in second["runs"]:
        for key in ("dir", "script", "output"):
            run[key] = run[key].replace("rpn1/", "bf16/", 1)
    data["points"] = [first, second]
    data["axes"] = {"precision": ["fp32", "bf16"]}
    (sweep / mf.NAME).write_text(json.dumps(data))
    shutil.copytree(sweep / "rpn1", sweep / "bf16")
    for rate, point in (("1e-320", "rpn1"), ("1e12", "bf16")):
        for r in ("r1", "r2"):
            (sweep / point / r / "output.txt").write_text(
                f'{{"app": "mine", "samples_per_sec": {rate}}}\n')
    res = here("collect", str(sweep), "--format", "json")
    assert res.returncode == 0, res.stderr
    rows = {r["point"]: r for r in json.loads(res.stdout)}
    assert rows["bf16"]["vs_fp32"] is None and rows["bf16"]["best"] == 1e12
    (sweep / "bf16" / "r1" / "output.txt").write_text('{"app": "mine", "samples_per_sec": '
                                                      '1.7e308}\n')
    assert "samples_per_sec" in refused(here("collect", str(sweep)))


@pytest.mark.parametrize("field", ["points", "runs"])
def test_n11_a_format_1_manifest_with_a_number_for_a_list_is_one_line(polaris, tmp_path, field):
    sweep = copy(polaris, tmp_path)
    if field == "points":
        edit(sweep, lambda d: d.update(format=1, points=5))
    else:
        edit(sweep, lambda d: (d.update(format=1), d["points"][0].update(runs=5)))
    assert field in refused(here("status", str(sweep)))


def test_n12_an_output_pattern_of_42_job_ids_never_makes_a_manifest_jobgen_refuses(
        polaris, tmp_path, monkeypatch):
    sweep = copy(polaris, tmp_path)
    edit(sweep, lambda d: d["points"][0]["runs"][0].update(output_pattern="%j" * 42))
    standin(monkeypatch, tmp_path)
    res = here("submit", str(sweep))
    assert res.returncode == 0 and "no output name for job" in res.stderr, res.stderr
    assert here("status", str(sweep)).returncode == 0
    assert here("cancel", str(sweep)).returncode == 0


@pytest.mark.parametrize("option", ["--profile-ranks", "--profile-steps"])
@pytest.mark.parametrize("command", ["render", "explain"])
@pytest.mark.parametrize("site", ["local", "polaris", "aurora", "lumi", "summit", "sunspot",
                                  "jlse-mi250", "local-gpu", "local-slurm", "local-mpich"])
def test_n15_a_5000_digit_profile_rank_or_step_is_one_line(site, command, option):
    from helpers import with_site_python

    digits = "9" * 5000
    value = {"--profile-ranks": f"0-{digits}", "--profile-steps": f"0:{digits}"}[option]
    extra = with_site_python(site, {"app": "qcnn"})
    args = [command, "--site", site, "--app", "qcnn", "--profile", "torch", option, value]
    if "python" in extra:
        args += ["--python", extra["python"]]
    if not site.startswith("local"):
        args += ["-A", "p"]
    res = here(*args)
    assert "Traceback" not in res.stderr and res.returncode == 2, res.stderr
    assert res.stderr.count("jobgen: error:") == 1


def test_n18_a_long_report_title_is_refused_before_any_work(mine, tmp_path):
    sweep = copy(mine, tmp_path)
    with capped(CAP):
        line = refused(here("report", str(sweep), "--out", str(tmp_path / "c.svg"), "--title",
                            "a" * 120_000))
    assert "--title" in line and not (tmp_path / "c.svg").exists()


# ---------------------------------------------------------------- N9: where nothing can be made
@pytest.mark.parametrize("command", ["sweep", "render", "report", "collect"])
def test_n9_targets_under_proc_are_one_line(mine, tmp_path, command):
    args = {"sweep": ["sweep", "--site", "local", "--app", "qcnn", "--out", "/proc/jobgen-x"],
            "render": ["render", "--site", "local", "--app", "qcnn", "--out", "/proc/x.sh"],
            "report": ["report", str(mine), "--out", "/proc/self/x.svg"],
            "collect": ["collect", str(mine), "--results", "/proc/jobgen-x"]}[command]
    if command == "report":
        pytest.importorskip("matplotlib", reason="pip install 'jobgen[report]'")
    line = refused(here(*args))
    assert "/proc/" in line


def test_n9_a_disk_that_fills_while_sweep_writes_is_one_line_and_nothing_is_left(tmp_path):
    """RLIMIT_FSIZE stands for a full disk: the write fails with EFBIG as ENOSPC would."""
    import resource

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    res = subprocess.run([sys.executable, "-m", "jobgen", "sweep", "--site", "local", "--app",
                          "qcnn", "--precision", "fp32,bf16", "--out", str(tmp_path / "s")],
                         capture_output=True, text=True, env=env, timeout=120,
                         preexec_fn=small_files)
    assert "job.sh" in refused(res)
    assert not (tmp_path / "s").exists()


def test_n9_an_immutable_directory_is_one_line(tmp_path):
    target = tmp_path / "imm"
    target.mkdir()
    if os.geteuid() != 0 or shutil.which("chattr") is None or subprocess.run(
            ["chattr", "+i", str(target)], capture_output=True).returncode != 0:
        pytest.skip("needs root and a file system with chattr +i (EACCES takes the same path: "
                    "test_n9_targets_under_proc_are_one_line)")
    try:
        res = here("sweep", "--site", "local", "--app", "qcnn", "--out", str(target))
        assert "Operation not permitted" in refused(res)
    finally:
        subprocess.run(["chattr", "-i", str(target)], check=True)
    assert list(target.iterdir()) == []


# ---------------------------------------------------------------- N13: the user config
@pytest.mark.parametrize(("name", "text", "says"), [
    ("config.yaml", "defaults:\n  python:\n" + "".join(
        f"  - &a{i} [{','.join([f'*a{i - 1}'] * 9) if i else ','.join(['lol'] * 9)}]\n"
        for i in range(9)), "values once aliases are expanded"),
    ("config.yaml", "[" * 10_000 + "]" * 10_000, "nested deeper"),
    ("config.yaml", "defaults:\n  python: a\n  python: b\n", "duplicate key"),
    ("config.toml", "a = " + "9" * 5000 + "\n", "4300 digits"),
    ("config.toml", "a = " + "[" * 100_000 + "]" * 100_000 + "\n", "nested"),
    ("config.toml", "a = " + "[" * 40 + "]" * 40 + "\n", "nested deeper"),
], ids=["yaml-alias-bomb", "yaml-10000-deep", "yaml-duplicate-key", "toml-5000-digits",
        "toml-100000-deep", "toml-40-deep"])
def test_n13_the_user_config_is_read_bounded(tmp_path, monkeypatch, name, text, says):
    config = tmp_path / "jobgen" / name
    config.parent.mkdir()
    config.write_text(text)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setenv("JOBGEN_CACHE_DIR", str(tmp_path / "cache"))
    with capped(CAP):
        assert says in refused(here("render", "--site", "local", "--app", "qcnn"))


def test_minor_a_manifest_claiming_no_scheduler_on_a_pbs_site_runs_nothing_here(polaris,
                                                                               tmp_path):
    sweep = copy(polaris, tmp_path)
    edit(sweep, lambda d: d.update(dialect="none"))
    assert "profile says 'pbs'" in refused(here("submit", str(sweep)))
    assert not list(sweep.rglob("output.txt"))


def test_minor_lint_without_a_site_refuses_a_4_mib_script_before_parsing_it(tmp_path,
                                                                            monkeypatch):
    from jobgen.review import scriptparse
    from jobgen.review.lint import site

    parsed: list[int] = []
    real = scriptparse.parse_text
    spy = lambda text, path="<script>": parsed.append(len(text)) or real(text, path)  # noqa: E731
    monkeypatch.setattr(scriptparse, "parse_text", spy)
    monkeypatch.setattr(site, "parse_text", spy)  # lint tells the site there (tell_site)
    script = tmp_path / "big.sh"
    script.write_text("#!/bin/bash\n" + "echo hi\n" * 500_000)
    assert "which site's rules apply" in refused(here("lint", str(script)))
    assert parsed and max(parsed) < 1000  # only its head was parsed


def test_minor_a_usage_error_echoing_a_200_kb_value_is_clipped_to_one_short_line():
    res = here("render", "--site", "local", "--app", "qcnn", "--nodes", "a" * 200_000)
    line = refused(res)
    assert len(line) < 1000 and "more characters" in line and "--nodes" in line
