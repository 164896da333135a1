"""`jobgen explain`: placement table, node drawing, and each line's reason, source and layer."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from helpers import ROOT, run_jobgen


def explain(*args: str, env: dict[str, str] | None = None) -> str:
    result = run_jobgen("explain", *args, env=env)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_aurora_placement_table_and_drawing():
    out = explain("--site", "aurora", "--app", "cosmictagger", "--nodes", "2", "-A", "proj")
    rows = re.findall(r"^  (\d+) +(\S+) +(\d+) \((GPU \d tile \d)\) +(-) +(\d) ", out, re.M)
    assert rows[0] == ("0", "4-7", "0", "GPU 0 tile 0", "-", "0")
    assert rows[11] == ("11", "76-79", "11", "GPU 5 tile 1", "-", "1")
    # reserved core 0 marked, rank 0 on cores 4-7, rank 11 ('b') on socket 1
    assert re.search(r"socket 0 +cores 0-51 +R\.\.\.0000111122223333", out)
    assert re.search(r"socket 1 +cores 52-103 +R\.\.\.6666.*bbbb", out)
    assert "GPU 5 NUMA 1: tile 0 -> rank 10; tile 1 -> rank 11" in out


def test_every_line_has_reason_source_and_layer():
    out = explain("--site", "aurora", "--app", "ffn", "-A", "proj", "--walltime", "00:45:00")
    block = out[out.index("== directives"):out.index("== modules")]
    assert "#PBS -A proj" in block and "layer: command line (--account)" in block
    assert re.search(r"#PBS -l walltime=00:45:00\n.*\n.*layer: command line \(--walltime\)",
                     block)
    assert re.search(r"#PBS -k doe\n +why: .+\n +source: UG .+layer: bundled profile$", block,
                     re.M)
    assert "== environment" in out and "== launcher: mpiexec" in out
    assert "UNCONFIRMED: whether pmix is already the PALS default" in out


def test_sunspot_values_come_from_the_profile_it_extends():
    out = explain("--site", "sunspot", "--app", "ffn", "-A", "proj")
    assert "profile: sunspot (bundled profile) <- aurora (extended profile aurora" in out
    assert re.search(r"#PBS -l filesystems=home:tegu\n.*\n.*layer: bundled profile", out)
    assert re.search(r"#PBS -k doe\n.*\n.*layer: extended profile aurora \(bundled profile\)",
                     out)
    assert "UNCONFIRMED: the core 0/52 reservation is documented for Aurora only" in out


def test_user_profile_layer(tmp_path):
    config = tmp_path / "config"
    (config / "jobgen" / "profiles").mkdir(parents=True)
    (config / "jobgen" / "profiles" / "polaris.yaml").write_text(
        "name: polaris\nextends: polaris\nscheduler:\n  default_walltime: '00:50:00'\n")
    out = explain("--site", "polaris", "--app", "ffn", env={"XDG_CONFIG_HOME": str(config)})
    assert re.search(r"#PBS -l walltime=00:50:00\n.*\n.*layer: user profile .*polaris.yaml",
                     out)
    assert re.search(r"#PBS -k doe\n.*\n.*layer: extended profile polaris \(bundled profile\)",
                     out)


def test_json_format_and_placeholders():
    data = json.loads(explain("--site", "lumi", "--format", "json"))
    assert data["site"] == "lumi" and len(data["placement"]) == 8
    assert data["placement"][0]["cpus"] == "49-55" and data["placement"][0]["numa"] == 3
    assert any("placeholder PROJECT" in n for n in data["notes"])
    assert data["app_command"].endswith("python3 train.py")
    assert any("2 threads per core (SMT) is not stated" in u for u in data["unconfirmed"])
    for fact in data["directives"] + data["environment"] + data["launcher"]["args"]:
        assert fact["why"] and fact["source"] and fact["layer"]


def test_explain_and_diff_take_every_render_option():
    import typer.main

    from jobgen.cli.commands import app

    commands = typer.main.get_command(app).commands  # type: ignore[attr-defined]

    def options(name: str) -> dict[str, tuple[str, ...]]:
        return {p.name: tuple(p.opts) for p in commands[name].params}

    render = options("render")
    for name in ("explain", "diff"):
        shared = {k: v for k, v in options(name).items() if k in render}
        assert set(render) - set(shared) <= {"out", "force", "site"}
        assert all(shared[k] == render[k] for k in shared if k != "site")


def test_explain_imports_no_torch():
    code = ("import sys; from jobgen.cli.main import main\n"
            "try:\n    main(['explain', '--site', 'polaris', '--app', 'ffn'])\n"
            "except SystemExit:\n    pass\n"
            "assert 'torch' not in sys.modules, 'torch imported'\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, timeout=60)
    assert result.returncode == 0, result.stderr


def _block(out: str, title: str) -> str:
    start = out.index(f"== {title}")
    end = out.find("\n== ", start + 3)
    return out[start:end if end > 0 else None]


def test_the_new_prelaunch_lines_have_reason_and_source():
    """issue 21: the machine size, the job's id, the host list read without a pipeline and the
    derived port, each with its reason and source."""
    out = explain("--site", "lumi", "--app", "qcnn", "--nodes", "2", "-A", "p", "--stage",
                  "/scratch/p/d.tar")
    block = _block(out, "the batch script before the launch")
    for text, source in [
        ("lumi has 2978 nodes; this job takes 2", "source: LUG docs/hardware/lumig.md"),
        ("JOBGEN_JOB_ID=$SLURM_JOB_ID", "source: the scheduler's job environment (slurm)"),
        ("MASTER_ADDR: the first compute host, read without a pipeline",
         "source: jobgen tests/test_prelaunch_scale.py"),
        ("MASTER_PORT=29500 + (job id mod 1000), within 29500-30499",
         "source: jobgen tests/test_e2e.py"),
    ]:
        assert re.search(rf"^  {re.escape(text)}\n +why: .+\n +{re.escape(source)}", block,
                         re.M), text
    steps = _block(out, "device sharing, collectives, framework and job steps")
    assert "the exit trap removes it only where it carries this job's mark" in steps
    assert "MASTER_PORT=29500 + (job id mod 1000)" in _block(out, "rendezvous")


def test_explain_shows_the_size_warning_the_route_and_the_lsf_requeue_count():
    aurora = explain("--site", "aurora", "-A", "p", "--nodes", "10624", "--", "python3", "t.py")
    assert "WARNING: --nodes 10624: ALCF's early-user notes" in aurora
    assert "WARNING: --nodes 10624 is the whole of aurora" in aurora and "pbsnodes" in aurora
    summit = explain("--site", "summit", "-A", "p", "--app", "gpt", "--requeue", "2",
                     "--checkpoint-dir", "/gpfs/alpine2/p/ck")
    assert "requeue up to 2 times (brequeue $LSB_JOBID, counted in " \
        ".jobgen/$LSB_JOBID.requeues" in summit
    assert "brequeue.1.html" in summit


def test_a_users_own_value_is_credited_to_the_users_file_not_the_sites_guide(tmp_path):
    mine = tmp_path / "lumi-mine.yaml"
    mine.write_text("name: lumi-mine\nextends: lumi\nscheduler:\n  default_walltime: '02:00:00'\n")
    env = {"JOBGEN_PROFILE_PATH": str(tmp_path)}
    data = json.loads(explain("--site", "lumi-mine", "--app", "ffn", "-A", "p", "--format",
                              "json", env=env))
    time = next(d for d in data["directives"] if d["text"].startswith("#SBATCH --time="))
    assert time["source"] == f"your own value: {mine} (scheduler.default_walltime)"
    # the site's own value keeps the site's source
    data = json.loads(explain("--site", "lumi", "--app", "ffn", "-A", "p", "--format", "json"))
    time = next(d for d in data["directives"] if d["text"].startswith("#SBATCH --time="))
    assert time["source"].startswith("LUG ")


def _in_process_explain(monkeypatch, cols: str, *args: str) -> str:
    from helpers import jobgen_here

    monkeypatch.setenv("COLUMNS", cols)
    res = jobgen_here("explain", *args)
    assert res.returncode == 0, res.stderr
    return res.stdout


@pytest.mark.parametrize("site", ["aurora", "lumi", "polaris"])
def test_explain_wraps_at_the_width_at_spaces_only(monkeypatch, site):
    """At 80 columns every line fits, except the fixed columns (placement, drawing), the
    commands to copy and single words longer than the line; no word is cut: the words are
    those of the unwrapped text, in order."""
    args = ("--site", site, "--app", "cosmictagger", "--nodes", "4", "-A", "p")
    wide = _in_process_explain(monkeypatch, "1000", *args)
    narrow = _in_process_explain(monkeypatch, "80", *args)
    assert narrow.split() == wide.split()
    fixed = set(wide.split("== placement", 1)[1].split("\n\n", 2)[1].splitlines())
    fixed |= {ln for ln in wide.splitlines() if ln.startswith("request: ")}
    fixed.add(wide.split("== app command\n", 1)[1].splitlines()[0])
    for line in narrow.splitlines():
        assert len(line) <= 80 or line in fixed or len(line.split()) == 1 or (
            len(line.split()) == 2 and line.split()[0].endswith(":")), line


@pytest.mark.parametrize("site", ["aurora", "lumi", "polaris", "summit"])
def test_explain_ends_with_a_legend_of_every_source_key_it_uses(monkeypatch, site):
    from jobgen.profiles.load import load_profile

    refs = load_profile(site).profile.references
    out = _in_process_explain(monkeypatch, "100", "--site", site, "--app", "ffn", "-A", "p")
    body, legend = out.split("== sources: the keys above, and the documents they name\n")
    used = {k for k in refs if re.search(rf"source: (?:.*; )?{re.escape(k)} ", body)}
    assert used, "no source key found"
    listed = dict(re.findall(r"^  ([A-Za-z0-9]+): (.*)$", legend, re.M))
    assert used <= set(listed)
    assert all(listed[k] == refs[k][:len(listed[k])] for k in listed)


ISSUE_REF = re.compile(r"\b[Ii]ssue #?\d+")


def test_no_internal_issue_numbers_in_user_facing_text(monkeypatch):
    texts = {str(p): p.read_text() for pattern in (
        "README.md", "docs/*.md", "docs/sites/*.md", "docs/reference/*.md", "templates/*.j2",
        "site_profiles/*.yaml", "workloads/*/manifest.yaml") for p in ROOT.glob(pattern)}
    for site in ("aurora", "lumi", "polaris", "local"):
        texts[f"explain {site}"] = _in_process_explain(
            monkeypatch, "100", "--site", site, "--app", "cosmictagger", "-A", "p")
    found = {name: ISSUE_REF.findall(text) for name, text in texts.items()
             if ISSUE_REF.search(text)}
    assert not found, found


SCRIPT_CASES = [
    ("aurora", "--app", "cosmictagger", "--nodes", "4"),
    ("aurora", "--app", "ffn", "--copper", "--copper-path", "/lus/flare/projects/p/venv"),
    ("sunspot", "--app", "ffn"),
    ("polaris", "--app", "gpt", "--nodes", "2", "--profile", "nsys"),
    ("lumi", "--app", "resnet50", "--nodes", "4", "--requeue", "2", "--checkpoint-dir",
     "/scratch/p/ckpt"),
    ("summit", "--app", "ffn", "--nodes", "2"),
    ("jlse-mi250", "--app", "ffn", "--python", "/opt/rocm-torch/bin/python"),
    ("local", "--app", "qcnn", "--monitor"),
    ("local-mpich", "--app", "qcnn"),
    ("local-slurm", "--app", "qcnn", "--nodes", "2"),
    ("local", "--framework", "tensorflow", "--app", "ffn"),
]


@pytest.mark.parametrize("case", SCRIPT_CASES, ids=lambda c: " ".join(c)[:50])
def test_every_line_of_the_script_has_an_explanation(monkeypatch, case):
    """Every non-blank line of the rendered script is explained: a fact, the template's own
    lines (shebang, ulimit, cd, traps, signal forwarding, node-count check, the wait), or
    the comment above it in its paragraph."""
    from helpers import jobgen_here

    site, *rest = case
    args = ("--site", site, *rest, "-A", "p")
    script = jobgen_here("render", *args)
    assert script.returncode == 0, script.stderr
    res = jobgen_here("explain", *args, "--format", "json")
    assert res.returncode == 0, res.stderr
    rows = json.loads(res.stdout)["script_lines"]
    lines = script.stdout.split("\n")
    assert [r["line"] for r in rows] == [i for i, ln in enumerate(lines, 1) if ln.strip()]
    assert all(r["text"] == lines[r["line"] - 1] for r in rows)
    unexplained = [(r["line"], r["text"]) for r in rows if not r["why"]]
    assert not unexplained, unexplained
    own = {r["text"].strip() for r in rows if r["from"] == "skeleton"}
    assert {"set -e -o pipefail", "ulimit -c 0", "trap jobgen_cleanup EXIT"} <= own
    assert any(t.startswith("#!/bin/bash") for t in own)
    assert any(t.startswith("cd ") for t in own) == any(ln.startswith("cd ") for ln in lines)


def test_explain_text_lists_the_scripts_own_lines(monkeypatch):
    out = _in_process_explain(monkeypatch, "100", "--site", "aurora", "--app", "ffn", "-A", "p")
    part = out.split("== the script's own lines", 1)[1]
    for text in ("line 1: #!/bin/bash -l", ": ulimit -c 0", ': cd "$PBS_O_WORKDIR"',
                 ": JOBGEN_NODES=1", ": trap jobgen_cleanup EXIT", ': jobgen_signalled=""',
                 ': exit "$jobgen_status"'):
        assert text in part, text
    assert "signal forwarding" in part and "node-count check" in part
