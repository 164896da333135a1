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
from helpers import ROOT, jobgen_here, run_jobgen

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
