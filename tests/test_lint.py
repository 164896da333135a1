"""`jobgen lint`: generated scripts lint clean, each classic mistake is caught by its rule."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import ROOT, run_jobgen, with_site_python

from jobgen.plan.apps import app_names
from jobgen.plan.build import Request, build_plan
from jobgen.profiles.load import load_profile, site_names
from jobgen.review.lint import lint, rule_table
from jobgen.review.scriptparse import parse_file, parse_text
from jobgen.text.render import render

SITES = site_names()
BROKEN = sorted((ROOT / "tests" / "scripts" / "broken").iterdir())
REFERENCE = ROOT.parent / "shared" / "reference-scripts"  # ../shared beside the checkout
EXPECT = re.compile(r"^# expect: (\S+) site: (\S+) -- (.+)$")


def rendered(site: str, **kw) -> str:
    if load_profile(site).profile.scheduler.account_required:
        kw.setdefault("account", "proj")
    return render(build_plan(load_profile(site), Request(site=site, **with_site_python(site, kw))))


def rules_of(text: str, site: str) -> list[str]:
    return [f.rule for f in lint(parse_text(text), load_profile(site).profile)]


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


@pytest.mark.parametrize("path", sorted(p for p in (ROOT / "examples").rglob("*")
                                        if p.is_file() and p.suffix != ".py"),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bundled_examples_lint_clean(path):
    script = parse_file(path)
    profile = load_profile(script.header.site or path.parent.name).profile
    assert [f.format(path.name) for f in lint(script, profile)] == []


REFERENCE_SITES = {
    "aurora_ddp_2node.pbs": "aurora", "sunspot_ddp_2node.pbs": "sunspot",
    "polaris_ddp_2node.pbs": "polaris", "summit_ddp_2node.lsf": "summit",
    "lumi_g_ddp_2node.slurm": "lumi", "jlse_mi250_ddp_2node.cobalt": "jlse-mi250",
}


@pytest.mark.skipif(not REFERENCE.is_dir(), reason="shared reference scripts not here")
@pytest.mark.parametrize("name,site", sorted(REFERENCE_SITES.items()))
def test_hand_written_reference_scripts_lint_clean(name, site):
    assert rules_of((REFERENCE / name).read_text(), site) == []


@pytest.mark.skipif(not REFERENCE.is_dir(), reason="shared reference scripts not here")
def test_every_reference_script_is_among_those_linted():
    assert sorted(p.name for p in REFERENCE.iterdir() if p.is_file()) == sorted(REFERENCE_SITES)


def _expectation(path: Path) -> tuple[str, str]:
    m = EXPECT.match(path.read_text().splitlines()[1])
    assert m, f"{path.name}: second line must be '# expect: RULE site: SITE -- what'"
    return m.group(1), m.group(2)


def test_broken_scripts_cover_at_least_fifteen_rules():
    assert len(BROKEN) >= 15
    rules = {_expectation(p)[0] for p in BROKEN}
    assert len(rules) >= 15
    assert rules <= {rule_id for rule_id, _ in rule_table()}


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.name)
def test_each_broken_script_is_caught_by_its_rule_alone(path):
    rule, site = _expectation(path)
    assert rules_of(path.read_text(), site) == [rule]


def test_cli_reports_line_rule_message_and_fix_and_exits_1():
    path = ROOT / "tests" / "scripts" / "broken" / "cpu001_reserved_core.pbs"
    result = run_jobgen("lint", str(path), "--site", "aurora")
    assert result.returncode == 1, result.stderr
    line = result.stdout.splitlines()[0]
    assert re.match(rf"^{re.escape(str(path))}:\d+: CPU001 reserved-core: .*\(fix: .+\)$", line)
    number = int(line.split(":")[1])
    assert "CPU_BIND" in path.read_text().splitlines()[number - 1] or \
        "mpiexec" in path.read_text().splitlines()[number - 1]


def test_cli_json_format_and_site_from_the_header(tmp_path):
    path = tmp_path / "job.pbs"
    path.write_text(rendered("aurora", app="ffn").replace("#PBS -l filesystems=home:flare\n", ""))
    result = run_jobgen("lint", str(path), "--format", "json")  # site read from the header
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert data["site"] == "aurora"
    assert [f["rule"] for f in data["findings"]] == ["ALCF002"]
    assert data["findings"][0]["fix"] == "add `#PBS -l filesystems=home:flare`"


def test_cli_clean_script_exits_0_and_mistakes_exit_2(tmp_path):
    path = tmp_path / "job.slurm"
    path.write_text(rendered("lumi", app="gpt"))
    ok = run_jobgen("lint", str(path))
    assert ok.returncode == 0 and "0 problem(s)" in ok.stdout
    assert run_jobgen("lint", str(path), "--site", "nowhere").returncode == 2
    assert run_jobgen("lint", str(tmp_path / "missing.sh"), "--site", "lumi").returncode == 2
    bare = tmp_path / "bare.sh"
    bare.write_text("#!/bin/bash\nsrun python train.py\n")
    assert run_jobgen("lint", str(bare)).returncode == 2  # no site given, none in the header


# ---------------------------------------------------------------- rules from the profile's facts
CLEAN = sorted((ROOT / "tests" / "scripts" / "clean").iterdir())
CLEAN_SITE = re.compile(r"^# clean: site: (\S+) -- (.+)$")


@pytest.mark.parametrize("path", CLEAN, ids=lambda p: p.name)
def test_each_clean_twin_of_a_broken_script_lints_clean(path):
    m = CLEAN_SITE.match(path.read_text().splitlines()[1])
    assert m, f"{path.name}: second line must be '# clean: site: SITE -- what'"
    broken = ROOT / "tests" / "scripts" / "broken" / path.name
    assert broken.exists() and _expectation(broken)[1] == m.group(1)
    assert rules_of(path.read_text(), m.group(1)) == []


def test_depth_binding_skips_the_reserved_core_as_pals_does():
    """Aurora's docs: `--depth=8 --cpu-bind=depth` puts rank 0 on HWT 1-8 and rank 6 on
    49-51,53-57. Not a reserved-core problem; a rank split across sockets is."""
    from jobgen.review.lint import Context, rank_cpus

    text = (ROOT / "tests" / "scripts" / "broken" /
            "cpu005_depth_8_splits_rank_6_across_sockets.pbs").read_text()
    ctx = Context(parse_text(text), load_profile("aurora").profile)
    cpus = rank_cpus(ctx)
    assert cpus[0] == list(range(1, 9)) and cpus[6] == [49, 50, 51, 53, 54, 55, 56, 57]
    assert cpus[11] == list(range(90, 98))
    assert rules_of(text, "aurora") == ["CPU005"]


def test_a_new_profile_fact_brings_its_check():
    """Rules read the profile: a discouraged directive, a required variable or a node-local
    path added to a profile is checked without new lint code."""
    import dataclasses

    from jobgen.profiles.model import Directive, EnvVar

    profile = load_profile("polaris").profile
    text = (REFERENCE / "polaris_ddp_2node.pbs").read_text() if REFERENCE.is_dir() else \
        rendered("polaris", app="ffn")
    assert lint(parse_text(text), profile) == []
    sched = dataclasses.replace(profile.scheduler, avoid=[
        Directive(value="-j oe", why="test fact", source="UG x")])
    extra = EnvVar(name="NCCL_TEST_KNOB", value="/tmp/x", why="test fact", source="UG x",
                   required="test set")
    changed = dataclasses.replace(profile, scheduler=sched, env=[*profile.env, extra])
    found = {f.rule for f in lint(parse_text(text + "export NCCL_TEST_KNBO=1\n"), changed)}
    assert found == {"SCHED004", "ENV001", "ENV002"}
    moved = text + "export NCCL_TEST_KNOB=$HOME/x\n"
    assert {f.rule for f in lint(parse_text(moved), changed)} == {"SCHED004", "ENV003"}


@pytest.mark.parametrize("path", sorted(p for p in (ROOT / "examples").rglob("*")
                                        if p.is_file() and p.suffix != ".py"),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
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


def test_a_users_own_library_path_is_not_a_moved_node_local_path():
    """ENV003 holds node-local paths (node_dir, /tmp, the node's local storage) in place; a
    user prepending a library of their own to LD_LIBRARY_PATH moves nothing."""
    text = (REFERENCE / "polaris_ddp_2node.pbs").read_text() if REFERENCE.is_dir() else \
        rendered("polaris", app="ffn")
    mine = text.replace("\nmpiexec ", "\nexport LD_LIBRARY_PATH=$HOME/lib:$LD_LIBRARY_PATH\n"
                        "mpiexec ", 1)
    assert mine != text and rules_of(mine, "polaris") == []


def test_lumi_renders_on_shared_partitions_ask_for_whole_nodes():
    text = rendered("lumi", app="ffn", queue="small-g")
    assert "#SBATCH --exclusive" in text and rules_of(text, "lumi") == []
    assert "#SBATCH --exclusive" not in rendered("lumi", app="ffn", queue="standard-g")


def test_a_tensorflow_script_loading_the_pytorch_stack_is_caught():
    """Aurora: "TensorFlow now has its own module, separate from the frameworks module"
    (UG docs/aurora/data-science/frameworks/tensorflow.md); the profile says which framework
    each module is for, so a script that runs TensorFlow (it sets the TensorFlow recipe's
    HOROVOD_THREAD_AFFINITY) and loads `frameworks` is reported, and only that."""
    text = (ROOT / "examples" / "extras" / "aurora-tensorflow.pbs").read_text()
    assert rules_of(text, "aurora") == []
    wrong = text.replace("module load tensorflow\n", "module load frameworks\n")
    findings = lint(parse_text(wrong), load_profile("aurora").profile)
    assert [f.rule for f in findings] == ["MODULE001"]
    assert "load tensorflow" in findings[0].fix
    pytorch = (ROOT / "examples" / "aurora" / "ffn.pbs").read_text()  # no TensorFlow marker
    assert rules_of(pytorch, "aurora") == []
