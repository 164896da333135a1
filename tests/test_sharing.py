"""Several processes per device (issue 10): one data-parallel job with N ranks per device
(--ranks-per-device) and N independent trainings per device (--instances-per-device), on every
site that offers sharing; NCCL/RCCL never asked to share a GPU; placement next to the device;
a real run of instances on the local site."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from helpers import ROOT, env_of, plan_for, run_jobgen

from jobgen.errors import JobgenError
from jobgen.plan.apps import app_names
from jobgen.plan.build import Plan
from jobgen.profiles.cpus import parse_cpu_list
from jobgen.profiles.load import load_profile
from jobgen.text.render import render

GPU_SITES = ["aurora", "sunspot", "polaris", "summit", "lumi", "jlse-mi250"]
NCCL_SITES = [s for s in GPU_SITES if load_profile(s).profile.node.gpus.vendor != "intel"]
MODES = ["ranks", "instances"]


def sharing_plan(site: str, mode: str, n: int, **kw) -> Plan:
    kw.setdefault("app", "qcnn")
    return plan_for(site, nodes=2, **{f"{mode}_per_device": n}, **kw)


def launch_command(text: str) -> str:
    """The program the launcher starts: the line after the one that ends with the wrapper."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.endswith('"$JOBGEN_WRAPPER" \\'))
    return lines[at + 1]


# ---------------------------------------------------------------- every site x mode x N
@pytest.mark.parametrize("n", [2, 4])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("site", GPU_SITES)
def test_every_site_shares_each_device_among_n_processes(site, mode, n):
    profile = load_profile(site).profile
    ndev = profile.devices_per_node
    plan = sharing_plan(site, mode, n)
    assert plan.ranks_per_node == ndev * n
    devices = [s.device for s in plan.slots]
    assert sorted(set(devices)) == list(range(ndev)), "every device in use"
    assert all(devices.count(d) == n for d in set(devices)), f"{n} processes on each device"
    assert all(devices[r] == devices[r - r % n] for r in range(len(devices))), \
        "the processes of a device are consecutive local ranks"
    if mode == "instances":
        assert plan.instances == 2 * ndev * n and plan.world_size == 1
    else:
        assert plan.instances == 0 and plan.world_size == 2 * ndev * n
    assert env_of(plan)["JOBGEN_RANKS_PER_DEVICE"] == str(n)


@pytest.mark.parametrize("n", [2, 4])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("site", GPU_SITES)
def test_every_process_is_bound_next_to_its_device(site, mode, n):
    """Cores inside the device's own domain (its socket / NUMA / L3 region), disjoint."""
    profile = load_profile(site).profile
    plan = sharing_plan(site, mode, n)
    table = {d.index: d for d in profile.node.gpus.devices}
    cps = profile.node.cores_per_socket
    bound = [c for s in plan.slots for c in s.cores]
    assert len(bound) == len(set(bound)), "no core given to two processes"
    if profile.cpu_binding.style == "none":
        assert not bound  # JLSE: no documented binding, nothing is bound
        return
    for s in plan.slots:
        near = parse_cpu_list(table[s.device].cores)
        assert s.cores and set(s.cores) <= set(near), (s.local_rank, s.cores, s.device)
        assert {c // cps for c in s.cores} == {near[0] // cps}, "on the device's socket"


@pytest.mark.parametrize("n", [2, 4])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("site", GPU_SITES)
def test_sharing_steps_and_backend_in_the_plan_and_the_script(site, mode, n):
    profile = load_profile(site).profile
    plan = sharing_plan(site, mode, n)
    text = render(plan)
    command = launch_command(text)
    vendor = profile.node.gpus.vendor
    if mode == "instances":
        assert plan.backend is None and "--dist-backend" not in command
        assert "export WORLD_SIZE=1" in text and "JOBGEN_INSTANCE=" in text
        assert f"-m workloads.summarize --expect {plan.instances}" in text
    elif vendor == "intel":
        assert plan.backend == "xccl" and "--dist-backend xccl" in command
    else:
        assert plan.backend == "gloo" and "--dist-backend gloo" in command
    method = profile.device_sharing.method
    assert plan.sharing == method
    if method == "mps":
        start = text.index("nvidia-cuda-mps-control -d")
        assert start < text.index('"$JOBGEN_WRAPPER" \\'), "MPS starts before the launch"
        assert "echo quit | nvidia-cuda-mps-control" in text.split("trap jobgen_cleanup")[0]
    elif method == "ccs":
        ccs = ",".join(f"{i}:{n}" for i in range(profile.devices_per_node))
        assert f"export ZEX_NUMBER_OF_CCS={ccs}" in text
        # every tile visible: the program selects LOCAL_RANK // n (ALCF pytorch.md, CCS)
        assert plan.mask_variable is None and f"LOCAL_RANK // {n}" in plan.device_selection.text
    elif method == "alloc_flag":
        assert '#BSUB -alloc_flags "smt4 gpumps"' in text
        assert f"--rs_per_host 6 --tasks_per_rs {n} --gpu_per_rs 1 --cpu_per_rs 7" in text
        assert "jsrun gives each resource set one GPU" in plan.device_selection.text
    else:
        assert method == "concurrent" and any("per-device" in w for w in plan.warnings)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("site", GPU_SITES)
def test_sharing_scripts_pass_bash_and_shellcheck(site, mode, tmp_path):
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed")
    script = tmp_path / "job.sh"
    script.write_text(render(sharing_plan(site, mode, 2)))
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0
    res = subprocess.run(["shellcheck", str(script)], capture_output=True, text=True)
    assert res.returncode == 0, res.stdout


# ---------------------------------------------------------------- NCCL/RCCL never share a GPU
@pytest.mark.parametrize("n", [2, 4])
@pytest.mark.parametrize("site", NCCL_SITES)
def test_nccl_and_rccl_are_never_asked_to_share_a_gpu(site, n):
    """Every bundled app with N ranks per GPU runs over gloo; a user's program is refused
    unless it says it uses gloo; asking for nccl is refused."""
    for app in app_names():
        plan = sharing_plan(site, "ranks", n, app=app)
        command = launch_command(render(plan))
        assert plan.backend == "gloo", app
        assert "--dist-backend gloo" in command and "nccl" not in command, (app, command)
    with pytest.raises(JobgenError, match="--instances-per-device .*--dist-backend gloo"):
        sharing_plan(site, "ranks", n, app=None, command=("python3", "train.py"))
    with pytest.raises(JobgenError, match="Duplicate GPU detected"):
        sharing_plan(site, "ranks", n, dist_backend="nccl")
    own = sharing_plan(site, "ranks", n, app=None, command=("python3", "train.py"),
                       dist_backend="gloo")
    assert own.backend == "gloo" and env_of(own)["JOBGEN_DIST_BACKEND"] == "gloo"


def test_horovod_with_ranks_sharing_a_gpu_is_refused():
    with pytest.raises(JobgenError, match="Horovod's NCCL allreduce"):
        plan_for("polaris", ranks_per_device=2, framework="tensorflow", app=None,
                 command=("python3", "train_tf.py"))


def test_one_rank_per_gpu_keeps_nccl():
    plan = plan_for("polaris", app="ffn")
    assert plan.backend == "nccl" and "--dist-backend" not in plan.command_line


def test_cli_refusal_is_one_line_naming_the_alternatives():
    res = run_jobgen("render", "--site", "lumi", "-A", "p", "--ranks-per-device", "2",
                     "--", "python", "train.py")
    assert res.returncode == 2 and res.stdout == ""
    assert len(res.stderr.strip().splitlines()) == 1
    assert "RCCL" in res.stderr and "--instances-per-device 2" in res.stderr


@pytest.mark.parametrize("bad, message", [
    (dict(ranks_per_device=2, instances_per_device=2), "not both"),
    (dict(instances_per_device=3), "--instances-per-device 3 is not supported on polaris"),
    (dict(instances_per_device=2, dist_backend="gloo"), "every instance trains alone"),
    (dict(dist_backend="xccl"), "does not drive cuda devices"),
])
def test_sharing_requests_that_cannot_work_are_refused(bad, message):
    with pytest.raises(JobgenError, match=message):
        plan_for("polaris", **bad)


def test_explain_says_why_the_backend_and_the_sharing():
    res = run_jobgen("explain", "--site", "polaris", "--app", "qcnn", "--ranks-per-device", "2")
    assert res.returncode == 0, res.stderr
    assert "collectives gloo" in res.stdout
    assert "gloo: 2 ranks share each GPU and NCCL refuses" in res.stdout
    assert "mps: 2 ranks per device" in res.stdout
    res = run_jobgen("explain", "--site", "polaris", "--app", "qcnn",
                     "--instances-per-device", "4", "--format", "json")
    report = json.loads(res.stdout)
    assert report["summary"]["instances"] == 16 and report["summary"]["dist_backend"] is None
    assert any("workloads.summarize --expect 16" in s["text"] for s in report["steps"])


def test_regenerate_line_keeps_the_sharing_options():
    plan = sharing_plan("polaris", "instances", 2)
    assert "--instances-per-device=2" in plan.regenerate


# ---------------------------------------------------------------- CPU site: instances per node
def test_local_instances_are_per_node():
    plan = plan_for("local", app="qcnn", instances_per_device=3)
    assert plan.ranks_per_node == 3 and plan.instances == 3 and plan.world_size == 1
    with pytest.raises(JobgenError, match="drop --ranks-per-node"):
        plan_for("local", app="qcnn", instances_per_device=2, ranks_per_node=2)


@pytest.mark.slow
def test_local_two_instances_really_train_and_the_job_prints_their_total(tmp_path):
    """`--instances-per-device 2` on the local site: two trainings, one result line each
    (own instance id and seed), then the job's total throughput."""
    pytest.importorskip("torch")
    res = run_jobgen("render", "--site", "local", "--app", "qcnn", "--instances-per-device",
                     "2", "--app-args", "--tiny --steps 12 --warmup 2")
    assert res.returncode == 0, res.stderr
    env = dict(os.environ, PYTHONPATH=str(ROOT))  # this checkout's workloads
    run = subprocess.run(["bash"], input=res.stdout, capture_output=True, text=True,
                         cwd=tmp_path, env=env, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    lines = [json.loads(x) for x in run.stdout.splitlines() if x.startswith("{")]
    results = sorted((x for x in lines if "summary" not in x), key=lambda x: x["instance"])
    summaries = [x for x in lines if "summary" in x]
    assert [r["instance"] for r in results] == [0, 1]
    assert [r["seed"] for r in results] == [0, 1], "each instance its own seed"
    assert all(r["world_size"] == 1 and r["instances"] == 2 for r in results)
    assert results[0]["param_sha256"] != results[1]["param_sha256"], "independent trainings"
    assert len(summaries) == 1 and lines[-1] is summaries[0], "the total comes last"
    total = summaries[0]
    assert total["instances"] == 2 and total["instance_ids"] == [0, 1]
    assert total["samples_per_sec"] == pytest.approx(sum(r["samples_per_sec"] for r in results))


def test_summary_fails_when_an_instance_wrote_no_result(tmp_path):
    (tmp_path / "instance-0.json").write_text(json.dumps(
        {"app": "qcnn", "instance": 0, "samples_per_sec": 10.0, "elapsed_s": 1.0}) + "\n")
    cmd = [sys.executable, "-m", "workloads.summarize", "--expect", "2", str(tmp_path)]
    res = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 1 and "1 of 2 instances wrote no result" in res.stderr
    summary = json.loads(res.stdout)
    assert summary["samples_per_sec"] == 10.0 and summary["instances"] == 1
