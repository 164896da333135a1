"""`jobgen lint`: generated scripts lint clean, every rule catches its broken twin and passes
its clean one, and on the sites' own job scripts (tests/lint_corpus) it reports exactly the
findings a site's staff labelled true."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import ROOT, run_jobgen, with_site_python

from jobgen.errors import JobgenError
from jobgen.plan.apps import app_names
from jobgen.plan.build import Request, build_plan
from jobgen.profiles.load import load_profile, site_names
from jobgen.review.lint import RULES, TOPICS, detect_site, explain, lint, rule_table
from jobgen.review.lint.docs import markdown
from jobgen.review.scriptparse import parse_file, parse_text
from jobgen.text.render import render

SITES = site_names()
SCRIPTS = ROOT / "tests" / "scripts"
BROKEN = sorted((SCRIPTS / "broken").iterdir())
CLEAN = sorted((SCRIPTS / "clean").iterdir())
# shared/ beside the checkout (or above a worktree of it)
REFERENCE = next((d / "shared" / "reference-scripts" for d in (ROOT, ROOT.parent,
                                                               ROOT.parent.parent)
                  if (d / "shared" / "reference-scripts").is_dir()), ROOT / "shared")
EXPECT = re.compile(r"^# expect: (\S+) site: (\S+) -- (.+)$")
CLEAN_SITE = re.compile(r"^# clean: site: (\S+) -- (.+)$")
EXAMPLES = sorted(p for p in (ROOT / "examples").rglob("*") if p.is_file() and p.suffix != ".py")


def rendered(site: str, **kw) -> str:
    if load_profile(site).profile.scheduler.account_required:
        kw.setdefault("account", "proj")
    return render(build_plan(load_profile(site), Request(site=site, **with_site_python(site, kw))))


def rules_of(text: str, site: str, **kw) -> list[str]:
    return [f.rule for f in lint(parse_text(text), load_profile(site).profile, **kw)]


# ---------------------------------------------------------------- what jobgen writes is clean
@pytest.mark.parametrize("site", SITES)
@pytest.mark.parametrize("app", app_names())
def test_every_rendered_script_lints_clean(site, app):
    assert rules_of(rendered(site, app=app), site) == []


def _threads(site: str) -> int:
    node = load_profile(site).profile.node
    return node.sockets * node.cores_per_socket * node.threads_per_core


@pytest.mark.parametrize("site,ranks", [
    (s, n) for s in SITES if load_profile(s).profile.scheduler.dialect != "none"
    for n in (1, 2, 3, 4) if n <= _threads(s)  # a batch node holds a rank per thread
])
def test_other_rank_counts_and_node_counts_lint_clean(site, ranks):
    assert rules_of(rendered(site, app="ffn", ranks_per_node=ranks, nodes=2), site) == []


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bundled_examples_lint_clean(path):
    script = parse_file(path)
    profile = load_profile(script.header.site or path.parent.name).profile
    # an example that pins an older framework module on purpose (--framework-module=...,
    # extras/aurora-frameworks-2024.pbs) is told, at info, that the site has moved on
    pinned = re.search(r"--framework-module=(\S+)", script.header.regenerate or "")
    assert [f.format(path.name) for f in lint(script, profile)
            if not (pinned and f.rule == "MODULE003" and f.severity == "info" and
                    pinned.group(1) in f.message)] == []


REFERENCE_SITES = {
    "aurora_ddp_2node.pbs": "aurora", "sunspot_ddp_2node.pbs": "sunspot",
    "polaris_ddp_2node.pbs": "polaris", "summit_ddp_2node.lsf": "summit",
    "lumi_g_ddp_2node.slurm": "lumi", "jlse_mi250_ddp_2node.cobalt": "jlse-mi250",
}


@pytest.mark.skipif(not REFERENCE.is_dir(), reason="shared reference scripts not here")
@pytest.mark.parametrize("name,site", sorted(REFERENCE_SITES.items()))
def test_hand_written_reference_scripts_have_only_their_placeholders(name, site):
    """They leave the project to fill in (`-A <your_ProjectName>`): one TEXT002 note, no more."""
    assert set(rules_of((REFERENCE / name).read_text(), site)) <= {"TEXT002"}


@pytest.mark.skipif(not REFERENCE.is_dir(), reason="shared reference scripts not here")
def test_every_reference_script_is_among_those_linted():
    assert sorted(p.name for p in REFERENCE.iterdir() if p.is_file()) == sorted(REFERENCE_SITES)


# ---------------------------------------------------------------- a broken/clean twin per rule
def _expectation(path: Path) -> tuple[str, str]:
    m = EXPECT.match(path.read_text().splitlines()[1])
    assert m, f"{path.name}: second line must be '# expect: RULE site: SITE -- what'"
    return m.group(1), m.group(2)


def _found(path: Path, site: str, expected: str | None) -> list[str]:
    """The rules a twin trips (TEXT002 only where it is the rule under test)."""
    found = [f.rule for f in lint(parse_file(path), load_profile(site).profile)]
    return [r for r in found if r != "TEXT002" or expected == "TEXT002"]


def test_every_rule_has_a_broken_and_a_clean_twin():
    twins = {_expectation(p)[0] for p in BROKEN if (SCRIPTS / "clean" / p.name).exists()}
    assert set(RULES) - twins == set()
    assert {p.name for p in CLEAN} <= {p.name for p in BROKEN}


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.name)
def test_each_broken_twin_is_caught_by_its_rule_alone(path):
    rule, site = _expectation(path)
    assert _found(path, site, rule) == [rule]


@pytest.mark.parametrize("path", CLEAN, ids=lambda p: p.name)
def test_each_clean_twin_lints_clean(path):
    m = CLEAN_SITE.match(path.read_text().splitlines()[1])
    assert m, f"{path.name}: second line must be '# clean: site: SITE -- what'"
    assert _expectation(SCRIPTS / "broken" / path.name)[1] == m.group(1)
    assert _found(path, m.group(1), None) == []


def test_every_rule_declares_topic_scope_source_and_fix():
    assert {r.topic for r in RULES.values()} == set(TOPICS)
    for r in RULES.values():
        assert r.scope and r.source and r.fix and r.summary, r.id
        assert re.fullmatch(r"[A-Z]+[0-9]{3}", r.id) and re.fullmatch(r"[a-z0-9-]+", r.name)
    assert len(rule_table()) == len(RULES)


# ---------------------------------------------------------------- the sites' own scripts
CORPUS = ROOT / "tests" / "lint_corpus"
INDEX = yaml.safe_load((CORPUS / "index.yaml").read_text())
LINTED = [e for e in INDEX if e["site"] in SITES]
UNPROFILED = [e for e in INDEX if e["site"] not in SITES]


def _corpus_findings(entry: dict) -> list:
    path = CORPUS / "scripts" / entry["file"]
    return lint(parse_file(path), load_profile(entry["site"]).profile)


@pytest.mark.parametrize("entry", LINTED, ids=lambda e: e["file"])
def test_corpus_script_gets_exactly_its_labelled_true_findings(entry):
    found = {(f.rule, f.line, f.severity): f.message for f in _corpus_findings(entry)}
    labels = {(x["rule"], x["line"], x["severity"]): x for x in entry.get("expect", [])}
    assert [k for k in found if k not in labels] == [], "unlabelled findings: label them"
    assert [k for k in found if not labels[k]["true"]] == [], "false positives"
    assert [k for k, x in labels.items() if x["true"] and k not in found] == [], "missed"


def test_corpus_keeps_every_true_finding_of_the_old_lint_and_is_precise():
    """Every finding main's lint got right is still found (by its `kept_as` rule and line),
    and at least 95% of today's findings on the corpus are labelled true."""
    labelled = [x for e in LINTED for x in e.get("expect", [])]
    precision = sum(x["true"] for x in labelled) / len(labelled)
    assert precision >= 0.95
    for e in LINTED:
        now = {f"{x['rule']}:{x['line']}" for x in e.get("expect", []) if x["true"]}
        for b in e.get("before", []):
            assert (b["label"] == "true") == ("kept_as" in b), (e["file"], b)
            assert b.get("kept_as", next(iter(now), "")) in now | {""}, (e["file"], b)


@pytest.mark.parametrize("entry", UNPROFILED, ids=lambda e: e["file"])
def test_a_script_for_a_site_without_a_profile_is_not_linted_as_another_site(entry):
    assert detect_site(parse_file(CORPUS / "scripts" / entry["file"])) is None


def test_corpus_provenance_is_complete():
    assert len(INDEX) >= 150 and len(LINTED) >= 100
    for e in INDEX:
        assert (CORPUS / "scripts" / e["file"]).is_file()
        assert re.fullmatch(r"[0-9a-f]{40}", e["commit"]) and e["repo"] and e["path"]
        assert all(x["why"] for x in e.get("expect", []) + e.get("before", []))


# ---------------------------------------------------------------- reading a script as staff do
def test_a_placeholder_is_one_note_and_no_other_rule_reads_it():
    text = ("#!/bin/bash -l\n#PBS -A <project>\n#PBS -q <queue>\n#PBS -l select=1\n"
            "#PBS -l walltime=HH:MM:SS\n#PBS -l filesystems=<fs1:fs2>\n"
            "cd $PBS_O_WORKDIR\nmpiexec -n 4 --ppn 4 ./app\n")
    findings = lint(parse_text(text), load_profile("polaris").profile)
    assert [f.rule for f in findings] == ["TEXT002"]
    assert findings[0].severity == "info" and findings[0].line == 2
    assert "<queue> (line 3)" in findings[0].message and "HH:MM:SS" in findings[0].message


def test_directives_are_read_from_the_directive_block_only():
    """A `qsub` line in a comment sets nothing; a directive after the first command is one
    the scheduler ignores, so it is reported and not read."""
    text = ("#!/bin/bash -l\n# qsub -q bogus -l filesystems=grand ./job.sh\n#PBS -A p\n"
            "#PBS -l select=1:system=polaris\n#PBS -l walltime=00:30:00\n"
            "#PBS -l filesystems=home:eagle\ncd $PBS_O_WORKDIR\n#PBS -q debug_scaling\n"
            "mpiexec -n 4 --ppn 4 ./app\n")
    assert rules_of(text, "polaris") == ["SCHED005"]


def test_several_launches_are_read_separately():
    """ALCF's example runs four mpiexec, each on its own GPU: no shared device, no rank
    excess; a launch with its own mistake is reported on its own line."""
    text = (CORPUS / "scripts" / "alcf-ug" / "docs-running-jobs-example-job-scripts-L238.sh"
            ).read_text()
    # (its `cd ${PBS_O_WORKDIR}` is commented out: ./hello_affinity from the home directory)
    assert rules_of(text, "polaris") == ["PBS009"]
    bad = text.replace("list:8:9:10:11:12:13:14:15", "list:8:9:10:11:12:13:14:99")
    findings = lint(parse_text(bad), load_profile("polaris").profile)
    assert [(f.rule, f.line) for f in findings if f.rule != "PBS009"] == [("CPU003", 28)]


def test_cpu_only_programs_are_not_held_to_gpu_rules():
    text = ("#!/bin/bash -l\n#PBS -A p\n#PBS -l select=1:system=polaris\n"
            "#PBS -l walltime=00:30:00\n#PBS -l filesystems=home:eagle\n#PBS -q debug\n"
            "cd $PBS_O_WORKDIR\n"
            "mpiexec -n 32 --ppn 32 --depth=2 --cpu-bind depth ./hello_affinity\n")
    assert rules_of(text, "polaris") == []
    ai = text.replace("./hello_affinity", "python train.py")
    assert rules_of(ai, "polaris") == ["GPU001"]


def test_lumi_c_partitions_are_known_with_their_own_nodes():
    text = ("#!/bin/bash\n#SBATCH --account=project_465000000\n#SBATCH --partition=standard\n"
            "#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=16\n#SBATCH --cpus-per-task=8\n"
            "#SBATCH --time=01:00:00\nsrun ./app\n")
    assert rules_of(text, "lumi") == []  # 16 x 8 = 128 cores: a LUMI-C node, not LUMI-G's 56
    # (and, asking no GPU on standard-g's nodes billed whole, GPU008: round 19)
    assert sorted(rules_of(text.replace("=standard\n", "=standard-g\n"), "lumi")) == \
        ["CPU006", "GPU008"]


def test_one_or_two_gpus_on_small_g_need_no_exclusive_node():
    text = (CORPUS / "scripts" / "lumi-ai" / "01-quickstart-run-L1.sh").read_text()
    assert "QUEUE003" not in rules_of(text, "lumi")


HAND_WRITTEN = {
    "polaris": ("#!/bin/bash -l\n#PBS -A myproj\n#PBS -l select=2:system=polaris\n"
                "#PBS -l walltime=01:00:00\n#PBS -l filesystems=home:eagle\n#PBS -q debug\n"
                "cd $PBS_O_WORKDIR\nmodule use /soft/modulefiles\nmodule load conda\n"
                "conda activate base\nmpiexec -n 8 --ppn 4 python train.py\n"),
    "lumi": ("#!/bin/bash\n#SBATCH --account=project_465000000\n#SBATCH --partition=standard-g\n"
             "#SBATCH --nodes=2\n#SBATCH --gpus-per-node=8\n#SBATCH --ntasks-per-node=8\n"
             "#SBATCH --time=01:00:00\n"
             "srun singularity exec /scratch/project_465000000/pytorch.sif python train.py\n"),
}


@pytest.mark.parametrize("site", sorted(HAND_WRITTEN))
def test_hand_written_scripts_without_the_recommended_settings_get_warnings(site):
    """A 2-node PyTorch script with none of the site's NCCL/RCCL settings, CPU binding or
    (LUMI) container bindings: each missing piece is a warning naming its source."""
    findings = lint(parse_text(HAND_WRITTEN[site]), load_profile(site).profile)
    expected = {"polaris": {"ENV002", "CPU009"},
                "lumi": {"ENV002", "CPU009", "CONT002"}}[site]
    assert {f.rule for f in findings} == expected
    assert all(f.severity == "warning" and f.source for f in findings)
    if site == "lumi":  # MIOpen's caches and RCCL's network: two documented sets
        assert len([f for f in findings if f.rule == "ENV002"]) == 2


def test_site_from_a_site_line_or_the_directives():
    assert detect_site(parse_text("#!/bin/bash\n# site: lumi\nsrun python x.py\n")) == "lumi"
    assert detect_site(parse_text("#!/bin/bash\n#PBS -l select=2:system=polaris\n")) == \
        "polaris"
    assert detect_site(parse_text("#!/bin/bash\n#PBS -l filesystems=home:flare\n")) == "aurora"
    assert detect_site(parse_text("#!/bin/bash\n#SBATCH --partition=small-g\n")) == "lumi"
    assert detect_site(parse_text("#!/bin/bash\n#PBS -q debug\n")) is None  # Polaris or Aurora
    assert detect_site(parse_text("#!/bin/bash\n#SBATCH -p batch\n#SBATCH -A ABC123\n")) is None


def test_a_file_that_is_not_a_job_script_is_refused():
    with pytest.raises(JobgenError, match="not a job script"):
        lint(parse_text("import torch\nprint(torch.__version__)\n", "train.py"),
             load_profile("polaris").profile)
    with pytest.raises(JobgenError, match="not a job script"):
        lint(parse_text("#!/usr/bin/env python3\nimport os\n"), load_profile("lumi").profile)


def test_severity_floor():
    text = (SCRIPTS / "broken" / "text002_project_placeholder.pbs").read_text()
    profile = load_profile("polaris").profile
    assert [f.rule for f in lint(parse_text(text), profile)] == ["TEXT002"]
    assert lint(parse_text(text), profile, min_severity="warning") == []


# ---------------------------------------------------------------- the command line
def test_cli_reports_line_rule_severity_message_and_fix_and_exits_1_on_errors():
    path = SCRIPTS / "broken" / "cpu001_reserved_core.pbs"
    result = run_jobgen("lint", str(path), "--site", "aurora")
    assert result.returncode == 1, result.stderr
    line = next(x for x in result.stdout.splitlines() if "CPU001" in x)
    assert re.match(rf"^{re.escape(str(path))}:\d+: CPU001 reserved-core \(error\): .*"
                    r"\(fix: .+\)$", line)
    number = int(line.split(":")[1])
    assert "CPU_BIND" in path.read_text().splitlines()[number - 1] or \
        "mpiexec" in path.read_text().splitlines()[number - 1]


def test_cli_warnings_exit_0_unless_strict_and_min_severity_filters():
    path = SCRIPTS / "broken" / "cpu009_polaris_ranks_without_binding.pbs"
    plain = run_jobgen("lint", str(path), "--site", "polaris")
    assert plain.returncode == 0 and "CPU009 unbound-ranks (warning)" in plain.stdout
    assert run_jobgen("lint", str(path), "--site", "polaris", "--strict").returncode == 1
    quiet = run_jobgen("lint", str(path), "--site", "polaris", "--min-severity", "error")
    assert quiet.returncode == 0 and "CPU009" not in quiet.stdout


def test_cli_json_format_and_site_from_the_header(tmp_path):
    path = tmp_path / "job.pbs"
    path.write_text(rendered("aurora", app="ffn").replace("#PBS -l filesystems=home:flare\n", ""))
    result = run_jobgen("lint", str(path), "--format", "json")  # site read from the header
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert data["site"] == "aurora" and data["counts"]["error"] == 1
    assert [f["rule"] for f in data["findings"]] == ["ALCF002"]
    assert data["findings"][0]["fix"] == "add `#PBS -l filesystems=home:flare`"
    assert data["findings"][0]["severity"] == "error" and data["findings"][0]["source"]


def test_cli_clean_script_exits_0_and_mistakes_exit_2(tmp_path):
    path = tmp_path / "job.slurm"
    path.write_text(rendered("lumi", app="gpt"))
    ok = run_jobgen("lint", str(path))
    assert ok.returncode == 0 and "0 finding(s)" in ok.stdout
    assert run_jobgen("lint", str(path), "--site", "nowhere").returncode == 2
    assert run_jobgen("lint", str(tmp_path / "missing.sh"), "--site", "lumi").returncode == 2
    bare = tmp_path / "bare.sh"
    bare.write_text("#!/bin/bash\nsrun python train.py\n")
    assert run_jobgen("lint", str(bare)).returncode == 2  # no site given, none in the script
    train = tmp_path / "train.py"
    train.write_text("import torch\nprint(torch.cuda.is_available())\n")
    res = run_jobgen("lint", str(train), "--site", "polaris")
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.strip().count("\n") == 0 and "not a job script" in res.stderr


def test_cli_explain_prints_the_rule_and_the_facts_it_reads():
    res = run_jobgen("lint", "--explain", "WALL004", "--site", "polaris")
    assert res.returncode == 0, res.stderr
    assert "WALL004 walltime-under-minimum (error, queue)" in res.stdout
    assert "debug: 1-2 nodes, up to 01:00:00, at least 00:05:00" in res.stdout
    assert "UG: argonne-lcf/user-guides" in res.stdout
    assert "applies to:" in explain("cpu005") and "source:" in explain("CPU005")
    assert run_jobgen("lint", "--explain", "NOPE001").returncode == 2


def test_docs_page_is_generated_from_the_rule_table():
    """docs/lint.md is `python tools/lint_docs.py`'s output: regenerate it after editing a rule."""
    assert (ROOT / "docs" / "lint.md").read_text() == markdown()
    assert all(f"| {rule_id} `" in markdown() for rule_id in RULES)


def test_render_does_not_import_lint():
    code = ("import sys, jobgen.cli.rendering, jobgen.text.render, jobgen.plan.build; "
            "print(any(m.startswith('jobgen.review') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ---------------------------------------------------------------- rules from the profile's facts
def test_depth_binding_skips_the_reserved_core_as_pals_does():
    """Aurora's docs: `--depth=8 --cpu-bind=depth` puts rank 0 on HWT 1-8 and rank 6 on
    49-51,53-57. Not a reserved-core problem; a rank split across sockets is."""
    from jobgen.review.lint import Context
    from jobgen.review.lint.context import rank_cpus

    text = (SCRIPTS / "broken" / "cpu005_depth_8_splits_rank_6_across_sockets.pbs").read_text()
    ctx = Context(parse_text(text), load_profile("aurora").profile)
    cpus = rank_cpus(ctx, ctx.launches[-1])
    assert cpus[0] == list(range(1, 9)) and cpus[6] == [49, 50, 51, 53, 54, 55, 56, 57]
    assert cpus[11] == list(range(90, 98))
    assert rules_of(text, "aurora", min_severity="warning") == ["CPU005"]


def test_a_new_profile_fact_brings_its_check():
    """Rules read the profile: a discouraged directive, an essential variable or a node-local
    path added to a profile is checked without new lint code."""
    from jobgen.profiles.model import Directive, EnvVar

    profile = load_profile("polaris").profile
    text = rendered("polaris", app="ffn")
    assert lint(parse_text(text), profile) == []
    sched = dataclasses.replace(profile.scheduler, avoid=[
        Directive(value="-j oe", why="test fact", source="UG x")])
    extra = EnvVar(name="NCCL_TEST_KNOB", value="/tmp/x", why="test fact", source="UG x",
                   required="test set")
    changed = dataclasses.replace(profile, scheduler=sched, env=[*profile.env, extra])
    assert {f.rule for f in lint(parse_text(text), changed)} == {"SCHED004", "ENV002"}
    misspelt = text.replace("\nmpiexec ", "\nexport NCCL_TEST_KNBO=1\nmpiexec ", 1)
    assert {f.rule for f in lint(parse_text(misspelt), changed)} == {"SCHED004", "ENV001"}
    moved = text.replace("\nmpiexec ", "\nexport NCCL_TEST_KNOB=$HOME/x\nmpiexec ", 1)
    assert {f.rule for f in lint(parse_text(moved), changed)} == {"SCHED004", "ENV003"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_launch_lint_reads_is_the_one_that_starts_the_ranks(path):
    """Renders clean up in a function (`srun ... rm -rf` in jobgen_cleanup) and prepare nodes
    before the launch (mkdir, data staging, MPS daemons): the rules read the launch of the
    rank wrapper, whatever launcher spelling the site uses (`mpiexec.mpich`)."""
    assert "$JOBGEN_WRAPPER" in parse_file(path).launch_argv


def test_a_hand_written_launch_between_staging_and_cleanup_steps():
    text = ("#!/bin/bash\n#SBATCH --nodes=2\ncleanup() {\n    srun -N2 --ntasks-per-node=1 "
            "rm -rf /tmp/d\n}\ntrap cleanup EXIT\nsrun -N2 --ntasks-per-node=1 cp d.tar /tmp\n"
            "srun -N2 --ntasks-per-node=8 python train.py\n"
            "srun -N2 --ntasks-per-node=1 rm -rf /tmp/d\n")
    script = parse_text(text)
    assert script.launch_line == 8 and script.launch_argv[-2:] == ["python", "train.py"]
    assert [launch.line for launch in script.launches] == [8]


def test_a_users_own_library_path_is_not_a_moved_node_local_path():
    """ENV003 holds node-local paths (node_dir, /tmp, the node's local storage) in place; a
    user prepending a library of their own to LD_LIBRARY_PATH moves nothing."""
    text = rendered("polaris", app="ffn")
    mine = text.replace("\nmpiexec ", "\nexport LD_LIBRARY_PATH=$HOME/lib:$LD_LIBRARY_PATH\n"
                        "mpiexec ", 1)
    assert mine != text and rules_of(mine, "polaris") == []


def test_lumi_renders_on_shared_partitions_ask_for_whole_nodes():
    text = rendered("lumi", app="ffn", queue="small-g")
    assert "#SBATCH --exclusive" in text and rules_of(text, "lumi") == []
    assert "#SBATCH --exclusive" not in rendered("lumi", app="ffn", queue="standard-g")


def test_a_tensorflow_script_loading_the_pytorch_stack_is_caught():
    """Aurora: "TensorFlow now has its own module, separate from the frameworks module"
    (UG docs/aurora/data-science/frameworks/tensorflow.md); a PyTorch script that sets
    HOROVOD_THREAD_AFFINITY is not a TensorFlow one (the ALCF workshop's allreduce scripts)."""
    text = (ROOT / "examples" / "extras" / "aurora-tensorflow.pbs").read_text()
    wrong = text.replace("module load tensorflow\n", "module load frameworks\n")
    findings = lint(parse_text(wrong), load_profile("aurora").profile)
    assert [f.rule for f in findings] == ["MODULE001"] and "load tensorflow" in findings[0].fix
    pytorch = (ROOT / "examples" / "aurora" / "ffn.pbs").read_text()
    marked = pytorch.replace("\nmpiexec ", "\nexport HOROVOD_THREAD_AFFINITY=7\nmpiexec ", 1)
    assert rules_of(marked, "aurora") == []


def test_lumi_masks_in_core_order_with_the_guides_select_gpu_wrapper():
    """LUMI's guide: select_gpu gives task i GCD i (ROCR_VISIBLE_DEVICES=$SLURM_LOCALID) and
    the masks put task i next to GCD i; the same masks in core order put every task on the
    wrong NUMA domain but two."""
    text = (CORPUS / "scripts" / "lumi-ug" / "docs-runjobs-scheduled-jobs-lumig-job-L78.sh"
            ).read_text()
    assert rules_of(text, "lumi", min_severity="warning") == []
    core_order = re.sub(r'CPU_BIND="mask_cpu:[^"]*"', 'CPU_BIND="mask_cpu:7e,7e00,7e0000,'
                        '7e000000,7e00000000,7e0000000000,7e000000000000,7e00000000000000"',
                        text, count=1)
    core_order = "\n".join(x for x in core_order.split("\n")
                           if not x.startswith('CPU_BIND="${CPU_BIND},'))
    assert rules_of(core_order, "lumi", min_severity="warning") == ["CPU007"]


# ---------------------------------------------------------------- issue 23, the review's findings
REVIEW = ROOT / "tests" / "lint_review"


def _review(name: str, site: str, **kw) -> list:
    return lint(parse_file(REVIEW / name), load_profile(site).profile, **kw)


def test_a_variable_whose_library_falls_back_is_a_warning_and_names_the_fallback():
    """MIOpen reads MIOPEN_USER_DB_PATH only and falls back to a temporary directory on
    Lustre (ROCm/MIOpen src/db_path.cpp.in): the AI guide's MIOPEN_USER_DB is a warning; a
    misspelt libfabric setting stays an error."""
    found = [f for f in _review("clean/lumi_c05_ddp_srun_container.sbatch", "lumi")
             if f.rule == "ENV001"]
    assert [f.severity for f in found] == ["warning"]
    assert "never read" in found[0].message and "temporary directory" in found[0].message
    assert "documents" not in found[0].message and "db_path.cpp.in" in found[0].source
    other = lint(parse_file(SCRIPTS / "broken" / "env001_fi_cxi_ovflow_misspelt.pbs"),
                 load_profile("aurora").profile)
    assert [f.severity for f in other if f.rule == "ENV001"] == ["error"]


def test_the_guides_own_binding_is_info_with_the_list_that_keeps_ranks_near_their_gpu():
    """ALCF's --cpu-bind depth -d 16 with the reverse-order helper: info naming the list
    binding; the same depth with the forward helper is a warning."""
    doc = [f for f in _review("clean/polaris_c02_ddp_nccl.pbs", "polaris") if f.rule == "CPU007"]
    assert [f.severity for f in doc] == ["info"]
    assert "list:0-7,32-39:8-15,40-47:16-23,48-55:24-31,56-63" in doc[0].fix
    assert _review("clean/polaris_c02_ddp_nccl.pbs", "polaris", min_severity="warning") == []
    forward = [f for f in _review("broken/polaris_05_gpu_forward_order.pbs", "polaris")
               if f.rule == "CPU007"]
    assert [f.severity for f in forward] == ["warning"]
    text = (REVIEW / "clean" / "polaris_c02_ddp_nccl.pbs").read_text()
    listed = text.replace("--depth=${NDEPTH} --cpu-bind depth",  # the fix, as lint gives it
                          "--cpu-bind list:0-7,32-39:8-15,40-47:16-23,48-55:24-31,56-63")
    assert listed != text and rules_of(listed, "polaris") == []


def test_the_tensorflow_module_itself_is_not_called_the_pytorch_stack():
    # the script charges the guide's template project ABC123: a TEXT002 note, nothing else
    assert [f.rule for f in _review("clean/summit_c01_wmlce_horovod.lsf", "summit")] == \
        ["TEXT002"]
    text = (REVIEW / "clean" / "summit_c01_wmlce_horovod.lsf").read_text()
    plain = text.replace("module load open-ce/1.10.0-py311-ibm", "module load open-ce")
    found = [f for f in lint(parse_text(plain), load_profile("summit").profile)
             if f.rule != "TEXT002"]
    assert [f.rule for f in found] == ["MODULE001"]
    assert "open-ce/1.10.0-py311-ibm" in found[0].fix


@pytest.mark.parametrize("partition,walltime,nodes,rule", [
    ("debug", "00:30:00", 4, None), ("debug", "01:00:00", 1, "WALL001"),
    ("debug", "00:30:00", 5, "QUEUE001"), ("small", "3-00:00:00", 4, None),
    ("small", "3-00:00:01", 1, "WALL001"), ("standard", "2-00:00:00", 512, None),
    ("standard", "12:00:00", 513, "QUEUE001"), ("largemem", "24:00:00", 1, None),
    ("largemem", "12:00:00", 2, "QUEUE001"),
])
def test_lumi_c_and_lumi_d_partitions_are_checked_against_their_limits(partition, walltime,
                                                                       nodes, rule):
    text = (f"#!/bin/bash -l\n#SBATCH --account=project_465000000\n#SBATCH --partition={partition}"
            f"\n#SBATCH --nodes={nodes}\n#SBATCH --ntasks-per-node=128\n#SBATCH --time={walltime}"
            "\n\nsrun ./your_application\n")
    assert rules_of(text, "lumi") == ([rule] if rule else [])


def test_render_never_picks_a_cpu_partition_for_lumi(tmp_path):
    """LUMI-C's limits are lint facts: `jobgen render --site lumi` still takes only the LUMI-G
    queues and refuses a LUMI-C one by name."""
    result = run_jobgen("render", "--site", "lumi", "--app", "ffn", "--nodes", "1",
                        "--account", "project_1", "--queue", "standard")
    assert result.returncode == 2 and "unknown queue 'standard'" in result.stderr
    assert result.stdout == ""
    auto = rendered("lumi", app="ffn", nodes=2)
    assert "#SBATCH --partition=standard-g" in auto


def test_store003_looks_at_where_data_goes_not_where_it_comes_from():
    """A checkout under /tmp makes the script copy its workloads package *from* /tmp: that
    is no data in the capped in-memory /tmp of small-g (a fresh clone in /tmp was flagged)."""
    from jobgen.review.lint.storage import _copies_into_tmp

    assert not _copies_into_tmp('cp -R /tmp/clone/workloads "$JOBGEN_DIR/python/"')
    assert not _copies_into_tmp("mkdir -p /tmp/x")
    for line in ("cp -r /scratch/p/data /tmp/data", "rsync -a /flash/x/ /tmp/",
                 "srun tar -xf d.tar --directory=/tmp/x", "tar xf d.tar -C /tmp",
                 "unzip -q a.zip -d /tmp/a", "cp a b && cp /x /tmp/y"):
        assert _copies_into_tmp(line), line
    text = rendered("lumi", app="ffn", queue="small-g").replace(
        "cp -R /", "cp -R /tmp/clone/", 1)
    assert "cp -R /tmp/clone/" in text and rules_of(text, "lumi") == []


@pytest.mark.parametrize("ranks", [1, 2, 3])
def test_the_local_tensorflow_spawner_line_is_a_launch_and_lints_clean(ranks):
    """`python3 -m workloads.spawn --nproc-per-node=N` (the local site's TensorFlow launcher) is
    read as the launch of N ranks on this machine, so the launch checks look at it."""
    from jobgen.review.lint.context import LaunchView, lint_context

    text = rendered("local", app="ffn", framework="tensorflow", ranks_per_node=ranks)
    script = parse_text(text)
    [launch] = script.launches
    assert launch.argv[0] == "workloads.spawn"
    assert script.launch_text.startswith("python3 -m workloads.spawn ")
    view = LaunchView(lint_context(script, load_profile("local").profile), launch)
    assert (view.dialect, view.ranks_per_node, view.total_ranks) == ("spawn", ranks, ranks)
    assert view.ai and view.program[:3] == ["python3", "-m", "workloads.ffn"]
    assert rules_of(text, "local") == []


def test_the_spawner_elsewhere_is_not_the_sites_launcher_and_its_flags_are_its_own():
    line = ("python3 -m workloads.spawn --nproc-per-node=2 python3 -m workloads.ffn "
            "--framework tensorflow\n")
    assert rules_of(f"#!/bin/bash\n{line}", "local") == []
    # a Python of one's own (--python) and argparse's unique prefixes are the spawner too
    own = line.replace("python3 -m workloads.spawn --nproc-per-node=2", "/venv/bin/python -m "
                       "workloads.spawn --grace 5 --nproc=2")
    assert rules_of(f"#!/bin/bash\n{own}", "local") == []
    assert rules_of(f"#!/bin/bash\n{line}", "polaris") == ["LAUNCH001"]
    for flag, says in (("--standalone", "a torchrun option"), ("-n 2", "a MPI option"),
                       ("--bogus", "not an option of workloads.spawn")):
        bad = line.replace("--nproc-per-node=2", f"{flag} --nproc-per-node=2")
        [finding] = lint(parse_text(f"#!/bin/bash\n{bad}"), load_profile("local").profile)
        assert finding.rule == "LAUNCH002" and says in finding.message, finding.message
