"""`jobgen lint`: generated scripts lint clean, each classic mistake is caught by its rule."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import ROOT, run_jobgen, with_site_python

from jobgen.apps import app_names
from jobgen.lint import lint, rule_table
from jobgen.plan import Request, build_plan
from jobgen.profiles import load_profile, site_names
from jobgen.render import render
from jobgen.scriptparse import parse_file, parse_text

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


@pytest.mark.skipif(not REFERENCE.is_dir(), reason="shared reference scripts not here")
@pytest.mark.parametrize("name,site", [
    ("aurora_ddp_2node.pbs", "aurora"), ("sunspot_ddp_2node.pbs", "sunspot"),
    ("polaris_ddp_2node.pbs", "polaris"), ("summit_ddp_2node.lsf", "summit"),
    ("lumi_g_ddp_2node.slurm", "lumi"), ("jlse_mi250_ddp_2node.cobalt", "jlse-mi250"),
])
def test_hand_written_reference_scripts_lint_clean(name, site):
    assert rules_of((REFERENCE / name).read_text(), site) == []


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
