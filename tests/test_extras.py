"""Site extras: several ranks per device, Copper, containers, framework stacks, precision,
data staging and scale-dependent settings, on the plan and on the rendered text."""

from __future__ import annotations

import re

import pytest
from helpers import env_of, plan_for, run_jobgen

from jobgen.errors import JobgenError
from jobgen.plan.build import Plan
from jobgen.text.render import render

VENV = "/lus/flare/projects/p/venv/lib/python3.10/site-packages"






def cores(plan: Plan) -> list[int]:
    return [c for s in plan.slots for c in s.cores]


# ---------------------------------------------------------------- several ranks per device
@pytest.mark.parametrize("per_dev", [2, 4])
def test_aurora_ccs_ranks_share_tiles_with_disjoint_cores(per_dev):
    plan = plan_for("aurora", ranks_per_device=per_dev)
    assert plan.ranks_per_node == 12 * per_dev and plan.sharing == "ccs"
    assert env_of(plan)["ZEX_NUMBER_OF_CCS"] == ",".join(f"{i}:{per_dev}" for i in range(12))
    assert [s.device for s in plan.slots] == [r // per_dev for r in range(12 * per_dev)]
    assert all(s.mask is None for s in plan.slots), "pytorch.md's CCS example sets no mask"
    assert env_of(plan)["JOBGEN_RANKS_PER_DEVICE"] == str(per_dev)
    c = cores(plan)
    assert len(c) == len(set(c)) and not {0, 52} & set(c)
    text = render(plan)
    assert f"mpiexec -n {12 * per_dev} --ppn {12 * per_dev}" in text


def test_polaris_mps_starts_and_stops_the_daemon_on_every_node():
    plan = plan_for("polaris", nodes=2, ranks_per_device=2)
    assert plan.sharing == "mps" and plan.ranks_per_node == 8
    assert [s.mask for s in plan.slots] == ["3", "3", "2", "2", "1", "1", "0", "0"]
    assert env_of(plan)["CUDA_MPS_PIPE_DIRECTORY"] == "/tmp/nvidia-mps"
    text = render(plan)
    start = text.index("nvidia-cuda-mps-control -d")
    launch = text.index('mpiexec -n 16 --ppn 8')
    assert start < launch, "MPS runs before the ranks start"
    assert "mpiexec -n 2 --ppn 1 env CUDA_MPS_PIPE_DIRECTORY=/tmp/nvidia-mps" in text
    assert "echo quit | nvidia-cuda-mps-control" in text.split("trap jobgen_cleanup")[0]
    assert "--depth=4 --cpu-bind=depth" in text


def test_summit_gpumps_one_resource_set_per_gpu_keeps_ranks_on_its_socket():
    """Issue 10: rank 6 drove GPU 3 (socket 1) from cores 18-20 (socket 0), cores 37-42 idle."""
    plan = plan_for("summit", ranks_per_device=2)
    assert '#BSUB -alloc_flags "smt4 gpumps"' in [d.text for d in plan.directives]
    assert plan.mask_variable is None, "jsrun shows each resource set its own GPU"
    assert [s.device for s in plan.slots] == [r // 2 for r in range(12)]
    assert plan.slots[6].cores == (22, 23, 24) and plan.slots[7].cores == (25, 26, 27)
    assert [s.cores[0] for s in plan.slots] == [0, 3, 7, 10, 14, 17, 22, 25, 29, 32, 36, 39]
    assert ("jsrun --nrs 6 --rs_per_host 6 --tasks_per_rs 2 --gpu_per_rs 1 --cpu_per_rs 7 "
            "--bind=packed:3 --launch_distribution packed") in plan.launch_line


def test_lumi_several_ranks_per_gcd_are_flagged_unconfirmed():
    plan = plan_for("lumi", ranks_per_device=2)
    assert plan.ranks_per_node == 16
    assert all(len(s.cores) == 3 for s in plan.slots)
    assert any("--ranks-per-device" in w for w in plan.warnings)


def test_sharing_refused_where_the_site_has_none():
    with pytest.raises(JobgenError, match="not supported on aurora"):
        plan_for("aurora", ranks_per_device=3)
    with pytest.raises(JobgenError, match="local has no GPUs"):
        plan_for("local", ranks_per_device=2)


# ---------------------------------------------------------------- Copper
def test_copper_on_aurora_routes_only_the_given_paths_and_spares_its_cores():
    plan = plan_for("aurora", nodes=8, copper=True, copper_paths=(VENV,), ranks_per_node=8)
    assert not set(cores(plan)) & {48, 49, 50, 51}
    assert "PYTHONPATH" not in env_of(plan), "the path is computed on the node, at job time"
    assert "module load copper" in [m.text for m in plan.modules]
    text = render(plan)
    launch = text.index("\nlaunch_copper.sh\n")
    route = text.index(f'jobgen_copper_route {VENV} "/tmp/${{USER}}/copper"')
    assert launch < route < text.index('"$JOBGEN_WRAPPER" \\')
    assert "stop_copper.sh" in text.split("trap jobgen_cleanup")[0]


@pytest.mark.parametrize(("path", "message"), [
    ("/tmp/${USER}/copper/lus/flare/p/venv", "must be an absolute path of plain characters"),
    ("/tmp/me/copper/lus/flare/p/venv", "the script routes it through /tmp/${USER}/copper"),
    ("/lus/flare/p/venv/bin", "give the environment's root directory"),
    ("/lus/flare/p/venv/bin/python3.10", "give the environment's root directory"),
])
def test_copper_refuses_paths_that_cannot_work(path, message):
    """An already routed path would be routed twice; bin/ or python is not an environment."""
    with pytest.raises(JobgenError, match=re.escape(message)):
        plan_for("aurora", copper=True, copper_paths=(path,))
    with pytest.raises(JobgenError, match="each environment once"):
        plan_for("aurora", copper=True, copper_paths=("/lus/a", "/lus/a/"))


def test_copper_with_twelve_ranks_keeps_the_documented_list():
    plan = plan_for("aurora", copper=True, copper_paths=(VENV,))
    assert "list:4-7:8-11" in plan.launch_line  # the PyTorch list already avoids 48-51


@pytest.mark.parametrize("site", ["polaris", "lumi", "summit", "jlse-mi250", "local", "sunspot"])
def test_copper_refused_without_copper(site):
    with pytest.raises(JobgenError, match="has no Copper"):
        plan_for(site, copper=True, copper_paths=("/x",))


def test_copper_needs_a_safe_path():
    with pytest.raises(JobgenError, match="needs --copper-path"):
        plan_for("aurora", copper=True)
    with pytest.raises(JobgenError, match="absolute path of plain characters"):
        plan_for("aurora", copper=True, copper_paths=('/x"; rm -rf ~',))


# ---------------------------------------------------------------- containers
def test_lumi_default_container_and_own_image():
    default = plan_for("lumi")
    assert default.command[:3] == ("singularity", "exec",
                                   "/appl/local/laifs/containers/lumi-multitorch-u24r70f21m50t210-"
                                   "20260415_130625/lumi-multitorch-full-u24r70f21m50t210-"
                                   "20260415_130625.sif")
    own = plan_for("lumi", container="/scratch/p/my.sif")
    assert own.command[:4] == ("singularity", "exec", "/scratch/p/my.sif", "python")
    text = render(own)
    assert text.index("MASTER_ADDR=") < text.index("singularity exec"), \
        "MASTER_ADDR is computed outside the container"
    assert "SLURM_PROCID" in text  # RANK comes from the step, in the wrapper


def test_jlse_apptainer_runs_as_the_public_scripts_run_it():
    plan = plan_for("jlse-mi250", container="/home/u/img.sif")
    assert plan.command[:5] == ("apptainer", "exec", "--no-mount", "/gpfs/jlse-fs0",
                                "/home/u/img.sif")
    # the public JLSE script runs apptainer from a login shell without loading a module
    assert not any("apptainer" in m.text for m in plan.modules)


def test_lumi_own_image_is_told_to_check_the_aws_ofi_rccl_plugin():
    plan = plan_for("lumi", container="/scratch/p/my.sif")
    hint = next(w for w in plan.warnings if "aws-ofi-rccl" in w)
    assert "NCCL_DEBUG=INFO" in hint and "Selected Provider is cxi" in hint
    assert not any("aws-ofi-rccl" in w for w in plan_for("lumi").warnings)


@pytest.mark.parametrize("site", ["sunspot", "summit"])
def test_container_refused_without_a_runtime(site):
    with pytest.raises(JobgenError, match="no container runtime"):
        plan_for(site, container="/x.sif")


# ---------------------------------------------------------------- framework stacks
def test_aurora_frameworks_module_picks_backend():
    new = plan_for("aurora")
    assert ("--dist-backend", "xccl", "--no-ipex") == new.command[7:10]
    old = plan_for("aurora", framework_module="frameworks/2024.2.1_u1")
    assert ("--dist-backend", "ccl", "--ipex") == old.command[7:10]
    assert "module load frameworks/2024.2.1_u1" in [m.text for m in old.modules]
    assert "module load frameworks" not in [m.text for m in old.modules]
    newer = plan_for("aurora", framework_module="frameworks/2025.3.1")
    assert "xccl" in newer.command


@pytest.mark.parametrize("version", ["2024.2.1", "2024.3", "2026.1.0", "2025.2", "bogus"])
def test_framework_module_must_be_a_documented_release(version):
    """ALCF documented frameworks/2024.2.1_u1, not 2024.2.1: an unknown version is refused
    with the known ones listed, never mapped to a guessed backend."""
    with pytest.raises(JobgenError) as exc:
        plan_for("aurora", framework_module=f"frameworks/{version}")
    message = str(exc.value)
    assert f"frameworks/{version}: not a documented frameworks release on aurora" in message
    assert ("2023.10.15.001, 2023.12.15.001, 2024.1, 2024.2.1_u1, 2025.0.5, 2025.2.0, "
            "2025.3.1") in message


def test_unknown_framework_module_is_one_line_exit_2():
    res = run_jobgen("render", "--site", "aurora", "--app", "ffn", "-A", "p",
                     "--framework-module", "frameworks/2024.2.1")
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "2024.2.1_u1" in res.stderr


@pytest.mark.parametrize(("version", "backend", "ipex"), [
    ("2024.2.1_u1", "ccl", True), ("2025.0.5", "ccl", True), ("2024.1", "ccl", True),
    ("2025.2.0", "xccl", False), ("2025.3.1", "xccl", False),
])
def test_ipex_math_mode_only_with_a_stack_that_imports_ipex(version, backend, ipex):
    plan = plan_for("aurora", precision="tf32", framework_module=f"frameworks/{version}")
    assert backend in plan.command and ("--ipex" if ipex else "--no-ipex") in plan.command
    assert ("IPEX_FP32_MATH_MODE" in env_of(plan)) == ipex
    assert "IPEX_FP32_MATH_MODE" not in env_of(plan_for("aurora", precision="tf32"))


def test_aurora_tensorflow_loads_its_own_module_and_mpich():
    """tensorflow.md: TensorFlow has its own module, loaded with mpich/opt/develop-git.6037a7a;
    not frameworks, and no IPEX switch."""
    plan = plan_for("aurora", command=("python3", "tf.py"), framework="tensorflow",
                    precision="tf32")
    assert [m.text for m in plan.modules] == ["module load tensorflow",
                                              "module load mpich/opt/develop-git.6037a7a"]
    assert plan.framework_variant is None
    assert "IPEX_FP32_MATH_MODE" not in env_of(plan)
    pytorch = plan_for("aurora", command=("python3", "t.py"))
    assert [m.text for m in pytorch.modules] == ["module load frameworks"]
    with pytest.raises(JobgenError, match="chooses the PyTorch stack; drop --framework-module"):
        plan_for("aurora", command=("python3", "tf.py"), framework="tensorflow",
                 framework_module="frameworks/2025.3.1")


def test_framework_module_must_match_the_stack():
    with pytest.raises(JobgenError, match="must be frameworks or frameworks/VERSION"):
        plan_for("aurora", framework_module="conda/2024")
    with pytest.raises(JobgenError, match="no framework module to choose"):
        plan_for("polaris", framework_module="conda/2024")


def test_tensorflow_uses_the_tensorflow_binding_and_horovod_affinity():
    plan = plan_for("aurora", command=("python3", "tf.py"), framework="tensorflow")
    env = env_of(plan)
    assert env["HOROVOD_THREAD_AFFINITY"] == "4,12,20,28,36,44,56,64,72,80,88,96"
    assert env["CCL_WORKER_AFFINITY"] == "1,9,17,25,33,41,53,61,69,77,85,93"
    assert "list:2-8:10-16" in plan.launch_line
    tf32 = plan_for("aurora", command=("python3", "tf.py"), framework="tensorflow",
                    precision="tf32")
    assert env_of(tf32)["ITEX_FP32_MATH_MODE"] == "TF32"
    assert "ITEX_FP32_MATH_MODE" not in env_of(plan_for("aurora", precision="tf32"))


def test_pytorch_only_apps_refuse_tensorflow():
    """cosmictagger and ffn have TensorFlow versions; the other bundled apps do not."""
    with pytest.raises(JobgenError, match="runs on pytorch, not tensorflow"):
        plan_for("polaris", app="resnet50", framework="tensorflow")
    assert plan_for("polaris", app="ffn", framework="tensorflow").framework == "tensorflow"


def test_tensorflow_apps_are_told_their_framework():
    for app in ("cosmictagger", "ffn"):
        words = list(plan_for("polaris", app=app, framework="tensorflow").command)
        assert words[words.index("-m"):][:4] == ["-m", f"workloads.{app}", "--framework",
                                                 "tensorflow"]
    assert "--framework" not in plan_for("polaris", app="ffn").command


def test_tensorflow_apps_get_no_pytorch_stack_arguments():
    """Aurora's frameworks stack hands the PyTorch apps --dist-backend and --ipex; the
    TensorFlow version takes neither (it would refuse them)."""
    words = plan_for("aurora", app="ffn", framework="tensorflow").command
    assert "--ipex" not in words and "--no-ipex" not in words and "--dist-backend" not in words
    assert "--dist-backend" in plan_for("aurora", app="ffn").command


def test_site_notes_on_tensorflow_show_in_the_plan():
    polaris = plan_for("polaris", app="ffn", framework="tensorflow").framework_support
    assert polaris is not None and "Horovod is no longer in its base environment" in polaris.why
    assert polaris.unconfirmed and "tf_keras" in polaris.unconfirmed
    assert plan_for("polaris", app="ffn").framework_support is None


# ---------------------------------------------------------------- precision
@pytest.mark.parametrize(("site", "default"), [("aurora", "bf16"), ("polaris", "tf32"),
                                               ("lumi", "fp32"), ("summit", "fp32"),
                                               ("jlse-mi250", "fp32"), ("local", "fp32")])
def test_site_default_precision(site, default):
    """The site's precision holds for a user's program; bundled apps may bring a measured one
    (tests/test_apps_program.py)."""
    assert plan_for(site, command=("python3", "train.py")).precision == default


@pytest.mark.parametrize(("site", "bad"), [("summit", "bf16"), ("summit", "tf32"),
                                           ("lumi", "tf32"), ("jlse-mi250", "tf32")])
def test_precision_the_device_cannot_do(site, bad):
    with pytest.raises(JobgenError, match=f"precision {bad} is not available on {site}"):
        plan_for(site, precision=bad)


def test_tf32_switch_per_vendor():
    ipex = plan_for("aurora", precision="tf32", framework_module="frameworks/2025.0.5")
    assert env_of(ipex)["IPEX_FP32_MATH_MODE"] == "TF32"
    polaris = plan_for("polaris", precision="tf32")
    assert "IPEX_FP32_MATH_MODE" not in env_of(polaris)
    assert "--precision tf32" in polaris.command_line  # CUDA: the workload's own switch


# ---------------------------------------------------------------- data staging
JOB_DATA = "jobgen-data-${JOBGEN_JOB_ID}"


@pytest.mark.parametrize(("site", "per_node", "dest"), [
    ("polaris", "mpiexec -n 2 --ppn 1", f"/local/scratch/{JOB_DATA}"),
    ("aurora", "mpiexec -n 2 --ppn 1", f"/tmp/{JOB_DATA}"),
    ("lumi", "srun --nodes=2 --ntasks-per-node=1", f"/tmp/{JOB_DATA}"),
    ("summit", "jsrun --nrs 2 --rs_per_host 1 --tasks_per_rs 1", f"/mnt/bb/${{USER}}/{JOB_DATA}"),
    ("jlse-mi250", 'mpirun -np 2 -npernode 1 --hostfile "$COBALT_NODEFILE"', f"/tmp/{JOB_DATA}"),
])
def test_staging_untars_once_per_node_before_the_launch(site, per_node, dest):
    plan = plan_for(site, nodes=2, stage="/proj/data.tar")
    text = render(plan)
    assert f'JOBGEN_STAGE_DIR="{dest}"' in text.splitlines()
    line = next(x for x in text.splitlines() if "tar -xf" in x)
    assert line.startswith(per_node)
    # Aurora: dbcast copies the archive to each node first (ALCF's data-mover page)
    source = '"$JOBGEN_STAGE_COPY"' if site == "aurora" else "/proj/data.tar"
    assert line.endswith(f'bash "$JOBGEN_STAGE_DIR" {source} "$JOBGEN_STAGE_TOKEN"')
    assert text.index("JOBGEN_JOB_ID=") < text.index("JOBGEN_STAGE_DIR=")
    assert text.index("tar -xf") < text.index('"$JOBGEN_WRAPPER" \\')
    assert f'--data "{dest}"' in text


def test_stage_to_a_shared_filesystem_is_refused():
    with pytest.raises(JobgenError, match="/flash is shared by every node"):
        plan_for("lumi", nodes=2, stage="/scratch/p/d.tar", stage_to="/flash/project_1/data")
    with pytest.raises(JobgenError, match="/gpfs/alpine2 is shared by every node"):
        plan_for("summit", nodes=2, stage="/gpfs/alpine2/p/d.tar",
                 stage_to="/gpfs/alpine2/p/scratch/u/data")


@pytest.mark.parametrize(("site", "stage_to", "problem"), [
    ("lumi", "/tmp/../scratch/proj", "'..' is not allowed"),  # issue 21's reproducer
    ("lumi", "/tmp/data/..", "'..' is not allowed"),
    ("lumi", "/tmp", "is the node-local storage itself"),
    ("lumi", "//tmp/./", "is the node-local storage itself"),
    ("lumi", "/", "is above /tmp"),
    ("summit", "/mnt/bb", "is above /mnt/bb/${USER}"),
    ("summit", "/mnt/bb/$USER", "is the node-local storage itself"),
    ("polaris", "/opt/data", "is outside polaris's node-local storage /local/scratch"),
    ("polaris", "/tmp/data", "is outside polaris's node-local storage /local/scratch"),
    ("lumi", "/dev/shm/data", "is outside lumi's node-local storage /tmp"),
    ("aurora", "/var/tmp/x", "is outside aurora's node-local storage /tmp"),
    ("lumi", "/tmp/${HOME}/x", "may reference only ${USER}"),
])
def test_stage_to_outside_a_new_directory_under_node_local_storage_is_refused(
        site, stage_to, problem):
    with pytest.raises(JobgenError) as err:
        plan_for(site, nodes=2, stage="/scratch/p/d.tar", stage_to=stage_to)
    assert problem in str(err.value)


def test_stage_to_is_normalised():
    plan = plan_for("lumi", nodes=2, stage="/scratch/p/d.tar", stage_to="//tmp//./my/data/")
    assert plan.stage.dest == "/tmp/my/data"
    summit = plan_for("summit", nodes=2, stage="/gpfs/alpine2/p/d.tar",
                      stage_to="/mnt/bb/$USER/d")
    assert summit.stage.dest == "/mnt/bb/${USER}/d"


def test_the_issue_reproducer_is_refused_on_the_command_line_with_one_line():
    result = run_jobgen("render", "--site", "lumi", "-A", "p", "--app", "qcnn", "--stage",
                        "/scratch/p/d.tar", "--stage-to", "/tmp/../scratch/proj")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "'..' is not allowed" in result.stderr


def test_staged_data_is_removed_at_exit_only_where_this_job_made_it():
    plan = plan_for("lumi", nodes=2, stage="/scratch/p/d.tar")
    assert any("counts against the job's memory" in w for w in plan.warnings)
    text = render(plan)
    cleanup = text[text.index("jobgen_cleanup() {"):text.index("trap jobgen_cleanup EXIT")]
    assert 'srun --nodes=2 --ntasks-per-node=1 rm -rf "$MIOPEN_USER_DB_PATH" || true' in cleanup
    removal = next(x for x in cleanup.splitlines() if "JOBGEN_STAGE_DIR" in x)
    assert '[ "$t" = "$2" ]; then rm -rf -- "$1"' in removal
    assert 'JOBGEN_STAGE_TOKEN="$JOBGEN_DIR:$$:$RANDOM$RANDOM"' in text.splitlines()
    assert text.index("JOBGEN_STAGE_TOKEN=") < text.index("trap jobgen_cleanup EXIT")


def test_summit_stages_to_the_nvme_burst_buffer_with_its_alloc_flag():
    plan = plan_for("summit", nodes=2, stage="/gpfs/alpine2/p/d.tar")
    assert plan.stage.dest == "/mnt/bb/${USER}/jobgen-data-${JOBGEN_JOB_ID}"
    assert '#BSUB -alloc_flags "smt4 NVME"' in [d.text for d in plan.directives]
    shared = plan_for("summit", nodes=2, stage="/gpfs/alpine2/p/d.tar", ranks_per_device=2)
    assert '#BSUB -alloc_flags "smt4 gpumps NVME"' in [d.text for d in shared.directives]


def test_staging_options_are_checked():
    with pytest.raises(JobgenError, match="must be a tar archive"):
        plan_for("polaris", stage="/x/data.zip")
    with pytest.raises(JobgenError, match="must be an absolute path"):
        plan_for("polaris", stage="/x/d.tar", stage_to="relative/dir")
    with pytest.raises(JobgenError, match="--stage-to goes with --stage"):
        plan_for("polaris", stage_to="/tmp/x")
    with pytest.raises(JobgenError, match="names a folder inside the archive"):
        plan_for("polaris", stage="/x/d.tar", app_args="--data /y")


# ---------------------------------------------------------------- scale-dependent settings
def test_aurora_cxi_workaround_only_beyond_16_nodes():
    small, big = env_of(plan_for("aurora", nodes=16)), env_of(plan_for("aurora", nodes=17))
    for name in ("FI_CXI_DEFAULT_CQ_SIZE", "FI_CXI_OFLOW_BUF_SIZE", "FI_CXI_CQ_FILL_PERCENT"):
        assert name not in small and name in big
    assert big["FI_CXI_OFLOW_BUF_SIZE"] == "8388608"


# ---------------------------------------------------------------- CLI
def test_extras_from_the_command_line_regenerate_identically():
    args = ["render", "--site", "aurora", "--app", "ffn", "-A", "p", "--nodes", "4",
            "--copper", "--copper-path", VENV, "--stage", "/lus/d.tar",
            "--framework-module", "frameworks/2024.2.1_u1", "--ranks-per-device", "2"]
    res = run_jobgen(*args)
    assert res.returncode == 0, res.stderr
    line = next(x for x in res.stdout.splitlines() if x.startswith("# Regenerate: "))
    import shlex

    again = run_jobgen(*shlex.split(line.removeprefix("# Regenerate: "))[1:])
    assert again.stdout == res.stdout


def test_copper_on_polaris_is_one_line_exit_2():
    res = run_jobgen("render", "--site", "polaris", "--app", "ffn", "-A", "p", "--copper",
                     "--copper-path", "/x")
    assert res.returncode == 2 and res.stderr.count("\n") == 1
    assert "polaris has no Copper" in res.stderr


# ---------------------------------------------------------------- preemption and requeue
def test_slurm_sites_warn_the_batch_shell_and_requeue_on_request():
    lumi = plan_for("lumi", requeue=2, checkpoint_dir="/scratch/p/ck")
    d = [x.text for x in lumi.directives]
    assert "#SBATCH --signal=B:USR2@120" in d and "#SBATCH --requeue" in d
    assert "#SBATCH --open-mode=append" in d
    assert lumi.signals[0] == "USR2" and lumi.requeue_method == "scontrol"
    assert "--checkpoint-dir /scratch/p/ck" in lumi.command_line
    text = render(lumi)
    assert 'scontrol requeue "$SLURM_JOB_ID"' in text and "-lt 2 ]" in text
    plain = [x.text for x in plan_for("lumi").directives]
    assert "#SBATCH --requeue" not in plain and "#SBATCH --signal=B:USR2@120" in plain


def test_pbs_and_lsf_requeue_through_the_scheduler():
    polaris = plan_for("polaris", queue="preemptable", requeue=1, checkpoint_dir="/eagle/ck")
    assert "#PBS -r y" in [x.text for x in polaris.directives]
    assert "TERM" in polaris.signals and "scontrol" not in render(polaris)
    summit = [x.text for x in plan_for("summit", requeue=1, checkpoint_dir="/gpfs/ck").directives]
    assert {"#BSUB -wa USR1", "#BSUB -wt 2", "#BSUB -r"} <= set(summit)


def test_own_program_gets_no_early_warning_signal_unless_it_handles_it():
    """An unhandled SIGUSR2 two minutes before the end would kill a user's program early
    (exit 140): ask for the warning only for programs that checkpoint on it."""
    lumi = plan_for("lumi", command=("python", "train.py"))
    assert not any(d.text.startswith("#SBATCH --signal") for d in lumi.directives)
    assert "USR2" not in lumi.signals and "TERM" in lumi.signals
    assert "no SIGUSR2 warning" in lumi.preemption.text
    summit = plan_for("summit", command=("python", "train.py"))
    assert not any(d.text.startswith(("#BSUB -wa", "#BSUB -wt")) for d in summit.directives)
    for handled in (plan_for("lumi", command=("python", "train.py"), checkpoint_dir="/scratch/c"),
                    plan_for("lumi")):
        assert "#SBATCH --signal=B:USR2@120" in [d.text for d in handled.directives]
    res = run_jobgen("explain", "--site", "lumi", "-A", "p", "--", "python", "train.py")
    assert res.returncode == 0 and "no SIGUSR2 warning before the time limit" in res.stdout


def test_horovod_thread_affinity_cites_horovods_own_docs():
    env = {e.name: e for e in plan_for("summit", framework="tensorflow",
                                       command=("python", "train_tf.py")).env}
    source = env["HOROVOD_THREAD_AFFINITY"].source
    assert "horovod/horovod docs/oneccl.rst" in source and "ibm-wml-ce" not in source


def test_requeue_is_checked():
    with pytest.raises(JobgenError, match="aurora has no documented way to requeue"):
        plan_for("aurora", requeue=1, checkpoint_dir="/lus/ck")
    with pytest.raises(JobgenError, match="--requeue needs --checkpoint-dir"):
        plan_for("lumi", requeue=1)
