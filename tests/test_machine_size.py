"""Requests larger than the machine are refused; the documented size thresholds warn; a
whole-machine request, or one beyond every queue, names the route the site documents. The
sizes, thresholds and routes are profile data (`machine:`), each with its source."""

from __future__ import annotations

import pytest
from helpers import plan_for, run_jobgen

from jobgen.errors import JobgenError
from jobgen.profiles.load import load_profile

OWN = {"command": ("python3", "train.py")}


@pytest.mark.parametrize("site,size", [("aurora", 10624), ("polaris", 560), ("summit", 4608),
                                       ("lumi", 2978), ("sunspot", 128)])
def test_one_node_more_than_the_machine_is_refused_naming_its_size_and_source(site, size):
    machine = load_profile(site).profile.machine
    assert machine.nodes == size
    with pytest.raises(JobgenError) as err:
        plan_for(site, nodes=size + 1, **OWN)
    message = str(err.value)
    assert f"has {size} nodes" in message and machine.source in message
    assert f"use --nodes {size} or less" in message


def test_summit_4609_nodes_is_refused_on_the_command_line_not_sent_to_debug():
    result = run_jobgen("render", "--site", "summit", "-A", "p", "--nodes", "4609", "--",
                        "python3", "train.py")
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "summit has 4608 nodes" in lines[0], result.stderr
    assert "summit_user_guide.rst" in lines[0]


def test_summit_whole_machine_renders_in_batch():
    plan = plan_for("summit", nodes=4608, **OWN)
    assert plan.queue == "batch"


@pytest.mark.parametrize("site,quiet,warned,source", [
    ("aurora", 2048, 2049, "docs/aurora/known-issues.md"),
    ("polaris", 476, 477, "docs/polaris/running-jobs/index.md (Note 4)"),
])
def test_the_documented_size_threshold_warns_above_it_only(site, quiet, warned, source):
    def size(w: str) -> bool:  # the machine-size warning, not oneCCL's tested-scale one
        return "--nodes" in w and "oneCCL" not in w

    assert not [w for w in plan_for(site, nodes=quiet, **OWN).warnings if size(w)]
    warnings = [w for w in plan_for(site, nodes=warned, **OWN).warnings if size(w)]
    assert len(warnings) == 1 and source in warnings[0], warnings


def test_aurora_whole_machine_names_the_documented_route():
    warnings = plan_for("aurora", nodes=10624, **OWN).warnings
    route = [w for w in warnings if "whole of aurora" in w]
    assert len(route) == 1 and "pbsnodes" in route[0]
    assert "running-jobs-aurora.md" in route[0]


@pytest.mark.parametrize("site,nodes,route", [
    ("lumi", 2978, "bench: 1-2978 nodes"), ("lumi", 1025, "bench: 1-2978 nodes"),
    ("polaris", 560, "machine-reservations.md"), ("polaris", 497, "reservation"),
])
def test_beyond_every_automatic_queue_the_error_names_the_documented_route(site, nodes, route):
    """Polaris' route is a reservation (no queue); LUMI's is its by-request bench partition."""
    with pytest.raises(JobgenError) as err:
        plan_for(site, nodes=nodes, **OWN)
    assert route in str(err.value)


def test_lumi_whole_machine_in_bench_names_the_full_machine_slot():
    plan = plan_for("lumi", nodes=2978, queue="bench", **OWN)
    route = [w for w in plan.warnings if "whole of lumi" in w]
    assert len(route) == 1 and "hero-runs.md" in route[0]


def test_a_profile_queue_larger_than_its_machine_is_a_profile_error(tmp_path, monkeypatch):
    (tmp_path / "polaris.yaml").write_text(
        "name: polaris\nextends: polaris\nmachine: {nodes: 400}\n")
    monkeypatch.setenv("JOBGEN_PROFILE_PATH", str(tmp_path))
    result = run_jobgen("validate", str(tmp_path / "polaris.yaml"))
    assert result.returncode != 0
    assert "max_nodes 496 is above machine.nodes 400" in result.stdout + result.stderr
