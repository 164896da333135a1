"""Site emulation: the rendered Polaris, Aurora, Sunspot, JLSE, Summit and LUMI scripts run
unchanged here, against stand-ins for what each site has (tests/emulation/bin: launchers that
start local processes with the site launcher's rank variables and record the CPU binding they
were asked for, `module`, `conda`, `scontrol`, containers, Copper and MPS stubs). Every rank of
tests/emulation/report_rank.py reports its environment; the tests check it against the plan.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import sys
import tarfile
import time
from pathlib import Path

import pytest
from emulation.harness import (
    JOBID,
    MASK_VARIABLES,
    REPORT_COMMAND,
    EmuRun,
    Site,
    finish,
    install_bin,
    run_script,
    run_wrapper,
    start_script,
)
from helpers import ROOT, SITE_PYTHON, needs_tf

from jobgen.errors import JobgenError
from jobgen.plan.build import Plan, Request, build_plan
from jobgen.profiles.load import load_profile
from jobgen.shell import join
from jobgen.text.render import render

SITES = {
    "aurora": Site(
        "aurora", "pbs",
        ("x4000c0s0b0n0.hostmgmt2000.cm.aurora.alcf.anl.gov",
         "x4000c0s1b0n0.hostmgmt2000.cm.aurora.alcf.anl.gov"),
        "x4000c0s0b0n0.hsn.cm.aurora.alcf.anl.gov"),
    "sunspot": Site(
        "sunspot", "pbs",
        ("x1921c0s2b0n0.hostmgmt2000.cm.sunspot.alcf.anl.gov",
         "x1921c0s3b0n0.hostmgmt2000.cm.sunspot.alcf.anl.gov"),
        "x1921c0s2b0n0.hsn.cm.sunspot.alcf.anl.gov"),
    "polaris": Site(
        "polaris", "pbs",
        ("x3006c0s13b0n0.hsn.cm.polaris.alcf.anl.gov",
         "x3006c0s19b1n0.hsn.cm.polaris.alcf.anl.gov"),
        "x3006c0s13b0n0.hsn.cm.polaris.alcf.anl.gov"),
    "jlse-mi250": Site("jlse-mi250", "cobalt", ("amdgpu01", "amdgpu04"), "amdgpu01"),
    "summit": Site("summit", "lsf", ("a01n01", "a01n02"), "a01n01"),
    "lumi": Site("lumi", "slurm", ("nid005000", "nid005001"), "nid005000",
                 nodelist="nid[005000-005001]"),
}
# one bundled app per site, its command swapped for the reporter
# one site per launcher (PALS mpiexec, srun, jsrun, mpirun) where the launcher is what is tested
LAUNCHER_SITES = ["jlse-mi250", "lumi", "polaris", "summit"]
APPS = {"aurora": "cosmictagger", "sunspot": "gpt", "polaris": "resnet50",
        "jlse-mi250": "pointnet", "summit": "unet3d", "lumi": "ffn"}


@pytest.fixture(scope="module")
def emu_bin(tmp_path_factory):
    return install_bin(tmp_path_factory.mktemp("emu-bin"))


def plan_for(site: str, **kw) -> Plan:
    if "app" not in kw:
        kw.setdefault("command", REPORT_COMMAND)
    if kw.get("app") and not kw.get("container") and site in SITE_PYTHON:
        # the user's own Python there: here the stand-in python3 on PATH (the script's
        # preflight checks that it exists and imports the app)
        kw = {"python": "python3", **kw}
    return build_plan(load_profile(site), Request(site=site, nodes=2, account="MYPROJECT", **kw))


def app_script(plan: Plan) -> str:
    """The bundled app's script with only the app's own command swapped for the reporter:
    the wrapper, launcher, container prefix, modules and environment stay as rendered."""
    words = list(plan.command)
    python = words.index("-m") - 1
    text = render(plan)
    old = join(plan.command)
    assert text.count(old) == 1, "the app command appears once, after the launcher"
    text = text.replace(old, join([*words[:python], *REPORT_COMMAND]))
    if plan.summary:  # the instances' summary: this interpreter for the site's Python
        words = list(plan.summary)
        python = words.index("-m") - 1
        text = text.replace(join(plan.summary),
                            join([*words[:python], sys.executable, *words[python + 1:]]))
    return text


def master_port(plan: Plan, jobid: str) -> int:
    """The port the script derives from its job id (PBS: the number before the server)."""
    port = plan.port
    if port.fixed:
        return port.base
    digits = re.sub(r"\D", "", jobid.split(".")[0])
    return port.base + int(digits or 0) % port.slots * port.width


def cpus_of(env: dict[str, str]) -> list[int]:
    return [int(c) for c in env["JOBGEN_EMU_CPUS"].split(",") if c]


def check_ranks(plan: Plan, run: EmuRun, site: Site) -> None:
    """Every rank of the plan ran once, where the plan puts it, with what the plan gives it."""
    assert run.proc.returncode == 0, run.explain()
    assert sorted(run.reports) == list(range(plan.world_size)), run.explain()
    launches = [e for e in run.events if e.get("event") == "launch"
                and any(a.endswith("rank-wrapper.sh") for a in e["argv"])]
    assert len(launches) == 1 and launches[0]["ntasks"] == plan.world_size
    names = plan.rank_env
    for rank, report in sorted(run.reports.items()):
        env = report["env"]
        node, local = divmod(rank, plan.ranks_per_node)
        slot = plan.slots[local]
        where = f"rank {rank} (node {node}, local rank {local})"
        assert env["JOBGEN_EMU_NODE"] == site.hosts[node], where
        assert env.get(names.rank) == str(rank), where
        assert env.get(names.local_rank) == str(local), where
        assert env.get("RANK") == str(rank), where
        assert env.get("LOCAL_RANK") == str(local), where
        assert env.get("WORLD_SIZE") == str(plan.world_size), where
        assert env.get("LOCAL_WORLD_SIZE") == str(plan.ranks_per_node), where
        assert env.get("MASTER_ADDR") == site.master, where
        assert env.get("MASTER_PORT") == str(master_port(plan, run.jobid)), where
        if plan.mask_variable:
            assert env.get(plan.mask_variable) == slot.mask, where
        for var in MASK_VARIABLES:
            if var == plan.mask_variable:
                continue
            if var == "CUDA_VISIBLE_DEVICES" and env.get("JOBGEN_EMU_GPUS"):
                # jsrun itself narrows CUDA_VISIBLE_DEVICES to the resource set's GPUs
                assert env.get(var) == env["JOBGEN_EMU_GPUS"], where
            else:
                assert var not in env, f"{where}: {var}={env[var]} set besides the plan's mask"
        check_device(plan, slot, env, where)
        # jsrun binds to core indices (packed:K), the others to logical CPU ids
        expected = slot.cores if env["JOBGEN_EMU_LAUNCHER"] == "jsrun" else slot.cpus
        assert cpus_of(env) == list(expected), where
        assert env["JOBGEN_EMU_BOUND"] == ("1" if expected else "0"), where
    # MASTER_ADDR names rank 0's node (on the high-speed network where the site has one)
    rank0 = run.reports[0]["env"]["JOBGEN_EMU_NODE"]
    assert site.master.split(".")[0] == rank0.split(".")[0]


def check_device(plan: Plan, slot, env: dict[str, str], where: str) -> None:
    """The device the bundled apps select (workloads' own rule, from what this rank sees)
    is the plan's: device 0 of a narrowed mask, or the planned index where all are visible;
    and the rank sees the device hierarchy the plan exports."""
    from workloads.runtime.device import device_index

    if slot.device is None:
        return
    mask = env.get(plan.mask_variable or "") or env.get("JOBGEN_EMU_GPUS")
    visible = len(mask.split(",")) if mask else plan.devices_per_node
    gpus = env.get("JOBGEN_EMU_GPUS")  # jsrun narrows visibility to the resource set's GPUs
    if plan.mask_variable:
        expected = 0
    elif gpus:
        expected = gpus.split(",").index(str(slot.device))
    else:
        expected = slot.device
    assert device_index(slot.local_rank, visible, env) == expected, where
    exported = {e.name: e.value for e in plan.env}
    if "ZE_FLAT_DEVICE_HIERARCHY" in exported:
        assert env.get("ZE_FLAT_DEVICE_HIERARCHY") == exported["ZE_FLAT_DEVICE_HIERARCHY"], where


def check_software(plan: Plan, run: EmuRun) -> None:
    """Module and conda commands ran once each, in the plan's order, before any rank."""
    modules = [shlex.split(f.text)[1:] for f in plan.modules if f.text.startswith("module ")]
    conda = [shlex.split(f.text)[1:] for f in plan.python_setup if f.text.startswith("conda ")]
    assert [e["argv"] for e in run.calls("module")] == modules
    assert [e["argv"] for e in run.calls("conda")] == conda
    first_rank = min(run.rank_times())
    assert all(e["t"] < first_rank for e in run.calls("module") + run.calls("conda"))


def check_cleanup(run: EmuRun) -> None:
    assert not run.jobgen_dir.exists(), f"{run.jobgen_dir} left behind"
    assert (run.workdir / ".jobgen").is_dir(), "the job directory was made under the workdir"


# ---------------------------------------------------------------- every site, own program
@pytest.mark.parametrize("site", sorted(SITES))
def test_own_program_ranks_match_the_plan(site, tmp_path, emu_bin):
    plan = plan_for(site)
    run = run_script(render(plan), SITES[site], tmp_path, emu_bin)
    check_ranks(plan, run, SITES[site])
    check_software(plan, run)
    check_cleanup(run)
    for report in run.reports.values():
        assert report["argv"] == [] and report["cwd"] == str(run.workdir)
    # the placement check ran on every rank and found each where the plan puts it
    world = plan.world_size
    assert f"placement check (stop): {world} of {world} ranks reported, all as planned" in \
        run.proc.stderr, run.explain()
    assert len([x for x in run.proc.stderr.splitlines() if " as planned: CPUs " in x]) == \
        plan.nodes


@pytest.mark.slow
@pytest.mark.parametrize("site", sorted(SITES))
def test_bundled_app_wrapper_and_launcher_match_the_plan(site, tmp_path, emu_bin):
    plan = plan_for(site, app=APPS[site])
    run = run_script(app_script(plan), SITES[site], tmp_path, emu_bin)
    check_ranks(plan, run, SITES[site])
    check_software(plan, run)
    check_cleanup(run)
    # the wrapper passed its check and hands the app its row of the plan to check again
    for rank, report in run.reports.items():
        env, row = report["env"], plan.place_rows[rank % plan.ranks_per_node]
        assert env["JOBGEN_PLACEMENT_CHECK"] == "stop"
        assert env["JOBGEN_PLACEMENT_CPUS"] == row.cpus and env["JOBGEN_PLACEMENT_MASK"] == \
            row.mask
        assert env["JOBGEN_PLACEMENT_HOST"] == env["JOBGEN_EMU_NODE"]


VARIANTS = [
    *[pytest.param(site, {"ranks_per_node": n}, id=f"{site}-{n}-per-node")
      for site in sorted(SITES) if site != "sunspot" for n in (1, 3)],
    pytest.param("aurora", {"framework": "tensorflow"}, id="aurora-tensorflow"),
    pytest.param("aurora", {"framework_module": "frameworks/2024.2.1_u1"}, id="aurora-fw-2024"),
    pytest.param("aurora", {"ranks_per_node": 8}, id="aurora-8-per-node"),
]


@pytest.mark.parametrize("site, kw", VARIANTS)
def test_variants_match_the_plan(site, kw, tmp_path, emu_bin):
    """Fewer ranks than devices (computed bindings), other framework stacks, device sharing."""
    plan = plan_for(site, **kw)
    run = run_script(render(plan), SITES[site], tmp_path, emu_bin)
    check_ranks(plan, run, SITES[site])
    check_software(plan, run)
    check_cleanup(run)


TF_SITES = {
    "aurora": ("cosmictagger", [["load", "tensorflow"], ["load", "mpich/opt/develop-git.6037a7a"]]),
    "polaris": ("cosmictagger", [["use", "/soft/modulefiles"], ["load", "conda"]]),
    "summit": ("ffn", [["load", "open-ce/1.10.0-py311-ibm"]]),
}


@pytest.mark.slow
@needs_tf
@pytest.mark.parametrize("site", sorted(TF_SITES))
def test_tensorflow_apps_run_with_the_sites_tensorflow_setup(site, tmp_path, emu_bin):
    """--framework tensorflow: the TensorFlow modules, the app's own --framework flag, the
    binding the plan gives TensorFlow, Horovod's thread on a core of its own rank and, on
    Aurora, oneCCL's workers on cores no rank is bound to."""
    from workloads.runtime.ranks import device_index

    app, modules = TF_SITES[site]
    plan = plan_for(site, app=app, framework="tensorflow")
    words = list(plan.command)
    assert words[words.index("-m"):][:4] == ["-m", f"workloads.{app}", "--framework",
                                             "tensorflow"]
    run = run_script(app_script(plan), SITES[site], tmp_path, emu_bin)
    check_ranks(plan, run, SITES[site])
    check_software(plan, run)
    assert [e["argv"] for e in run.calls("module")] == modules
    check_cleanup(run)
    bound = {c for s in plan.slots for c in s.cpus}
    for rank, report in sorted(run.reports.items()):
        env = report["env"]
        local = rank % plan.ranks_per_node
        slot = plan.slots[local]
        horovod = [int(c) for c in env["HOROVOD_THREAD_AFFINITY"].split(",")]
        assert len(horovod) == plan.ranks_per_node and horovod[local] in slot.cpus
        if "CCL_WORKER_AFFINITY" in env:
            ccl = {int(c) for c in env["CCL_WORKER_AFFINITY"].split(",")}
            assert len(ccl) == plan.ranks_per_node and not ccl & bound
        # the device the TensorFlow app picks among those the rank sees
        visible = 1 if plan.mask_variable else plan.devices_per_node
        expected = 0 if plan.mask_variable else slot.device
        assert device_index(local, visible, env) == expected, f"rank {rank}"
    if site == "aurora":
        assert {r["env"].get("MPIR_CVAR_ENABLE_GPU") for r in run.reports.values()} == {"0"}


def test_lumi_refuses_the_tensorflow_apps_in_its_pytorch_image():
    with pytest.raises(JobgenError, match=r"^--framework tensorflow --app ffn on lumi: jobgen "
                       r"runs programs in LUMI's AI Factory PyTorch image, which has no "
                       r"TensorFlow"):
        plan_for("lumi", app="ffn", framework="tensorflow")
    with pytest.raises(JobgenError, match=r"^--framework tensorflow on lumi: your program "
                       r"would run without tensorflow"):  # issue 21: not without a word
        plan_for("lumi", framework="tensorflow")
    own = plan_for("lumi", framework="tensorflow", container="/p/tf.sif")  # your own image
    assert own.framework == "tensorflow"
    image = plan_for("lumi", app="ffn", framework="tensorflow", container="/p/tf.sif")
    assert "/p/tf.sif" in image.command


# ---------------------------------------------------------------- failures
@pytest.mark.parametrize("site", LAUNCHER_SITES)
def test_a_rank_outside_the_plan_fails_the_job(site, tmp_path, emu_bin):
    """The launcher stand-in starts one rank too many: the wrapper's `*)` branch stops it."""
    plan = plan_for(site)
    run = run_script(render(plan), SITES[site], tmp_path, emu_bin,
                     env={"JOBGEN_EMU_EXTRA_RANK": "1"})
    assert run.proc.returncode == 1, run.explain()
    assert (f"local rank {plan.ranks_per_node} is outside the {plan.ranks_per_node} ranks per "
            "node of this plan") in run.proc.stderr
    assert sorted(run.reports) == list(range(plan.world_size)), "the planned ranks still ran"
    check_cleanup(run)


@pytest.mark.parametrize("site", LAUNCHER_SITES)
def test_a_failing_rank_fails_the_job_and_cleans_up(site, tmp_path, emu_bin):
    plan = plan_for(site)
    run = run_script(render(plan), SITES[site], tmp_path, emu_bin,
                     env={"JOBGEN_EMU_FAIL_RANK": str(plan.world_size - 1)})
    assert run.proc.returncode == 7, run.explain()
    check_cleanup(run)


@pytest.mark.parametrize("site", sorted(SITES))
def test_the_wrapper_alone_refuses_bad_local_ranks(site, tmp_path, emu_bin):
    plan = plan_for(site)
    text = render(plan)
    names = plan.rank_env
    # bound as the site's launcher binds local rank 0 (the taskset stand-in answers the
    # placement check with it; jsrun binds whole cores)
    slot = plan.slots[0]
    bound = {"PATH": f"{emu_bin}:{os.environ.get('PATH', '/usr/bin:/bin')}",
             "JOBGEN_EMU_BOUND": "1" if slot.cpus else "0",
             "JOBGEN_EMU_CPUS": ",".join(map(str, slot.cpus)),
             "JOBGEN_EMU_AFFINITY": ",".join(str(c * 4 + k) for c in slot.cores for k in range(4))
             if site == "summit" else ""}
    ok = run_wrapper(text, tmp_path, {names.local_rank: "0", names.rank: "0", **bound},
                     ("sh", "-c", 'echo "$RANK $LOCAL_RANK $WORLD_SIZE"'))
    assert ok.returncode == 0 and ok.stdout.split() == ["0", "0", str(plan.world_size)]
    outside = run_wrapper(text, tmp_path, {names.local_rank: str(plan.ranks_per_node),
                                           names.rank: "0"})
    assert outside.returncode == 1 and "is outside the" in outside.stderr
    unset = run_wrapper(text, tmp_path, {names.rank: "0"})
    assert unset.returncode != 0 and f"{names.local_rank} is not set" in unset.stderr
    no_rank = run_wrapper(text, tmp_path, {names.local_rank: "0"})
    assert no_rank.returncode != 0 and f"{names.rank} is not set" in no_rank.stderr


# ---------------------------------------------------------------- extras that change placement
def test_aurora_ccs_two_ranks_per_tile(tmp_path, emu_bin):
    """CCS as pytorch.md's CCS example does it: every tile visible, no mask, the program picks
    local_rank // ppd (the bundled apps read JOBGEN_RANKS_PER_DEVICE)."""
    from workloads.runtime.device import device_index

    plan = plan_for("aurora", ranks_per_device=2)
    assert plan.ranks_per_node == 24
    run = run_script(render(plan), SITES["aurora"], tmp_path, emu_bin)
    check_ranks(plan, run, SITES["aurora"])
    envs = [run.reports[r]["env"] for r in range(24)]
    assert not any("ZE_AFFINITY_MASK" in env for env in envs)
    assert [device_index(r, 12, envs[r]) for r in range(24)] == [r // 2 for r in range(24)]
    ccs = ",".join(f"{i}:2" for i in range(12))
    assert {env["ZEX_NUMBER_OF_CCS"] for env in envs} == {ccs}
    per_node = [c for r in range(24) for c in cpus_of(envs[r])]
    assert len(per_node) == len(set(per_node)) and not {0, 52} & set(per_node)
    check_cleanup(run)


@pytest.mark.parametrize("site", ["aurora", "sunspot"])
def test_aurora_six_ranks_drive_whole_gpus_next_to_their_cores(site, tmp_path, emu_bin):
    """gpu_dev_compact.sh's layout: rank r drives GPU r (both tiles, COMPOSITE hierarchy) on
    the cores of running-jobs-aurora.md's 6-rank list, 3 ranks per socket."""
    from workloads.runtime.device import device_index

    plan = plan_for(site, ranks_per_node=6)
    run = run_script(render(plan), SITES[site], tmp_path, emu_bin)
    check_ranks(plan, run, SITES[site])
    for rank, report in run.reports.items():
        env, local = report["env"], rank % 6
        assert env["ZE_FLAT_DEVICE_HIERARCHY"] == "COMPOSITE" and "ZE_AFFINITY_MASK" not in env
        assert device_index(local, 6, env) == local
        cpus = cpus_of(env)
        assert (max(cpus) < 52) == (local < 3), "GPUs 0-2 on socket 0, 3-5 on socket 1"
    assert [s.cores[0] for s in plan.slots] == [1, 17, 33, 53, 69, 85]
    check_cleanup(run)


def test_polaris_mps_daemons_start_before_and_stop_after_the_ranks(tmp_path, emu_bin):
    plan = plan_for("polaris", ranks_per_device=2, dist_backend="gloo")
    run = run_script(render(plan), SITES["polaris"], tmp_path, emu_bin)
    check_ranks(plan, run, SITES["polaris"])
    mps = run.calls("nvidia-cuda-mps-control")
    daemons = [e for e in mps if e["event"] == "daemon"]
    starts = [e for e in mps if e.get("command", "").startswith("start_server")]
    quits = [e for e in mps if e.get("command") == "quit"]
    hosts = sorted(SITES["polaris"].hosts)
    for group in (daemons, starts, quits):
        assert sorted(e["node"] for e in group) == hosts, "once on every node"
        for e in group:
            assert e["env"]["CUDA_MPS_PIPE_DIRECTORY"] == "/tmp/nvidia-mps"
            assert e["env"]["CUDA_MPS_LOG_DIRECTORY"] == "/tmp/nvidia-log"
    assert all(e["env"]["CUDA_VISIBLE_DEVICES"] == "0,1,2,3" for e in daemons)
    assert all(e["command"] == f"start_server -uid {os.getuid()}" for e in starts)
    ranks = run.rank_times()
    assert max(e["t"] for e in daemons + starts) < min(ranks)
    assert min(e["t"] for e in quits) > max(ranks)
    for report in run.reports.values():
        assert report["env"]["CUDA_MPS_PIPE_DIRECTORY"] == "/tmp/nvidia-mps"
        assert report["env"]["JOBGEN_DIST_BACKEND"] == "gloo"  # the program's promise
        assert report["env"]["JOBGEN_RANKS_PER_DEVICE"] == "2"
    check_cleanup(run)


def test_summit_gpumps_two_ranks_per_gpu(tmp_path, emu_bin):
    """One jsrun resource set per GPU: jsrun shows each pair of ranks its GPU and binds them
    to that GPU's cores (rank 6: GPU 3, cores 22-24 on socket 1)."""
    plan = plan_for("summit", ranks_per_device=2, dist_backend="gloo")
    run = run_script(render(plan), SITES["summit"], tmp_path, emu_bin)
    check_ranks(plan, run, SITES["summit"])
    masks = [run.reports[r]["env"]["CUDA_VISIBLE_DEVICES"] for r in range(12)]
    assert masks == [str(r // 2) for r in range(12)]
    assert cpus_of(run.reports[6]["env"]) == [22, 23, 24]
    check_cleanup(run)


INSTANCE_SITES = ["aurora", "polaris", "summit", "lumi", "jlse-mi250"]


@pytest.mark.slow
@pytest.mark.parametrize("site", INSTANCE_SITES)
def test_instances_train_alone_on_their_device_and_the_job_sums_them(site, tmp_path, emu_bin):
    """--instances-per-device 2: every process is its own training (world size 1) with its
    instance id, rendezvous port, device and cores, and the job prints the total."""
    plan = plan_for(site, app=APPS[site], instances_per_device=2)
    total = plan.instances
    run = run_script(app_script(plan), SITES[site], tmp_path, emu_bin,
                     env={"PYTHONPATH": str(ROOT)})
    assert run.proc.returncode == 0, run.explain()
    assert sorted(run.reports) == list(range(total)), run.explain()
    for rank, report in sorted(run.reports.items()):
        env = report["env"]
        node, local = divmod(rank, plan.ranks_per_node)
        slot = plan.slots[local]
        where = f"instance {rank} (node {node}, local rank {local})"
        assert env["JOBGEN_EMU_NODE"] == SITES[site].hosts[node], where
        assert (env["RANK"], env["WORLD_SIZE"], env["LOCAL_WORLD_SIZE"]) == ("0", "1", "1")
        assert env["LOCAL_RANK"] == str(local), where
        assert env["JOBGEN_INSTANCE"] == str(rank) and env["JOBGEN_INSTANCES"] == str(total)
        assert env["MASTER_ADDR"] == "127.0.0.1", where
        assert env["MASTER_PORT"] == str(master_port(plan, run.jobid) + local), where
        assert env["JOBGEN_RANKS_PER_DEVICE"] == "2", where
        if plan.mask_variable:
            assert env[plan.mask_variable] == slot.mask, where
        expected = slot.cores if env["JOBGEN_EMU_LAUNCHER"] == "jsrun" else slot.cpus
        assert cpus_of(env) == list(expected), where
    summary = json.loads(run.proc.stdout.strip().splitlines()[-1])
    assert summary["summary"] == "instances" and summary["instances"] == total
    assert summary["instance_ids"] == list(range(total))
    assert summary["samples_per_sec"] == sum(1.0 + r for r in range(total))
    check_cleanup(run)


def node_local_here(site: str, area: Path, monkeypatch) -> None:
    """The site as a user profile whose node-local storage is `area` on this machine (the
    emulated nodes share one filesystem, so the test's directory stands for every node's)."""
    base = load_profile(site).profile
    (area.parent / "profiles").mkdir(exist_ok=True)
    (area.parent / "profiles" / f"{site}.yaml").write_text(json.dumps({
        "name": site, "extends": site,
        "node": {"local_storage": {"path": str(area), "why": "the test's node-local area",
                                   "source": base.node.source}}}))
    monkeypatch.setenv("JOBGEN_PROFILE_PATH", str(area.parent / "profiles"))
    area.mkdir(parents=True, exist_ok=True)


def staged_archive(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    (src / "train").mkdir(parents=True)
    (src / "train" / "sample.txt").write_text("tensor\n")
    archive = tmp_path / "data.tar"
    with tarfile.open(archive, "w") as tar:
        tar.add(src / "train", arcname="train")
    return archive


@pytest.mark.parametrize("site", [*LAUNCHER_SITES, "aurora"])
def test_stage_untars_on_every_node_before_the_launch(site, tmp_path, emu_bin, monkeypatch):
    """The per-node command (mpiexec/srun/jsrun/mpirun, one task a node) unpacks a real tar
    into a directory it makes; the exit trap removes that directory, and only that. On Aurora
    dbcast (two tasks a node, ALCF's data-mover page) first copies the archive to each node."""
    area = tmp_path / "node-local"
    node_local_here(site, area, monkeypatch)
    (area / "other-job").mkdir()
    (area / "other-job" / "keep.txt").write_text("not ours\n")
    archive = staged_archive(tmp_path)
    plan = plan_for(site, stage=str(archive))
    dest = area / f"jobgen-data-{re.sub(r'[.].*', '', JOBID[SITES[site].dialect])}"
    assert plan.stage.dest == f"{area}/jobgen-data-${{JOBGEN_JOB_ID}}"
    run = run_script(render(plan), SITES[site], tmp_path / "job", emu_bin)
    check_ranks(plan, run, SITES[site])
    source = str(archive)
    if plan.stage.broadcast:  # Aurora's dbcast: two tasks a node copy it to each node first
        source = f"{area}/jobgen-stage-{re.sub(r'[.].*', '', JOBID[SITES[site].dialect])}.tar"
        bcast = [e for e in run.events if e.get("event") == "launch" and "dbcast" in e["argv"]]
        assert len(bcast) == 1 and bcast[0]["ntasks"] == 4 and str(archive) in bcast[0]["argv"]
        copied = [e for e in run.calls("dbcast") if e["event"] == "dbcast"]
        assert sorted(e["local_size"] for e in copied) == [2] * 4 and copied[0]["dest"] == source
        assert not os.path.exists(source), "each node's copy is removed once unpacked"
    staging = [e for e in run.events if e.get("event") == "launch" and source in e["argv"]
               and "tar -xf" in " ".join(e["argv"])]
    assert len(staging) == 1 and staging[0]["ntasks"] == 2, "one task on each node"
    assert str(dest) in staging[0]["argv"] and staging[0]["t"] < min(run.rank_times())
    removed = per_node_calls(run, "bash", str(dest))
    assert len(removed) == 2 and removed[-1]["t"] > max(run.rank_times())
    assert not dest.exists(), "the directory this job made is removed at exit"
    assert (area / "other-job" / "keep.txt").read_text() == "not ours\n"
    check_cleanup(run)


def test_a_broadcast_that_copied_nothing_stops_the_job_before_the_ranks(tmp_path, emu_bin,
                                                                      monkeypatch):
    """dbcast exits 0 when it cannot read the archive (mpifileutils dbcast.c): the script
    finds no copy on the nodes and stops with one line naming it, before any rank starts."""
    area = tmp_path / "node-local"
    node_local_here("aurora", area, monkeypatch)
    plan = plan_for("aurora", stage=str(tmp_path / "missing.tar"))
    run = run_script(render(plan), SITES["aurora"], tmp_path / "job", emu_bin)
    assert run.proc.returncode != 0 and not run.reports, run.explain()
    assert "Cannot read input file" in run.proc.stderr
    assert "jobgen: no copy of the archive at" in run.proc.stderr
    assert "dbcast exits 0 when it fails" in run.proc.stderr


def test_a_failing_job_removes_only_the_directory_it_made(tmp_path, emu_bin, monkeypatch):
    """A rank fails after staging: the trap removes the job's own directory on every node and
    leaves everything beside it (other data under the node-local area, the parent) alone."""
    area = tmp_path / "node-local"
    node_local_here("lumi", area, monkeypatch)
    (area / "sibling").mkdir()
    (area / "sibling" / "precious.txt").write_text("keep\n")
    plan = plan_for("lumi", stage=str(staged_archive(tmp_path)), stage_to=f"{area}/mine/data")
    run = run_script(render(plan), SITES["lumi"], tmp_path / "job", emu_bin,
                     env={"JOBGEN_EMU_FAIL_RANK": "1"})
    assert run.proc.returncode == 7, run.explain()
    assert not (area / "mine" / "data").exists()
    assert (area / "sibling" / "precious.txt").read_text() == "keep\n"
    assert (area / "mine").is_dir(), "the parent it did not make itself stays"


def test_a_directory_that_was_already_there_is_never_removed(tmp_path, emu_bin, monkeypatch):
    """--stage-to naming a directory that exists: the data is unpacked into it as named, the
    job says so, and at exit the directory and what it held stay."""
    area = tmp_path / "node-local"
    node_local_here("lumi", area, monkeypatch)
    (area / "data").mkdir()
    (area / "data" / "precious.txt").write_text("keep\n")
    plan = plan_for("lumi", stage=str(staged_archive(tmp_path)), stage_to=f"{area}/data")
    run = run_script(render(plan), SITES["lumi"], tmp_path / "job", emu_bin)
    assert run.proc.returncode == 0, run.explain()
    assert "was already on" in run.proc.stderr
    assert (area / "data" / "precious.txt").read_text() == "keep\n"
    assert (area / "data" / "train" / "sample.txt").read_text() == "tensor\n"


def test_even_a_hand_edited_dotdot_path_cannot_make_the_trap_delete_data(tmp_path, emu_bin,
                                                                         monkeypatch):
    """issue 21's reproducer, `--stage-to /tmp/../scratch/proj`, is refused at render time; a
    script edited to carry it anyway finds the directory there, so it marks nothing, and its
    trap, on a failing job, deletes nothing."""
    area = tmp_path / "node-local"
    node_local_here("lumi", area, monkeypatch)
    proj = tmp_path / "scratch" / "proj"
    proj.mkdir(parents=True)
    (proj / "results.h5").write_text("months of work\n")
    with pytest.raises(JobgenError, match="'..' is not allowed"):
        plan_for("lumi", stage="/scratch/p/d.tar", stage_to=f"{area}/../scratch/proj")
    plan = plan_for("lumi", stage=str(staged_archive(tmp_path)), stage_to=f"{area}/data")
    text = render(plan).replace(f'JOBGEN_STAGE_DIR="{area}/data"',
                                f'JOBGEN_STAGE_DIR="{area}/../scratch/proj"')
    assert f"{area}/../scratch/proj" in text
    run = run_script(text, SITES["lumi"], tmp_path / "job", emu_bin,
                     env={"JOBGEN_EMU_FAIL_RANK": "0"})
    assert run.proc.returncode == 7, run.explain()
    assert (proj / "results.h5").read_text() == "months of work\n"


def per_node_calls(run: EmuRun, program: str, argument: str) -> list[dict]:
    """The launches of `program` on one task per node whose arguments name `argument`."""
    return [e for e in run.events if e.get("event") == "launch" and program in e["argv"]
            and argument in e["argv"] and e["ntasks"] == len(run_hosts(run))]


def run_hosts(run: EmuRun) -> set[str]:
    return {r["env"]["JOBGEN_EMU_NODE"] for r in run.reports.values()}


def test_lumi_miopen_cache_directory_is_made_and_removed_once_per_node(tmp_path, emu_bin):
    """One node-local MIOpen directory per node, made by one task on each node before the
    ranks start and removed the same way at exit (not per rank, not in a shared directory)."""
    plan = plan_for("lumi")
    run = run_script(render(plan), SITES["lumi"], tmp_path, emu_bin)
    check_ranks(plan, run, SITES["lumi"])
    cache = f"/tmp/emu-miopen-cache-{JOBID['slurm']}"  # USER=emu in the emulation
    assert {r["env"]["MIOPEN_USER_DB_PATH"] for r in run.reports.values()} == {cache}
    made, removed = per_node_calls(run, "mkdir", cache), per_node_calls(run, "rm", cache)
    assert len(made) == 1 and len(removed) == 1, run.explain()
    assert made[0]["t"] < min(run.rank_times()) and removed[0]["t"] > max(run.rank_times())
    assert not os.path.exists(cache)
    check_cleanup(run)


def make_venv(root) -> str:
    """A venv as `python -m venv` lays it out: pyvenv.cfg, lib/python3.X/site-packages and
    the lib64 -> lib link."""
    site = root / "lib" / "python3.10" / "site-packages"
    site.mkdir(parents=True)
    (root / "pyvenv.cfg").write_text("home = /opt/aurora/frameworks/bin\n")
    (root / "lib64").symlink_to("lib")
    return str(root)


def test_aurora_copper_routes_a_venv_and_a_package_dir_around_the_ranks(tmp_path, emu_bin):
    """copper.md: a venv's lib/python3.X/site-packages and a package directory go on
    PYTHONPATH through /tmp/$USER/copper, in the order given; Copper starts before the ranks
    and stops after them."""
    venv = make_venv(tmp_path / "lus" / "venv")
    pkgs = tmp_path / "lus" / "pkgs"
    pkgs.mkdir()
    plan = plan_for("aurora", copper=True, copper_paths=(venv, str(pkgs)))
    run = run_script(render(plan), SITES["aurora"], tmp_path / "job", emu_bin)
    check_ranks(plan, run, SITES["aurora"])
    launched, stopped = run.calls("launch_copper.sh"), run.calls("stop_copper.sh")
    assert len(launched) == 1 and len(stopped) == 1
    ranks = run.rank_times()
    assert launched[0]["t"] < min(ranks) and stopped[0]["t"] > max(ranks)
    site = f"{venv}/lib/python3.10/site-packages"
    for report in run.reports.values():
        env = report["env"]
        assert env["PYTHONPATH"].split(":")[:2] == [f"/tmp/emu/copper{site}",
                                                    f"/tmp/emu/copper{pkgs}"]
        assert not {48, 49, 50, 51} & set(cpus_of(env)), "Copper's service cores stay free"
    assert not run.calls("conda")
    check_cleanup(run)


@pytest.mark.slow
def test_aurora_copper_serves_the_bundled_package_to_every_rank(tmp_path, emu_bin):
    """Every rank imports jobgen's `workloads` package: with --copper its PYTHONPATH entry goes
    through the mount as copper.md routes a custom package directory (by its physical path),
    and the Lustre copy is no longer on the ranks' path; the preflight ran before Copper."""
    pkgs = tmp_path / "lus" / "pkgs"
    pkgs.mkdir(parents=True)
    real = tmp_path / "lus" / "job"
    real.mkdir()
    link = tmp_path / "job"  # the submit directory as seen through a symbolic link
    link.symlink_to(real)
    plan = plan_for("aurora", app="cosmictagger", copper=True, copper_paths=(str(pkgs),))
    run = run_script(app_script(plan), SITES["aurora"], link, emu_bin)
    check_ranks(plan, run, SITES["aurora"])
    physical = f"{real}/work/.jobgen/{run.jobid}/python"
    assert str(run.jobgen_dir).startswith(str(link))
    for report in run.reports.values():
        path = report["env"]["PYTHONPATH"].split(":")
        assert path[:2] == [f"/tmp/emu/copper{pkgs}", f"/tmp/emu/copper{physical}"], path
        assert f"{run.jobgen_dir}/python" not in path and physical not in path
    check_cleanup(run)


def test_aurora_copper_activates_a_conda_env_through_the_mount(tmp_path, emu_bin):
    env_root = tmp_path / "lus" / "conda_env"
    (env_root / "conda-meta").mkdir(parents=True)
    plan = plan_for("aurora", copper=True, copper_paths=(str(env_root),))
    run = run_script(render(plan), SITES["aurora"], tmp_path / "job", emu_bin)
    check_ranks(plan, run, SITES["aurora"])
    activated = run.calls("conda")
    assert [e["argv"] for e in activated] == [["activate", f"/tmp/emu/copper{env_root}"]]
    assert run.calls("launch_copper.sh")[0]["t"] < activated[0]["t"] < min(run.rank_times())
    assert all("PYTHONPATH" not in r["env"] for r in run.reports.values())
    check_cleanup(run)


@pytest.mark.parametrize(("layout", "message"), [
    ("missing", "is not a directory here"),
    ("venv-without-site-packages", "a venv needs exactly one lib/python3.*/site-packages"),
    ("two-conda-envs", "one conda environment only"),
])
def test_aurora_copper_path_that_cannot_work_fails_before_the_ranks(layout, message, tmp_path,
                                                                     emu_bin):
    base = tmp_path / "lus"
    base.mkdir()
    paths: tuple[str, ...] = (str(base / "nothing"),)
    if layout == "venv-without-site-packages":
        (base / "pyvenv.cfg").write_text("home = /usr/bin\n")
        paths = (str(base),)
    elif layout == "two-conda-envs":
        for name in ("a", "b"):
            (base / name / "conda-meta").mkdir(parents=True)
        paths = (str(base / "a"), str(base / "b"))
    plan = plan_for("aurora", copper=True, copper_paths=paths)
    run = run_script(render(plan), SITES["aurora"], tmp_path / "job", emu_bin)
    assert run.proc.returncode != 0 and message in run.proc.stderr, run.explain()
    assert not run.reports, "no rank started"
    assert len(run.calls("stop_copper.sh")) == 1, "Copper stopped on the way out"
    check_cleanup(run)


def test_aurora_copper_stops_even_when_a_rank_fails(tmp_path, emu_bin):
    pkgs = tmp_path / "pkgs"
    pkgs.mkdir()
    plan = plan_for("aurora", copper=True, copper_paths=(str(pkgs),))
    run = run_script(render(plan), SITES["aurora"], tmp_path / "job", emu_bin,
                     env={"JOBGEN_EMU_FAIL_RANK": "0"})
    assert run.proc.returncode == 7, run.explain()
    assert len(run.calls("stop_copper.sh")) == 1
    check_cleanup(run)


def test_lumi_own_container_execs_the_program_in_the_image(tmp_path, emu_bin):
    image = "/scratch/project_465000000/my-pytorch.sif"
    plan = plan_for("lumi", container=image)
    run = run_script(render(plan), SITES["lumi"], tmp_path, emu_bin, site_files=(image,))
    check_ranks(plan, run, SITES["lumi"])
    execs = [e for e in run.calls("singularity") if e["node"]]  # the ranks' (not preflight)
    assert len(execs) == plan.world_size
    assert {e["image"] for e in execs} == {image}
    binds = [w for i, w in enumerate(plan.command[1:]) if plan.command[i] == "-B"]
    assert all(e["binds"] == [b for x in binds for b in x.split(",")] for e in execs)
    for report in run.reports.values():
        assert report["env"]["JOBGEN_EMU_CONTAINER"] == image
    preflight = [e for e in run.calls("singularity") if not e["node"]]
    assert [(e["image"], e["command"]) for e in preflight] == [(image, ["true"])]
    check_cleanup(run)


def test_lumi_default_container_runs_the_program_directly(tmp_path, emu_bin):
    """The AI Factory image has its Python first on PATH: `singularity exec IMAGE CMD`, no
    activation step, with the ranks' variables set outside the container."""
    plan = plan_for("lumi")
    image = plan.command[plan.command.index("exec") + 1]
    run = run_script(render(plan), SITES["lumi"], tmp_path, emu_bin)
    check_ranks(plan, run, SITES["lumi"])
    assert {e["image"] for e in run.calls("singularity")} == {image}
    ranks = [e for e in run.calls("singularity") if e["node"]]  # not the preflight's
    assert ranks and all(e["command"] == list(REPORT_COMMAND) for e in ranks)
    preflight = [e["command"] for e in run.calls("singularity") if not e["node"]]
    assert preflight == [["true"]]  # the container started once before the launch
    check_cleanup(run)


def test_aurora_apptainer_runs_each_rank_as_the_documented_recipe(tmp_path, emu_bin):
    """docs/aurora/containers: `module load apptainer`; every rank in `apptainer exec` with the
    host's PMIx bound to /hostlib and /usr/lib64 to /hostevent; the APPTAINERENV_ settings
    reach the program inside (CCL over ofi there); the host's frameworks module and oneCCL
    minimal set stay out, as the recipe loads and sets none of them (issue 30, R1)."""
    image = "/lus/flare/projects/MYPROJECT/xpu-pytorch.sif"
    plan = plan_for("aurora", container=image)
    run = run_script(render(plan), SITES["aurora"], tmp_path, emu_bin, site_files=(image,))
    check_ranks(plan, run, SITES["aurora"])
    check_software(plan, run)
    assert ["load", "apptainer"] in [e["argv"] for e in run.calls("module")]
    execs = [e for e in run.calls("apptainer") if e["node"]]
    assert len(execs) == plan.world_size and {e["image"] for e in execs} == {image}
    assert all(e["binds"] == ["/usr/lib64/libpmix.so.2:/hostlib/libpmix.so.2",
                              "/usr/lib64:/hostevent"] for e in execs)
    assert all(e["command"] == list(REPORT_COMMAND) for e in execs)
    for report in run.reports.values():
        env = report["env"]
        assert env["JOBGEN_EMU_RUNTIME"] == "apptainer"
        assert (env["CCL_ATL_TRANSPORT"], env["CCL_ZE_IPC"]) == ("ofi", "0")
        assert env["I_MPI_PMI_LIBRARY"] == "/hostlib/libpmix.so.2"
        assert env["ONEAPI_DEVICE_SELECTOR"] == "level_zero:gpu"
        assert "CCL_PROCESS_LAUNCHER" not in env and "CCL_KVS_MODE" not in env
    assert ["load", "frameworks"] not in [e["argv"] for e in run.calls("module")]
    check_cleanup(run)


def test_polaris_apptainer_runs_each_rank_with_fakeroot_and_the_mpich_abi(tmp_path, emu_bin):
    """docs/polaris/containers: spack-pe-base, apptainer and cray-mpich-abi loaded, fakeroot
    requested from PBS, `apptainer exec --fakeroot -B /opt -B /var/run/palsd/` under mpiexec,
    the Cray libraries passed in with APPTAINERENV_LD_LIBRARY_PATH, Apptainer's directories on
    /local/scratch made before the launch."""
    image = "/lus/eagle/projects/MYPROJECT/pytorch.sif"
    plan = plan_for("polaris", container=image)
    text = render(plan)
    assert "\n#PBS -l singularity_fakeroot=true\n" in text
    cray = "/opt/cray/pe/mpich/8.1.28/ofi/gnu/12.3/lib-abi-mpich"  # what cray-mpich-abi sets
    run = run_script(text, SITES["polaris"], tmp_path, emu_bin,
                     env={"CRAY_LD_LIBRARY_PATH": cray}, site_files=(image,))
    check_ranks(plan, run, SITES["polaris"])
    check_software(plan, run)
    loads = [e["argv"] for e in run.calls("module")]
    assert loads[-3:] == [["load", "spack-pe-base"], ["load", "apptainer"],
                          ["load", "cray-mpich-abi"]]
    execs = [e for e in run.calls("apptainer") if e["node"]]
    assert len(execs) == plan.world_size and {e["image"] for e in execs} == {image}
    assert all(e["flags"] == ["--fakeroot", "--nv"] for e in execs)
    assert all(e["binds"][:2] == ["/opt", "/var/run/palsd/"] for e in execs)
    for report in run.reports.values():
        inside = report["env"]["LD_LIBRARY_PATH"].split(":")
        assert inside[0] == cray
        assert inside[-1] == "/opt/cray/pe/pals/1.2.12/lib"
        assert "/soft/libraries/aws-ofi-nccl/v1.9.1-aws/lib" in inside
    assert text.index('mkdir -p "${APPTAINER_TMPDIR}"') < text.index("jobgen_preflight ")
    check_cleanup(run)


def test_jlse_apptainer_and_forwarded_rendezvous(tmp_path, emu_bin):
    """mpirun ranks on other nodes get only what -x forwards: the rendezvous still arrives."""
    image = "/home/me/rocm-pytorch.sif"
    plan = plan_for("jlse-mi250", container=image)
    run = run_script(render(plan), SITES["jlse-mi250"], tmp_path, emu_bin, site_files=(image,))
    check_ranks(plan, run, SITES["jlse-mi250"])
    execs = [e for e in run.calls("apptainer") if e["node"]]  # the ranks' (not preflight)
    assert len(execs) == plan.world_size and {e["image"] for e in execs} == {image}
    assert all(e["no_mount"] == ["/gpfs/jlse-fs0"] for e in execs)
    remote = [r for r in run.reports.values() if r["env"]["JOBGEN_EMU_NODE_INDEX"] == "1"]
    assert len(remote) == plan.ranks_per_node
    check_cleanup(run)


def test_jlse_env_settings_reach_ranks_on_other_nodes(tmp_path, emu_bin):
    plan = plan_for("jlse-mi250", env=("NCCL_DEBUG=INFO",))
    run = run_script(render(plan), SITES["jlse-mi250"], tmp_path, emu_bin)
    check_ranks(plan, run, SITES["jlse-mi250"])
    assert {r["env"].get("NCCL_DEBUG") for r in run.reports.values()} == {"INFO"}


# ---------------------------------------------------------------- the emulation itself
@pytest.mark.parametrize("old, new", [
    ("0) export CUDA_VISIBLE_DEVICES=3 ;;", "0) export CUDA_VISIBLE_DEVICES=2 ;;"),
    ("--depth=8", "--depth=4"),
    (".hsn.cm.polaris.alcf.anl.gov", ".cm.polaris.alcf.anl.gov"),
    ("export LOCAL_WORLD_SIZE=4\n", "\n"),
    ('export RANK="${PMI_RANK:', 'export RANK="${PMI_LOCAL_RANK:'),
])
def test_the_checks_catch_a_broken_script(old, new, tmp_path, emu_bin):
    """A script that places one rank wrongly fails the checks (the emulation is not vacuous)."""
    plan = plan_for("polaris")
    text = render(plan)
    assert old in text
    run = run_script(text.replace(old, new), SITES["polaris"], tmp_path, emu_bin)
    with pytest.raises(AssertionError):
        check_ranks(plan, run, SITES["polaris"])


def test_summit_master_is_rank0_node_when_hosts_are_not_sorted(tmp_path, emu_bin):
    """LSF's host list in allocation order, not alphabetical: MASTER_ADDR must still be the node
    jsrun puts rank 0 on (the first compute host in file order, not the first after sorting)."""
    site = Site("summit", "lsf", ("h41n06", "h41n05"), "h41n06")
    plan = plan_for("summit")
    run = run_script(render(plan), site, tmp_path, emu_bin)
    check_ranks(plan, run, site)


@pytest.mark.parametrize("site", LAUNCHER_SITES)
def test_sigterm_reaches_every_rank_through_the_launcher(site, tmp_path, emu_bin):
    """The scheduler's SIGTERM to the batch shell is passed to the launcher, which passes it
    to the ranks (through the wrapper's exec and, on LUMI, the container's exec)."""
    plan = plan_for(site)
    assert "TERM" in plan.signals
    proc, run = start_script(render(plan), SITES[site], tmp_path, emu_bin,
                             env={"JOBGEN_EMU_AWAIT_SIGNAL": "1"})
    out = run.emu_dir / "out"
    deadline = time.time() + 30
    while len(list(out.glob("rank-*.json"))) < plan.world_size and proc.poll() is None \
            and time.time() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    run = finish(proc, run)
    signalled = [e for e in run.calls("report_rank") if e["event"] == "signalled"]
    assert sorted(e["rank"] for e in signalled) == list(range(plan.world_size)), run.explain()
    assert {e["signal"] for e in signalled} == {signal.SIGTERM}
    assert run.proc.returncode == 128 + signal.SIGTERM, run.explain()
    assert "SIGTERM received" in run.proc.stderr
    check_cleanup(run)


def test_summit_warning_signal_reaches_every_rank_through_jskill(tmp_path, emu_bin):
    """LSF's warning signal (-wa USR1) to the batch shell reaches the ranks through IBM's jskill
    even when jsrun itself does not pass SIGUSR1 on to the tasks JSM started."""
    plan = plan_for("summit", checkpoint_dir="/gpfs/alpine2/proj/ck")
    assert plan.signals[0] == "USR1"
    proc, run = start_script(render(plan), SITES["summit"], tmp_path, emu_bin,
                             env={"JOBGEN_EMU_AWAIT_SIGNAL": "1", "JOBGEN_EMU_JSRUN_NO_USR": "1"})
    out = run.emu_dir / "out"
    deadline = time.time() + 30
    while len(list(out.glob("rank-*.json"))) < plan.world_size and proc.poll() is None \
            and time.time() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # jsrun lists its tasks once all have started
    proc.send_signal(signal.SIGUSR1)
    run = finish(proc, run)
    signalled = [e for e in run.calls("report_rank") if e["event"] == "signalled"]
    assert sorted(e["rank"] for e in signalled) == list(range(plan.world_size)), run.explain()
    assert {e["signal"] for e in signalled} == {signal.SIGUSR1}
    assert [e["signal"] for e in run.calls("jskill")] == [signal.SIGUSR1]
    assert "SIGUSR1 received" in run.proc.stderr
    check_cleanup(run)


def warned_run(text: str, site: Site, tmp: Path, emu_bin: Path, world: int) -> EmuRun:
    """Run `text` until its ranks run, send the batch shell LSF's warning signal (USR1)."""
    proc, run = start_script(text, site, tmp, emu_bin, env={"JOBGEN_EMU_AWAIT_SIGNAL": "1"})
    out = run.emu_dir / "out"
    for old in out.glob("rank-*.json"):
        old.unlink()
    deadline = time.time() + 30
    while len(list(out.glob("rank-*.json"))) < world and proc.poll() is None \
            and time.time() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # jsrun lists its tasks once all have started
    proc.send_signal(signal.SIGUSR1)
    return finish(proc, run)


@pytest.mark.slow
def test_summit_requeue_on_the_warning_counts_and_stops_at_the_limit(tmp_path, emu_bin):
    """--requeue 2 on LSF: on the warning signal the script requeues itself with brequeue
    and its job ID, twice, counting in a file (LSF keeps no count); the third warning ends
    the job without a requeue and the count is removed."""
    plan = plan_for("summit", requeue=2)
    assert "#BSUB -r" in [d.text for d in plan.directives]
    text = render(plan)
    counter = tmp_path / "work" / ".jobgen" / f"{JOBID['lsf']}.requeues"
    for attempt in (1, 2, 3):
        before = len(run_calls(tmp_path, "brequeue"))
        run = warned_run(text, SITES["summit"], tmp_path, emu_bin, plan.world_size)
        calls = run.calls("brequeue")[before:]
        if attempt < 3:
            assert run.proc.returncode == 0, run.explain()
            assert [c["argv"] for c in calls] == [[JOBID["lsf"]]], run.explain()
            assert f"requeue {attempt} of 2" in run.proc.stderr
            assert counter.read_text().strip() == str(attempt)
        else:
            assert calls == [] and "after 2 requeue(s); not requeueing again" in run.proc.stderr
            assert not counter.exists()
            # the ranks' own status once they stopped on the signal (the emulated ranks die
            # of SIGUSR1), as on Slurm after its last requeue
            assert run.proc.returncode == 128 + signal.SIGUSR1, run.explain()
        check_cleanup(run)


def test_summit_job_without_the_warning_is_not_requeued_and_forgets_its_count(tmp_path,
                                                                              emu_bin):
    plan = plan_for("summit", requeue=2)
    counter = tmp_path / "job" / "work" / ".jobgen" / f"{JOBID['lsf']}.requeues"
    counter.parent.mkdir(parents=True)
    counter.write_text("1\n")  # a run that was requeued once, now finishing normally
    run = run_script(render(plan), SITES["summit"], tmp_path / "job", emu_bin)
    assert run.proc.returncode == 0, run.explain()
    assert run.calls("brequeue") == [] and not counter.exists()


def run_calls(tmp: Path, tool: str) -> list[dict]:
    log = tmp / "emu" / "events.jsonl"
    if not log.exists():
        return []
    return [e for e in map(json.loads, log.read_text().splitlines()) if e["tool"] == tool]


@pytest.mark.parametrize("site", LAUNCHER_SITES)
def test_an_allocation_of_another_size_is_refused_before_any_rank(site, tmp_path, emu_bin):
    base = SITES[site]
    extra = {"pbs": "x3006c0s25b0n0.hsn.cm.polaris.alcf.anl.gov", "slurm": "nid005002",
             "lsf": "a01n03", "cobalt": "amdgpu05"}[base.dialect]
    three = Site(base.name, base.dialect, (*base.hosts, extra), base.master,
                 nodelist="nid[005000-005002]" if base.nodelist else "")
    run = run_script(render(plan_for(site)), three, tmp_path, emu_bin)
    assert run.proc.returncode == 1, run.explain()
    assert "this plan is for 2 nodes but" in run.proc.stderr and "gave 3" in run.proc.stderr
    assert not run.reports and not [e for e in run.events if e.get("event") == "launch"]
