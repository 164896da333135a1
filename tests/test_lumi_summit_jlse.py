"""Issue 30 part B: the LUMI, Summit and JLSE findings of the 2026-11-26 staff review
(../shared/measurements/staff-review-lumi-summit-jlse-2026-11-26.md), each against the
source it cites."""

from __future__ import annotations

import pytest
from emulation.harness import install_bin
from helpers import env_of, plan_for

from jobgen.errors import JobgenError
from jobgen.profiles.load import load_profile
from jobgen.review.lint import lint
from jobgen.review.scriptparse import parse_text
from jobgen.text.render import render

LUST_TF = ("/appl/local/containers/sif-images/"
           "lumi-tensorflow-rocm-6.2.0-python-3.10-tensorflow-2.16.1-horovod-0.28.1.sif")
LUST_TORCH = ("/appl/local/containers/sif-images/"
              "lumi-pytorch-rocm-6.2.4-python-3.12-pytorch-v2.6.0.sif")
AIF_IMAGE = ("/appl/local/laifs/containers/lumi-multitorch-u24r70f21m50t210-20260415_130625/"
             "lumi-multitorch-full-u24r70f21m50t210-20260415_130625.sif")


def _module_lines(plan) -> list[str]:
    return [m.text for m in plan.modules]


# ---------------------------------------------------------------- D5: bindings by image family
@pytest.mark.parametrize("image", [LUST_TF, LUST_TORCH])
def test_lumi_lust_image_loads_singularity_ai_bindings_and_activates_conda(image):
    """LTM 2day-20260422/205-Containers.md: singularity-AI-bindings (module use
    /appl/local/containers/ai-modules) serves /appl/local/containers/sif-images; LWS 05
    Exercise 3: without /opt/cray and libcxi `import horovod.tensorflow` fails, and the
    image's Python runs after $WITH_CONDA."""
    framework = "tensorflow" if "tensorflow" in image else "pytorch"
    plan = plan_for("lumi", nodes=2, framework=framework, container=image,
                    command=("python3", "train.py"))
    lines = _module_lines(plan)
    assert "module use /appl/local/containers/ai-modules" in lines
    assert "module load singularity-AI-bindings" in lines
    assert not any("lumi-aif-singularity-bindings" in x or "/appl/local/laifs/modules" in x
                   for x in lines), lines
    assert plan.command[:8] == ("singularity", "exec", image, "bash", "-c",
                                '$WITH_CONDA && exec "$@"', "bash", "python3")
    text = render(plan)
    assert text.index("module load singularity-AI-bindings") < text.index("srun ")
    assert "singularity-AI-bindings" in plan.container.why  # the script's comment says so
    assert rules(text) == []


@pytest.mark.parametrize("image", [AIF_IMAGE, "/project/project_465000001/mine.sif"])
def test_lumi_other_images_keep_the_ai_factory_bindings(image):
    plan = plan_for("lumi", nodes=2, container=image, command=("python", "train.py"))
    lines = _module_lines(plan)
    assert "module load lumi-aif-singularity-bindings" in lines
    assert not any("singularity-AI-bindings" in x for x in lines)
    assert not any("WITH_CONDA" in str(w) for w in plan.command)


def rules(text: str) -> list[str]:
    return [f.rule for f in lint(parse_text(text), load_profile("lumi").profile)]


def test_lint_wants_singularity_ai_bindings_for_a_lust_image():
    """CONT002: the AI Factory's module does not serve a sif-images image on 2+ nodes; the
    fix names singularity-AI-bindings."""
    text = render(plan_for("lumi", nodes=2, framework="tensorflow", container=LUST_TF,
                           command=("python3", "train.py")))
    wrong = text.replace("module use /appl/local/containers/ai-modules",
                         "module use /appl/local/laifs/modules").replace(
        "module load singularity-AI-bindings", "module load lumi-aif-singularity-bindings")
    found = lint(parse_text(wrong), load_profile("lumi").profile)
    assert [f.rule for f in found] == ["CONT002"]
    assert "module load singularity-AI-bindings" in found[0].fix


def test_lumi_bundled_tensorflow_app_in_a_lust_image_warns_at_render():
    """M5: LUST's TF 2.16.1 image is Keras 3 and no LUMI source shows tf_keras: said at
    render in one line, not after the queue wait; PyTorch apps in a LUST image get none."""
    plan = plan_for("lumi", nodes=2, framework="tensorflow", app="cosmictagger",
                    container=LUST_TF)
    [warning] = [w for w in plan.warnings if "tf_keras" in w]
    assert "\n" not in warning and "$WITH_CONDA" in warning
    assert plan.command[3:6] == ("bash", "-c", '$WITH_CONDA && exec "$@"')
    assert not any("tf_keras" in w for w in plan_for(
        "lumi", nodes=2, app="resnet50", container=LUST_TORCH).warnings)


# ---------------------------------------------------------------- D6: part of a node on small-g
def _directives(plan) -> list[str]:
    return [d.text for d in plan.directives]


@pytest.mark.parametrize(("queue", "rpn", "per_dev", "gcds", "cpus"), [
    ("small-g", 1, 1, 1, 7), ("dev-g", 2, 1, 2, 7), ("small-g", 4, 2, 2, 3)])
def test_lumi_shared_partition_asks_for_the_gcds_it_uses(queue, rpn, per_dev, gcds, cpus):
    """billing.md: small-g and dev-g bill 0.5 x max(cores/8, mem/64 GB, GCDs); the AI guide's
    one-GPU job asks --gpus-per-node=1 --cpus-per-task=7 --mem-per-gpu=60G, no --exclusive.
    lumig-job.md: the GCD-near masks need a full node, so none are given; the job's GCDs are
    numbered from 0 (LTM 202-Binding.md), so every rank's mask is one of them."""
    plan = plan_for("lumi", nodes=1, ranks_per_node=rpn, ranks_per_device=per_dev, queue=queue)
    d = _directives(plan)
    assert "#SBATCH --exclusive" not in d
    assert f"#SBATCH --gpus-per-node={gcds}" in d and f"#SBATCH --cpus-per-task={cpus}" in d
    assert "#SBATCH --mem-per-gpu=60G" in d
    assert sorted({int(s.mask) for s in plan.slots}) == list(range(gcds))
    assert all(not s.cores for s in plan.slots)
    text = render(plan)
    assert "mask_cpu" not in text and f"--cpus-per-task={cpus}" in text.split("srun ")[-1]
    why = next(x for x in plan.directives if x.text.startswith("#SBATCH --gpus-per-node"))
    assert "billing.md" in why.source and "lumig-job.md" in why.source
    assert rules(text) == []


def test_lumi_shared_partition_with_every_gcd_still_takes_the_node():
    plan = plan_for("lumi", nodes=1, ranks_per_node=8, queue="small-g")
    d = _directives(plan)
    assert "#SBATCH --exclusive" in d and "#SBATCH --gpus-per-node=8" in d
    assert "mask_cpu:" in render(plan)


def test_lumi_standard_g_keeps_whole_nodes_and_says_what_small_g_would_bill():
    plan = plan_for("lumi", nodes=1, ranks_per_node=1)
    assert plan.queue == "standard-g" and "#SBATCH --gpus-per-node=8" in _directives(plan)
    [w] = [w for w in plan.warnings if "bills whole nodes" in w]  # the bill's (issue 35)
    assert "small-g" in w and "1 of the 8" in w
    assert not any("bills whole nodes" in w for w in plan_for("lumi", nodes=1).warnings)


# ---------------------------------------------------------------- M1: NCCL_SOCKET_IFNAME
def test_lumi_sets_the_slingshot_interfaces_from_two_nodes():
    """LTM 2day-20260422/205-Containers.md: NCCL_SOCKET_IFNAME "always needs to be set on
    LUMI and has only one possible value, hsn0,hsn1,hsn2,hsn3"; the AI guide dropped it in
    cdff56d without a reason: both cited. One node has no inter-node traffic."""
    for plan in (plan_for("lumi", nodes=2), plan_for("lumi", nodes=8, container=LUST_TORCH,
                                                     command=("python3", "train.py"))):
        [e] = [e for e in plan.env if e.name == "NCCL_SOCKET_IFNAME"]
        assert e.value == "hsn0,hsn1,hsn2,hsn3"
        assert "2day-20260422" in e.source and "cdff56d" in e.source
        text = render(plan)
        assert text.index("export NCCL_SOCKET_IFNAME=hsn0,hsn1,hsn2,hsn3\n") < \
            text.index("srun ")
    assert "NCCL_SOCKET_IFNAME" not in env_of(plan_for("lumi", nodes=1))


# ---------------------------------------------------------------- O1, O2, O3, N-l: LUMI notes
def test_lumi_requeue_note_cites_the_automatic_requeuing_section():
    """LUG batch-job.md "Automatic requeuing": LUMI requeues on node failure with the same job
    id, --open-mode=append keeps the output, SLURM_RESTART_COUNT counts the runs: every job
    appends (not only --requeue ones), once."""
    profile = load_profile("lumi").profile
    pre = profile.scheduler.preemption
    assert "batch-job.md" in pre.source and "do not document" not in (pre.unconfirmed or "")
    for kw in ({}, {"requeue": 2, "checkpoint_dir": "/scratch/project_465000001/ckpt"}):
        d = _directives(plan_for("lumi", nodes=2, **kw))
        assert d.count("#SBATCH --open-mode=append") == 1, d
    assert "2day-20260422 is the newest" in profile.references["LTM"]
    assert "20260807_115122" in profile.python.container.unconfirmed


# ---------------------------------------------------------------- M2: LUMI --monitor
def test_lumi_monitor_samples_drawn_power_with_the_hosts_rocm_smi():
    """LAG 06-monitoring-and-profiling/README.md: "The best indicator is instead the drawn
    power", sampled with `watch -n1 rocm-smi` on the compute node; LWS 04 the same. So the
    monitor asks rocm-smi for --showpower, and runs the node's own rocm-smi, not a container
    start every 5 s."""
    plan = plan_for("lumi", nodes=2, monitor=True)
    words = plan.monitor.gpu
    assert words[0] == "rocm-smi" and "--showpower" in words and "singularity" not in words
    text = render(plan)
    assert "singularity exec" not in text.split("$JOBGEN_MONITOR_DIR")[-1].splitlines()[0]


def test_collect_reads_mi250x_power_from_the_first_gcd_of_each_module():
    """rocm_smi.py showPower: the secondary die prints `N/A (Secondary die)`; collect averages
    the GCDs that report power, and the table shows it."""
    from jobgen.study.monitors import gpu_power_samples

    text = ("device,Average Graphics Package Power (W),GPU use (%),GPU Memory Allocated "
            "(VRAM%),VRAM Total Memory (B),VRAM Total Used Memory (B)\n"
            "card0,320.0,100,90,68702699520,1073741824\n"
            "card1,N/A (Secondary die),100,90,68702699520,2147483648\n")
    util, mem, power = gpu_power_samples(text)
    assert (util.count, util.mean) == (2, 100.0)
    assert (mem.count, mem.peak) == (2, 2048.0)
    assert (power.count, power.mean) == (1, 320.0)


# ---------------------------------------------------------------- M4: Summit's read-only homes
def _writable_check(plan):
    return next(c for c in plan.program.checks if "read-only" in c.failure)


@pytest.mark.parametrize(("cwd", "rc"), [("/ccs/home/me/run", 1), ("/ccs/proj/abc123/x", 1),
                                         ("/gpfs/alpine2/abc123/scratch/me", 0),
                                         ("/ccs/homes-elsewhere", 0)])
def test_summit_stops_before_the_launch_in_a_read_only_home(cwd, rc):
    """OLCF data/index.rst (f295512): User Home and Project Home are read-only on Summit's
    compute nodes; summit_user_guide.rst: nsys needs a file system compute nodes can write
    (GPFS). The script's preflight refuses such a submit directory with one line."""
    import subprocess

    plan = plan_for("summit", nodes=2, profile="nsys", profile_ranks="0")
    check = _writable_check(plan)
    assert "/gpfs/alpine2" in check.failure and "\n" not in check.failure
    assert "data/index.rst" in check.why
    script = f"PWD={cwd}; {check.words[2]}"  # the check's own case statement, at that PWD
    res = subprocess.run(["bash", "-c", script], capture_output=True, text=True)
    assert res.returncode == rc and (cwd in res.stdout) == bool(rc)
    text = render(plan)
    assert text.index(check.words[2].split(")")[0]) < text.index("\njsrun ")


def test_lumi_has_no_read_only_check():
    assert not any("read-only" in c.failure for c in plan_for("lumi", nodes=2).program.checks)


# ---------------------------------------------------------------- M3: JLSE one node, no MPI
@pytest.fixture(scope="module")
def emu_bin(tmp_path_factory):
    return install_bin(tmp_path_factory.mktemp("emu-bin"))


def test_jlse_one_node_runs_without_mpi(tmp_path, emu_bin):
    """No public JLSE source provides mpirun (the one-node scripts start python directly,
    MRH gpu/machine/MI250_JLSE.md): a one-node job starts its ranks with jobgen's spawner
    under --python, each on its own GCD; two nodes keep Open MPI's mpirun (TGPU, unconfirmed)."""
    import json
    import sys

    from emulation.harness import Site, run_script

    report = ("import json, os; json.dump(dict(os.environ), open(os.path.join("
              "os.environ['REPORT_DIR'], 'rank-' + os.environ['RANK'] + '.json'), 'w'))")
    plan = plan_for("jlse-mi250", nodes=1, ranks_per_node=8, python=sys.executable,
                    command=(sys.executable, "-c", report), monitor=True)
    text = render(plan)
    assert "mpirun" not in text and plan.launcher[1:3] == ("-m", "workloads.spawn")
    assert plan.launcher_fact.unconfirmed and "MI250_JLSE.md" in plan.launcher_fact.source
    reports = tmp_path / "reports"
    reports.mkdir()
    run = run_script(text, Site("jlse-mi250", "cobalt", ("amdgpu01",), "127.0.0.1"),
                     tmp_path, emu_bin, env={"REPORT_DIR": str(reports)})
    assert run.proc.returncode == 0, run.explain()
    envs = {int(p.stem.split("-")[1]): json.loads(p.read_text())
            for p in reports.glob("rank-*.json")}
    assert sorted(envs) == list(range(8)), run.explain()
    for rank, env in envs.items():
        assert (env["RANK"], env["LOCAL_RANK"], env["WORLD_SIZE"]) == (str(rank), str(rank), "8")
        assert env["ROCR_VISIBLE_DEVICES"] == str(rank) and env["MASTER_ADDR"] == "127.0.0.1"
    assert not run.calls("mpirun") and run.calls("rocm-smi")
    two = render(plan_for("jlse-mi250", nodes=2, monitor=True))
    monitors = next(x for x in two.splitlines() if "$JOBGEN_MONITOR" in x and "mpirun" in x)
    assert "-x PATH" in monitors  # N-j: the monitor's rocm-smi comes from the module's PATH


# ---------------------------------------------------------------- nits
def test_jlse_cobalt_source_is_whole_and_its_note_fits_every_directive():
    """N-a: an unquoted ` #` in YAML cut the source at "(#!/bin/bash -l,"."""
    s = load_profile("jlse-mi250").profile.scheduler
    assert s.source.endswith("TGPU job-and-queue-scheduling.md (#COBALT directives)")
    assert "#COBALT -t -n -q --jobname)" in s.source and "Cobalt setup" in s.unconfirmed


def test_summit_debug_takes_the_machine_and_the_warning_quotes_olcf():
    """N-c: the guide's debug table says Max Nodes unlimited; N-d: OLCF's own words."""
    with pytest.raises(JobgenError) as err:
        plan_for("summit", nodes=4608, walltime="25:00:00")
    assert "debug: 1-4608 nodes" in str(err.value) and "?" not in str(err.value)
    [w] = [w for w in plan_for("summit", nodes=2).warnings if "decommissioned" in w]
    assert "decommissioned on November 15, 2024 and is no longer online" in w


def test_stage_to_refusal_names_the_character_rule():
    """N-f: '/tmp/x"y' is absolute; the refusal says which characters are refused."""
    for bad in ('/tmp/x"y', "/tmp/x\\y"):
        with pytest.raises(JobgenError, match="no quote, backslash"):
            plan_for("lumi", stage="/scratch/p/d.tar", stage_to=bad)


# ---------------------------------------------------------------- stand-ins as strict as the tools
def _standin(emu_bin, tool: str, *argv: str, cwd=None):
    import subprocess

    return subprocess.run([str(emu_bin / tool), *argv], capture_output=True, text=True,
                          cwd=cwd, env={"PATH": f"{emu_bin}:/usr/bin:/bin"})


def test_rocprof_standin_refuses_what_rocprof_refuses(emu_bin, tmp_path):
    """rpl_run.sh: -o must end in .csv (exit 1); tblextr.py cannot write into a directory
    that does not exist (rocprof makes only its own data directory)."""
    bad = _standin(emu_bin, "rocprof", "--hip-trace", "-o", str(tmp_path / "x.json"), "true")
    assert bad.returncode == 1 and "must have .CSV extension" in bad.stdout
    missing = _standin(emu_bin, "rocprof", "--hip-trace", "-o",
                       str(tmp_path / "nodir" / "rank-0.csv"), "true")
    assert missing.returncode == 1 and "No such file or directory" in missing.stderr
    ok = _standin(emu_bin, "rocprof", "--hip-trace", "--stats", "-o",
                  str(tmp_path / "rank-0.csv"), "true")
    assert ok.returncode == 0 and (tmp_path / "rank-0.json").exists()


def test_lumi_part_of_a_node_runs_where_slurm_puts_it(tmp_path, emu_bin):
    """The srun stand-in refuses, as srun does, a mask outside the CPUs the job holds: the
    small-g script for one GCD gives none and runs on whatever cores Slurm hands out, while
    the whole-node masks stop there ("CPU binding outside of job step allocation")."""
    from emulation.harness import REPORT_COMMAND, Site, run_script

    site = Site("lumi", "slurm", ("nid005000",), "nid005000", nodelist="nid005000")
    held = {"JOBGEN_EMU_SLURM_CPUS": "17-23"}
    part = plan_for("lumi", nodes=1, ranks_per_node=1, queue="small-g",
                    command=REPORT_COMMAND)
    run = run_script(render(part), site, tmp_path / "part", emu_bin, env=held)
    assert run.proc.returncode == 0, run.explain()
    assert run.reports[0]["env"]["ROCR_VISIBLE_DEVICES"] == "0"
    whole = plan_for("lumi", nodes=1, ranks_per_node=8, command=REPORT_COMMAND)
    run = run_script(render(whole), site, tmp_path / "whole", emu_bin, env=held)
    assert run.proc.returncode != 0 and "CPU binding outside of job step allocation" in \
        run.proc.stderr and not run.reports


@pytest.mark.parametrize("tool", ["singularity", "apptainer"])
def test_container_standin_refuses_a_missing_image_or_bind_source(emu_bin, tmp_path, tool):
    """SingularityCE/Apptainer stop with exit 255 (FATAL) before the command when the image
    or a bind source is not there; the stand-in did not look."""
    image = tmp_path / "img.sif"
    missing = _standin(emu_bin, tool, "exec", str(image), "true")
    assert missing.returncode == 255 and "could not open image" in missing.stderr
    image.touch()
    assert _standin(emu_bin, tool, "exec", str(image), "true").returncode == 0
    bind = _standin(emu_bin, tool, "exec", "-B", "/no/such/dir:/x", str(image), "true")
    assert bind.returncode == 255 and "mount source /no/such/dir doesn't exist" in bind.stderr



def test_lint_says_srun_binds_by_default_on_lumi():
    """N-g: LTM 202-Binding.md: --cpu-bind=threads is LUMI's default; CPU009's point stands
    (not next to the GCDs), its reason was PBS's ("the OS places them")."""
    text = ("#!/bin/bash\n#SBATCH --partition=standard-g\n#SBATCH --nodes=1\n"
            "#SBATCH --gpus-per-node=8\n#SBATCH --ntasks-per-node=8\n"
            "srun python train.py\n")
    [hit] = [f for f in lint(parse_text(text), load_profile("lumi").profile)
             if f.rule == "CPU009"]
    assert "--cpu-bind=threads" in hit.message and "OS places" not in hit.message


def test_env004_leaves_a_command_prefix_alone_and_its_fix_is_the_assignment():
    """D4: `OMP_NUM_THREADS=1 srun ...` (LTM 202-Binding.md map-linear-CCD.slurm) puts the
    variable in srun's environment; the fix for a bare assignment is `export NAME=value`
    alone, not the whole line behind export (which broke the command)."""
    text = ("#!/bin/bash\n#SBATCH --partition=standard-g\n#SBATCH --nodes=2\n"
            "#SBATCH --gpus-per-node=8\n#SBATCH --ntasks-per-node=8\n"
            "NCCL_DEBUG=INFO\n"
            "OMP_NUM_THREADS=1 srun --ntasks=16 --cpus-per-task=7 \\\n    python train.py\n"
            "srun python train.py\n")
    hits = [f for f in lint(parse_text(text), load_profile("lumi").profile)
            if f.rule == "ENV004"]
    assert [(h.line, h.fix) for h in hits] == [(6, "write `export NCCL_DEBUG=INFO`")]
