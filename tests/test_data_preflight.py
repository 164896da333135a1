"""Issue 30 (ALCF review M1): the script's preflight opens `--data` with the app's own reader
(format, shapes, one sample) so a wrong path or data written for another configuration stops
in seconds with one line; with --stage the staged data is read on one node after the staging,
and `--data SUB` names one app's folder of a `make-data --app all` archive."""

from __future__ import annotations

import subprocess
import sys
import tarfile

import pytest
from emulation.harness import install_bin, run_script
from helpers import ROOT, jobgen_here, plan_for
from test_site_emulation import SITES, app_script, node_local_here

from jobgen.errors import JobgenError
from jobgen.text.render import render


@pytest.fixture(scope="module")
def emu_bin(tmp_path_factory):
    return install_bin(tmp_path_factory.mktemp("emu-bin"))


@pytest.fixture(scope="module")
def gpt_tree(tmp_path_factory):
    """`make-data --app all` in small: DIR/gpt holds gpt's tiny data (nanoGPT's .bin)."""
    top = tmp_path_factory.mktemp("data")
    res = subprocess.run([sys.executable, "-m", "workloads.gpt", "--make-data", str(top / "gpt"),
                          "--config", "tiny", "--samples", "8"], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    return top


def check(app: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", f"workloads.{app}", "--check", "--device",
                           "cpu", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_check_reads_the_data_and_refuses_a_mismatch_in_one_line(gpt_tree):
    good = check("gpt", "--data", str(gpt_tree / "gpt"), "--config", "tiny")
    assert good.returncode == 0 and "--data 7 samples, input [16] int64" in good.stderr
    for args, why in (([str(gpt_tree / "gpt")], "too few for sequences of 1024"),
                      ([str(gpt_tree / "nope"), "--config", "tiny"], "no such file"),
                      ([str(gpt_tree), "--config", "tiny"], "no meta.json")):
        bad = check("gpt", "--data", *args)
        lines = bad.stderr.strip().splitlines()
        assert bad.returncode == 1 and len(lines) == 1 and why in lines[0], bad.stderr
        assert lines[0].startswith("[workloads] gpt cannot read --data")


def test_tensorflow_check_refuses_data_on_disk():
    res = check("cosmictagger", "--framework", "tensorflow", "--data", "/tmp")
    assert res.returncode == 1 and "--data synthetic only" in res.stderr


def test_stage_data_names_a_folder_inside_the_archive():
    plan = plan_for("polaris", app="gpt", stage="/eagle/p/all.tar", app_args="--data gpt")
    words = [w if isinstance(w, str) else w.text for w in plan.command]
    assert words[words.index("--data") + 1] == "/local/scratch/jobgen-data-${JOBGEN_JOB_ID}/gpt"
    assert words.count("--data") == 1
    for bad in ("/abs/gpt", "../gpt", "gpt/../../x", "$(id)"):
        with pytest.raises(JobgenError, match="names a folder inside the archive"):
            plan_for("polaris", app="gpt", stage="/eagle/p/all.tar", app_args=f"--data {bad}")


def test_a_relative_data_path_is_said_to_resolve_where_the_job_starts():
    res = jobgen_here("render", "--site", "polaris", "-A", "p", "--app", "gpt", "--app-args",
                      "--data ../data/gpt --config tiny")
    assert res.returncode == 0
    assert "--data ../data/gpt is relative: the ranks read it from the directory the job is " \
           "submitted from" in res.stderr
    assert "# WARNING: --data ../data/gpt is relative" in res.stdout


@pytest.mark.parametrize("config, ok", [pytest.param("tiny", True, marks=pytest.mark.slow),
                                        ("default", False)])
def test_staged_data_is_read_on_one_node_before_any_rank(config, ok, gpt_tree, tmp_path,
                                                         emu_bin, monkeypatch):
    """Polaris (emulated, 2 nodes): the archive of the make-data tree is unpacked on every
    node, then `python -m workloads.gpt --check` reads DIR/gpt through `mpiexec -n 1 --ppn 1`;
    data written for another configuration stops the job (exit 78) before any rank."""
    area = tmp_path / "node-local"
    node_local_here("polaris", area, monkeypatch)
    archive = tmp_path / "all.tar"
    with tarfile.open(archive, "w") as tar:
        tar.add(gpt_tree / "gpt", arcname="gpt")
    plan = plan_for("polaris", app="gpt", stage=str(archive), nodes=2,
                    app_args=f"--data gpt --config {config}")
    run = run_script(app_script(plan), SITES["polaris"], tmp_path / "job", emu_bin)
    checks = [e for e in run.events if e.get("event") == "launch" and e["ntasks"] == 1
              and "--check" in e["argv"]]
    assert len(checks) == 1, run.explain()
    if ok:
        assert run.proc.returncode == 0, run.explain()
        assert sorted(run.reports) == list(range(plan.world_size))
        assert checks[0]["t"] < min(run.rank_times())
    else:
        assert run.proc.returncode == 78 and not run.reports, run.explain()
        assert "jobgen: cannot start the program: the staged data does not fit workloads.gpt" \
            in run.proc.stderr and "too few for sequences of 1024" in run.proc.stderr


def test_the_preflight_lines_are_in_the_script_and_explained():
    from jobgen.plan.build import Request, build_plan
    from jobgen.profiles.load import load_profile
    from jobgen.review.explain import build_report

    loaded = load_profile("polaris")
    req = Request(site="polaris", account="p", app="gpt", stage="/eagle/p/all.tar",
                  app_args="--data gpt")
    plan = build_plan(loaded, req)
    text = render(plan)
    assert text.index("tar -xf") < text.index("jobgen_preflight 'the staged data does not fit")
    assert "mpiexec -n 1 --ppn 1 --envall python3 -m workloads.gpt --check" in text
    facts = build_report(loaded, req, plan)["program"]
    assert any(f["text"] == "workloads.gpt --check on one node after the staging" and
               "check_data" in f["source"] for f in facts)
