"""The bill: what a job is charged at most, in each site's unit, checked against the billing
pages' own worked examples (LUMI billing.md, OLCF's Summit guide), and the warning when the
bill is higher than the work needs."""

from __future__ import annotations

import pytest
from helpers import jobgen_here, plan_for

from jobgen.plan.billing import requested, slice_units

SITES_WITH_RULE = ("aurora", "sunspot", "polaris", "summit", "lumi")
SITES_WITHOUT = ("jlse-mi250", "local", "local-mpich", "local-slurm", "local-gpu")


def _slices(directives: list[str]) -> int:
    res = requested(directives, node_cores=64, node_devices=8)
    return slice_units(res.cores, res.memory_gb, res.devices, 8, 64)


def test_lumi_small_g_examples_of_the_billing_page():
    # LUG docs/runjobs/lumi_env/billing.md: "a job allocating 2 GCDs and running for 24 hours":
    # (2 * 24) * 0.5 = 24 GPU-hours
    two = _slices(["#SBATCH --ntasks-per-node=2", "#SBATCH --gpus-per-node=2",
                   "#SBATCH --cpus-per-task=7", "#SBATCH --mem-per-gpu=60G"])
    assert two * 24 * 0.5 == 24
    # "1 GCD for 24 hours but allocate 128 GB of memory": ceil(128 / 64) * 24 * 0.5 = 24
    one_big = _slices(["#SBATCH --gpus-per-node=1", "#SBATCH --mem=128G"])
    assert one_big * 24 * 0.5 == 24
    # more than 8 cores per GCD bill per slice of 8 cores: 1 GCD with 24 cores = 3 slices
    assert _slices(["#SBATCH --gpus-per-node=1", "#SBATCH --cpus-per-task=24"]) == 3
    # --exclusive takes the whole node: 64 cores and 8 GCDs, whatever was asked
    assert _slices(["#SBATCH --exclusive", "#SBATCH --gpus-per-node=1"]) == 8
    # Slurm's --mem without a unit is megabytes (sbatch(1))
    assert _slices(["#SBATCH --gpus-per-node=1", "#SBATCH --mem=196608"]) == 3


def test_lumi_standard_g_example_through_the_plan():
    # billing.md: "4 nodes in the standard-g partition ... runs for 24 hours ... 4 * 4 * 24 =
    # 384 GPU-hours"
    plan = plan_for("lumi", nodes=4, walltime="24:00:00", queue="standard-g")
    assert plan.bill.unit == "GPU-hours"
    assert plan.bill.amount == 384
    assert "4 nodes x 24 h x 4 GPU-hours per node-hour" in plan.bill.rule
    assert "billing.md" in plan.bill.source
    assert not any(w.startswith("bill:") for w in plan.warnings)


def test_summit_example_of_the_user_guide():
    # summit_user_guide.rst, Node-Hour Calculation: "requests (6) nodes ... runs for (1) hour,
    # uses only (2) CPU cores per node ... 6 nodes * 1 hour = 6 node-hours"
    plan = plan_for("summit", nodes=6, walltime="01:00:00", ranks_per_node=2)
    assert (plan.bill.unit, plan.bill.amount) == ("node-hours", 6)
    assert "Node-Hour Calculation" in plan.bill.source


@pytest.mark.parametrize("site", ["aurora", "polaris"])
def test_alcf_node_hours_and_the_rule_is_marked_unconfirmed(site):
    plan = plan_for(site, nodes=16, walltime="02:00:00")
    assert (plan.bill.unit, plan.bill.amount, plan.bill.per_hour) == ("node-hours", 32, 16)
    assert plan.bill.unconfirmed and "formula" in plan.bill.unconfirmed


def test_small_g_with_one_rank_asks_for_one_gcd_and_is_billed_for_it():
    """small-g allocates by resource: one rank asks for one GCD (issue 30, D6), so the bill
    is the work's, 0.5 GPU-hours an hour, and nothing is wasted to warn about."""
    plan = plan_for("lumi", nodes=1, ranks_per_node=1, queue="small-g", walltime="01:00:00")
    assert not [w for w in plan.warnings if w.startswith("bill:")], plan.warnings
    assert plan.bill.needed_per_hour == 0.5
    assert plan.bill.amount == plan.bill.needed_per_hour == 0.5


def test_partial_node_on_a_whole_node_queue_warns_and_points_at_small_g_on_lumi():
    plan = plan_for("lumi", nodes=2, ranks_per_node=2, queue="standard-g")
    (waste,) = [w for w in plan.warnings if w.startswith("bill:")]
    assert "2 of the 8 GCDs" in waste and "small-g" in waste
    polaris = plan_for("polaris", nodes=1, ranks_per_node=1)
    (waste,) = [w for w in polaris.warnings if w.startswith("bill:")]
    assert "1 of the 4 GPUs" in waste


@pytest.mark.parametrize("site", SITES_WITH_RULE)
def test_a_full_node_job_has_no_bill_warning(site):
    plan = plan_for(site, nodes=2)
    assert plan.bill is not None
    assert not [w for w in plan.warnings if w.startswith("bill:")]


@pytest.mark.parametrize("site", SITES_WITH_RULE)
def test_render_and_explain_state_the_bill(site):
    args = ["--site", site, "--nodes", "2", "-A", "proj", "--", "python3", "train.py"]
    res = jobgen_here("render", *args)
    assert res.returncode == 0, res.stderr
    line = [x for x in res.stderr.splitlines() if x.startswith("jobgen: note: bill: at most")]
    assert len(line) == 1, res.stderr
    exp = jobgen_here("explain", *args)
    assert exp.returncode == 0, exp.stderr
    assert "== bill" in exp.stdout
    assert line[0].removeprefix("jobgen: note: bill: ") in exp.stdout


@pytest.mark.parametrize("site", SITES_WITHOUT)
def test_a_site_without_a_public_rule_says_so(site):
    args = ["--site", site, *([] if site.startswith("local") else ["-A", "proj"]),
            "--", "python3", "train.py"]
    res = jobgen_here("render", *args)
    assert res.returncode == 0, res.stderr
    assert "bill:" not in res.stderr
    exp = jobgen_here("explain", *args)
    assert "states no public rule for what a job is charged" in exp.stdout


def test_explain_json_carries_the_bill():
    import json

    res = jobgen_here("explain", "--site", "lumi", "--nodes", "4", "--walltime", "24:00:00",
                      "-A", "proj", "--format", "json", "--", "python3", "t.py")
    assert res.returncode == 0, res.stderr
    bill = json.loads(res.stdout)["bill"]
    assert (bill["unit"], bill["amount"], bill["per_hour"]) == ("GPU-hours", 384, 16)


def test_sweep_totals_the_bill(tmp_path):
    (tmp_path / "train.py").write_text("print('hi')\n")
    res = jobgen_here("sweep", "--site", "polaris", "-A", "proj", "--nodes", "1,2",
                      "--walltime", "01:00:00", "--repeat", "2", "--out", str(tmp_path / "s"),
                      "--", "python3", str(tmp_path / "train.py"))
    assert res.returncode == 0, res.stderr
    # (1 + 2 nodes) x 1 h x 2 repeats
    assert "bill: at most 6 node-hours for 4 jobs (the largest 2;" in res.stderr


@pytest.mark.parametrize("bad", ["-1", "'four'", "true"])
def test_a_profile_billing_rate_must_be_a_non_negative_number(tmp_path, bad):
    text = (tmp_path / "p.yaml")
    from helpers import ROOT

    src = (ROOT / "site_profiles" / "summit.yaml").read_text()
    text.write_text(src.replace("per_node_hour: 1\n", f"per_node_hour: {bad}\n", 1))
    res = jobgen_here("validate", str(text))
    assert res.returncode == 2, res.stdout + res.stderr
    assert "per_node_hour" in res.stdout + res.stderr
