"""The study workflow for real: sweep renders through plan+render, submit runs the scripts
(bash on `local`, sbatch on the test Slurm), collect joins the JSON results with the manifest,
report draws the chart whose data is asserted here."""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT, run_jobgen

from jobgen.study import manifest as mf
from jobgen.study.collect import collect, job_result, result_lines

pytest.importorskip("torch", reason="the workloads need torch (pip install torch==2.13.0)")

TINY = "--tiny --steps 8 --warmup 2"


def sweep(out: Path, *args: str, env: dict[str, str] | None = None):
    return run_jobgen("sweep", "--app", "qcnn", "--app-args", TINY, "--out", str(out), *args,
                      env=env)


def results_in(path: Path) -> list[dict]:
    return result_lines(path.read_text())


# ---------------------------------------------------------------- sweep: rendering only
def test_sweep_writes_the_render_of_every_point_and_repeat_and_reports_invalid_points(
        tmp_path):
    out = tmp_path / "s"
    res = sweep(out, "--site", "polaris", "-A", "proj", "--precision", "fp32,tf32,fp16",
                "--nodes", "1,2", "--ranks-per-device", "1,3", "--repeat", "2")
    assert res.returncode == 0, res.stderr
    m = mf.load(out)
    assert [p.id for p in m.points][:3] == ["fp32-n1-rpd1", "fp32-n1-rpd3", "fp32-n2-rpd1"]
    assert len(m.points) == 12 and m.dialect == "pbs" and m.device == "NVIDIA A100-SXM4-40GB"
    invalid = {p.id: p.error for p in m.points if p.status == "invalid"}
    # 3 ranks per device is not offered by Polaris: every rpd3 point is reported, with why
    assert set(invalid) == {p.id for p in m.points if p.id.endswith("rpd3")}
    assert all("--ranks-per-device 3 is not supported on polaris" in e for e in invalid.values())
    assert res.stderr.count("skipped: --ranks-per-device 3") == 6
    valid = m.valid_points
    assert all(len(p.runs) == 2 for p in valid)
    run = next(p for p in valid if p.id == "tf32-n2-rpd1").runs[1]
    assert run.job_name == "qcnn-tf32-n2-rpd1-r2" and run.output_pattern == run.job_name + ".o%s"
    # the script is exactly what `jobgen render` writes for that point
    rendered = run_jobgen("render", "--site", "polaris", "-A", "proj", "--app", "qcnn",
                          "--app-args", TINY, "--precision", "tf32", "--nodes", "2",
                          "--ranks-per-device", "1", "--job-name", run.job_name)
    assert (out / run.script).read_text() == rendered.stdout


def test_sweep_output_is_deterministic(tmp_path):
    out = tmp_path / "s"
    args = ("--site", "lumi", "-A", "project_465000000", "--precision", "fp32,bf16",
            "--nodes", "1,2", "--repeat", "2")
    assert sweep(out, *args).returncode == 0
    first = {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    again = sweep(out, *args, "--force")
    assert again.returncode == 0, again.stderr
    second = {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    assert first == second and len(first) == 9


def test_sweep_refuses_a_non_empty_out_without_force(tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    res = sweep(tmp_path, "--site", "local")
    assert res.returncode == 2
    assert res.stderr.strip().splitlines() == [
        f"jobgen: error: {tmp_path} is not empty: pick a new --out directory or add --force"]


def test_sweep_with_no_valid_point_exits_2_and_keeps_the_reasons(tmp_path):
    res = sweep(tmp_path / "s", "--site", "local", "--precision", "tf32,fp16")
    assert res.returncode == 2
    assert "jobgen: error: none of the 2 points can run on local" in res.stderr
    assert [p.status for p in mf.load(tmp_path / "s").points] == ["invalid", "invalid"]


@pytest.mark.parametrize(("flag", "value", "message"), [
    ("--nodes", "1,two", "--nodes: 'two' is not a whole number from 1 to 9999999"),
    ("--precision", "fp8", "--precision: 'fp8' is not one of fp32, tf32, bf16, fp16"),
    ("--repeat", "0", "--repeat must be from 1 to 100, not 0"),
])
def test_sweep_axis_mistakes_are_one_line_errors(tmp_path, flag, value, message):
    res = sweep(tmp_path / "s", "--site", "local", flag, value)
    assert res.returncode == 2
    assert res.stderr.strip().splitlines()[-1] == f"jobgen: error: {message}"


@pytest.mark.parametrize(("site", "pattern", "extra"), [
    ("lumi", "slurm-qcnn-n1-r1-%j.out", ()),  # the profile's --output=slurm-%x-%j.out
    ("summit", "qcnn-n1-r1.%j.out", ()),  # #BSUB -o JOBNAME.%J.out
    # #COBALT -O JOBNAME; JLSE provides no PyTorch, so the sweep names one
    ("jlse-mi250", "qcnn-n1-r1.output", ("--python", "/home/me/torch/bin/python")),
    ("aurora", "qcnn-n1-r1.o%s", ()),  # PBS default JOBNAME.oSEQ
])
def test_sweep_records_where_each_scheduler_writes_the_output(tmp_path, site, pattern, extra):
    res = sweep(tmp_path / "s", "--site", site, "-A", "proj", "--nodes", "1", *extra)
    assert res.returncode == 0, res.stderr
    assert mf.load(tmp_path / "s").points[0].runs[0].output_pattern == pattern


# ---------------------------------------------------------------- local: run for real
@pytest.fixture(scope="module")
def local_sweep(tmp_path_factory):
    """fp32 and bf16 at 2 ranks, twice each, run by `sweep --submit` (bash, one by one)."""
    out = tmp_path_factory.mktemp("study") / "local"
    res = sweep(out, "--site", "local", "--precision", "fp32,bf16,fp16", "--ranks-per-node",
                "2", "--repeat", "2", "--submit")
    return out, res


@pytest.mark.slow  # runs the bundled app for real
def test_local_sweep_runs_every_valid_script_and_records_its_output(local_sweep):
    out, res = local_sweep
    assert res.returncode == 0, res.stderr[-3000:]
    assert "jobgen: submit 4/4: bf16-rpn2 r2" in res.stderr
    # each local run's exit and time, then one summary line with what to run next
    assert re.search(r"^jobgen: bf16-rpn2 r2: exit 0 after \d+\.\d s "
                     r"\(bf16-rpn2/r2/output\.txt\)$", res.stderr, re.M), res.stderr[-2000:]
    assert re.search(rf"^jobgen: done: 4 of 4 run\(s\) ran, in \d+ s; next: jobgen collect "
                     rf"{re.escape(str(out))}$", res.stderr, re.M), res.stderr[-2000:]
    m = mf.load(out)
    for run in (r for p in m.valid_points for r in p.runs):
        assert run.exit_code == 0 and run.output == f"{run.dir}/output.txt"
        [result] = results_in(out / run.output)
        assert result["world_size"] == 2 and result["steps"] == 8


@pytest.mark.slow  # runs the bundled app for real
def test_collect_keeps_the_best_of_the_repeats_and_flags_invalid_points(local_sweep):
    out, _ = local_sweep
    res = run_jobgen("collect", str(out), "--format", "json")
    assert res.returncode == 0, res.stderr
    rows = {r["point"]: r for r in json.loads(res.stdout)}
    m = mf.load(out)
    for point in m.valid_points:
        rates = [results_in(out / r.output)[0]["samples_per_sec"] for r in point.runs]
        row = rows[point.id]
        assert (row["best"], row["min"], row["max"]) == (max(rates), min(rates), max(rates))
        assert row["status"] == "ok" and row["ok"] == 2
        assert row["scaling_efficiency"] is None  # one node count: nothing to scale against
    assert rows["fp16-rpn2"]["status"] == "invalid"
    assert "fp16 is not available on local" in rows["fp16-rpn2"]["note"]
    ratio = rows["bf16-rpn2"]["best"] / rows["fp32-rpn2"]["best"]
    assert rows["bf16-rpn2"]["vs_fp32"] == pytest.approx(ratio)
    # 2 runs against 2 separate by luck 1 time in 3: never a verdict, whatever the numbers
    assert rows["bf16-rpn2"]["verdict"] == "within noise"
    assert rows["bf16-rpn2"]["chance"] == pytest.approx(1 / 3)
    with open(out / "results.csv", newline="") as fh:
        table = list(csv.DictReader(fh))
    assert [r["point"] for r in table] == ["fp32-rpn2", "bf16-rpn2", "fp16-rpn2"]
    assert float(table[0]["best"]) == rows["fp32-rpn2"]["best"]


@pytest.mark.slow  # runs the bundled app for real
def test_collect_prints_a_table_with_every_point(local_sweep):
    out, _ = local_sweep
    res = run_jobgen("collect", str(out), "--results", str(out / "elsewhere"))
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), res.stdout
    assert any(line.startswith("fp32") and "2/2" in line and line.endswith(" ok")
               for line in lines), res.stdout
    fp16 = next(i for i, line in enumerate(lines) if line.startswith("fp16"))
    assert lines[fp16].endswith("invalid")
    assert lines[fp16 + 1].startswith("    precision fp16 is not available on local")
    assert (out / "elsewhere" / "results.json").is_file()


@pytest.mark.slow  # runs the bundled app for real
def test_report_draws_one_bar_per_point_with_its_best_and_marker(local_sweep, tmp_path):
    pytest.importorskip("matplotlib", reason="pip install 'jobgen[report]'")
    from jobgen.study.report import chart_data

    out, _ = local_sweep
    collected = collect([out])
    data = chart_data(collected)
    best = {r.precision: r.best for r in collected.rows if r.best}
    assert [(b.panel, b.group, b.series, b.precision) for b in data.bars] == [
        ("qcnn", "1 node\n2 ranks/node", "local (CPU)", "fp32"),
        ("qcnn", "1 node\n2 ranks/node", "local (CPU)", "bf16")]
    assert [b.value for b in data.bars] == [best["fp32"], best["bf16"]]
    runs = {r.precision: r.runs for r in collected.rows if r.best}
    assert [b.runs for b in data.bars] == [tuple(runs["fp32"]), tuple(runs["bf16"])]
    assert data.bars[0].verdict is None and data.bars[1].verdict == "within noise"
    assert data.lines == []  # one node count: nothing to scale
    svg = tmp_path / "chart.svg"
    res = run_jobgen("report", str(out), "--out", str(svg), "--title", "local study")
    assert res.returncode == 0, res.stderr
    text = svg.read_text()
    for bar in data.bars:
        assert f'id="{bar.gid}"' in text
    assert f'id="marker:{data.bars[1].verdict}' in text
    assert "local study" in text and "local (CPU)" in text and "bf16" in text
    page = tmp_path / "chart.html"
    assert run_jobgen("report", str(out), "--out", str(page)).returncode == 0
    assert "<svg" in page.read_text() and "fp16 is not available" in page.read_text()
    png = tmp_path / "chart.png"
    assert run_jobgen("report", str(out), "--out", str(png)).returncode == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow  # runs the bundled app for real
def test_report_without_matplotlib_is_a_one_line_error_naming_the_extra(local_sweep,
                                                                         tmp_path):
    out, _ = local_sweep
    code = ("import sys; sys.modules['matplotlib'] = None; from jobgen.cli.main import main; "
            "main(sys.argv[1:])")
    res = subprocess.run([sys.executable, "-c", code, "report", str(out), "--out",
                          str(tmp_path / "c.png")], capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 2
    assert res.stderr.strip().splitlines() == [
        "jobgen: error: report draws with matplotlib, which is not installed: "
        "pip install 'jobgen[report]'"]


@pytest.mark.slow  # runs the bundled app for real
def test_collect_flags_a_failed_run_and_an_unsubmitted_one(tmp_path):
    failing = tmp_path / "fail"
    res = run_jobgen("sweep", "--site", "local", "--app", "anisosgs", "--ranks-per-node", "1",
                     "--app-args", "--tiny --steps 6 --debug-fail-at-step 2 --debug-fail-rank 0",
                     "--out", str(failing), "--submit")
    assert res.returncode == 1 and "the script exited with" in res.stderr
    pending = tmp_path / "pending"
    assert sweep(pending, "--site", "local").returncode == 0
    res = run_jobgen("collect", str(failing), str(pending), "--results", str(tmp_path))
    assert res.returncode == 1
    assert "2 point(s) failed or have no result yet" in res.stderr
    rows = json.loads((tmp_path / "results.json").read_text())["rows"]
    assert [r["status"] for r in rows] == ["failed", "missing"]
    assert "FATAL" in rows[0]["note"] and "not submitted" in rows[1]["note"]


@pytest.mark.slow  # runs the bundled app for real
def test_collect_finds_the_output_of_a_script_submitted_by_hand(tmp_path):
    out = tmp_path / "s"
    assert sweep(out, "--site", "local", "--ranks-per-node", "1").returncode == 0
    run_dir = out / "rpn1" / "r1"
    with open(run_dir / "my-own.log", "w") as log:
        subprocess.run(["bash", "job.sh"], cwd=run_dir, stdout=log, stderr=subprocess.STDOUT,
                       check=True, timeout=300)
    found = collect([out])
    [run] = found.runs
    assert run.status == "ok" and run.output == "rpn1/r1/my-own.log"
    assert run.samples_per_sec == results_in(run_dir / "my-own.log")[0]["samples_per_sec"]
    assert found.rows[0].status == "ok" and not found.incomplete


@pytest.mark.slow  # runs the bundled app for real
def test_submit_refuses_a_sweep_already_submitted(local_sweep):
    out, _ = local_sweep
    res = run_jobgen("submit", str(out))
    assert res.returncode == 2
    assert "every run in" in res.stderr and "add --again" in res.stderr


def test_a_jobs_instance_summary_line_wins_and_instances_add_up_without_one():
    lines = [{"app": "qcnn", "samples_per_sec": 10.0, "instance": 0, "instances": 2},
             {"app": "qcnn", "samples_per_sec": 12.5, "instance": 1, "instances": 2}]
    assert job_result(lines)["samples_per_sec"] == 22.5
    summary = {"summary": "instances", "app": "qcnn", "instances": 2, "expected": 2,
               "samples_per_sec": 22.5}
    assert job_result([*lines, summary]) is summary


# ---------------------------------------------------------------- the test Slurm
def test_submit_without_a_reachable_slurm_sends_nothing_and_says_so(tmp_path):
    if shutil.which("sbatch") is None:
        pytest.skip("Slurm is not installed (apt-get install slurm-wlm; .ci/run does)")
    out = tmp_path / "s"
    (tmp_path / "empty-slurm.conf").write_text("")  # sbatch: "ClusterName needs to be ..."
    res = sweep(out, "--site", "local-slurm", "--nodes", "1", "--submit",
                env={"SLURM_CONF": str(tmp_path / "empty-slurm.conf")})
    assert res.returncode == 2
    assert res.stderr.splitlines()[-1].startswith(
        "jobgen: error: the sbatch here is not local-slurm's Slurm: `sbatch --version` answered")
    [run] = mf.load(out).points[0].runs
    assert run.job_id is None and not run.maybe_submitted and run.submit_error is None


def test_submit_without_the_schedulers_command_is_a_one_line_error(tmp_path):
    out = tmp_path / "s"
    assert sweep(out, "--site", "local-slurm", "--nodes", "1").returncode == 0
    res = run_jobgen("submit", str(out), env={"PATH": str(tmp_path)})
    assert res.returncode == 2
    assert res.stderr.strip().splitlines()[-1] == (
        "jobgen: error: sbatch not found: submit from a login node of the site, or submit "
        "the scripts by hand from their directories")


@pytest.mark.slow  # runs the bundled app for real
def test_slurm_sweep_submits_collects_and_scales_with_local_in_one_table(slurm, local_sweep,
                                                                          tmp_path):
    out = tmp_path / "slurm"
    res = run_jobgen("sweep", "--site", "local-slurm", "--app", "qcnn", "--app-args", TINY,
                     "--nodes", "1,2", "--precision", "fp32", "--out", str(out), "--submit",
                     env=slurm.env)
    assert res.returncode == 0, res.stderr
    runs = [r for p in mf.load(out).valid_points for r in p.runs]
    assert all(r.job_id and r.job_id.isdigit() for r in runs)
    for run in runs:
        job = slurm.wait(run.job_id)
        assert job.state == "COMPLETED", (out / run.output).read_text()[-2000:]
        assert run.output == f"{run.dir}/{run.job_name}-{run.job_id}.out"
    deadline = time.monotonic() + 30  # slurmd may close the output file after COMPLETED
    while not all(results_in(out / r.output) for r in runs) and time.monotonic() < deadline:
        time.sleep(0.5)
    found = collect([out, local_sweep[0]])
    rows = {(r.site, r.point): r for r in found.rows}
    one, two = rows["local-slurm", "fp32-n1"], rows["local-slurm", "fp32-n2"]
    assert one.status == two.status == "ok" and two.world_size == 2
    assert two.scaling_base_nodes == 1
    assert two.scaling_efficiency == pytest.approx((two.best / 2) / one.best)
    assert rows["local", "fp32-rpn2"].status == "ok"
    pytest.importorskip("matplotlib", reason="pip install 'jobgen[report]'")
    from jobgen.study.report import chart_data

    data = chart_data(found)
    assert data.series == ["local-slurm (CPU)", "local (CPU)"]
    [line] = data.lines
    assert line.series == "local-slurm (CPU)" and line.nodes == (1, 2)
    assert line.efficiency == (1.0, pytest.approx(two.scaling_efficiency))


def test_render_imports_neither_matplotlib_nor_the_study_modules():
    code = (
        "import sys\n"
        "from jobgen.cli.main import main\n"
        "try:\n"
        "    main(['render', '--site', 'polaris', '--app', 'qcnn', '-A', 'p'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "bad = sorted(m for m in sys.modules if m.startswith(('matplotlib', 'jobgen.study.')))\n"
        "print('LOADED', bad, file=sys.stderr)\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert "LOADED []" in res.stderr, res.stderr
