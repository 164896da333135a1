"""Lint's round 4 on the PBS/LSF side (issue 31): classes of violations users' scripts on ALCF
PBS (Polaris, Aurora) and OLCF Summit (LSF) showed that lint missed, each with a broken script
that now gets the finding and a clean twin that does not."""

from __future__ import annotations

import pytest

from jobgen.profiles.load import load_profile
from jobgen.review.lint import lint
from jobgen.review.scriptparse import parse_text


def _findings(text: str, site: str) -> dict[str, str]:
    return {f.rule: f.severity for f in lint(parse_text(text), load_profile(site).profile)}


SUMMIT = "#!/bin/bash\n#BSUB -P {project}\n#BSUB -W 30\n#BSUB -nnodes 1\n{body}\n"


# The Summit guide's own placeholders (olcf/olcf-user-docs @ 2745903 systems/summit_user_guide.rst
# L759 `#BSUB -P ABC123`, L3581 `-P project123`, L3635 `-P xxx`): bsub refuses a job without a
# valid project (-P is required, L784). Reported once as placeholders, as on PBS and Slurm.
@pytest.mark.parametrize("project", ["XX", "ABC123", "project123", "xxx", "<project>",
                                     "PROJECT_ID", "YourProject"])
def test_a_template_project_on_lsf_is_a_placeholder(project):
    text = SUMMIT.format(project=project, body="jsrun -n1 -a1 -g1 -c1 ./app")
    assert "TEXT002" in _findings(text, "summit")


@pytest.mark.parametrize("project", ["CLI115", "csc380", "GEN150", "ABC124"])
def test_a_real_project_on_lsf_is_no_placeholder(project):
    text = SUMMIT.format(project=project, body="jsrun -n1 -a1 -g1 -c1 ./app")
    assert "TEXT002" not in _findings(text, "summit")


POLARIS = ("#!/bin/bash -l\n#PBS -A proj\n#PBS -l select=1:system=polaris\n"
           "#PBS -l walltime=0:30:00\n#PBS -l filesystems=home:eagle\n#PBS -q debug\n"
           "module use /soft/modulefiles\n{body}\n")


# A build of a dated conda release shares its stack: conda/2024-04-29-aws-nccl is superseded
# with conda/2024-04-29 (argonne-lcf/user-guides @ 7d04a3f9 docs/polaris/system-updates.md L41-47:
# "it is recommended that all users of the previous conda/2024-04-29 module switch"), as the
# guide's own removed list names conda/2022-09-08-hvd-nccl beside conda/2022-09-08.
@pytest.mark.parametrize(("module", "rule"), [
    ("conda/2024-04-29-aws-nccl", "MODULE003"), ("conda/2024-04-29", "MODULE003"),
    ("conda/2023-10-04-foo", "MODULE002")])
def test_a_build_of_a_superseded_or_removed_conda_release_is_reported(module, rule):
    found = _findings(POLARIS.format(body=f"module load {module}\npython3 x.py"), "polaris")
    assert rule in found, found


@pytest.mark.parametrize("module", ["conda/2025-09-25", "conda", "conda/2024-04-290"])
def test_the_current_conda_release_is_not_outdated(module):
    found = _findings(POLARIS.format(body=f"module load {module}\npython3 x.py"), "polaris")
    assert "MODULE003" not in found and "MODULE002" not in found, found


# /soft was purged with the 2024-04-22 upgrade (system-updates.md L153-155 "/soft has been
# purged to allow for software to be rebuilt"): the python of a removed conda module, by path.
def test_the_install_path_of_a_removed_module_is_reported():
    body = "export PY=/soft/datascience/conda/2022-09-08/mconda3/bin/python\n$PY x.py"
    assert "MODULE002" in _findings(POLARIS.format(body=body), "polaris")


@pytest.mark.parametrize("body", [
    "export PY=/soft/datascience/conda/2025-09-25/mconda3/bin/python\n$PY x.py",
    "# was /soft/datascience/conda/2022-09-08/mconda3/bin/python\npython3 x.py",
    "export PY=/home/me/soft/datascience/conda/2022-09-08/bin/python\n$PY x.py"])
def test_a_current_install_or_a_comment_or_an_own_tree_is_not_reported(body):
    assert "MODULE002" not in _findings(POLARIS.format(body=body), "polaris")


# Summit runs the batch script on a shared launch node (olcf/olcf-user-docs @ 2745903
# systems/summit_user_guide.rst L93-100 "All commands within your job script ... will run on a
# launch node"; L3836 "Executing a parallel binary on ... a batch node without using the job
# step launcher jsrun will result in a segfault"): a program of the user's own run by its path
# is on the wrong node, whatever it computes.
@pytest.mark.parametrize("body", [
    "cd $RUN\n./rrtmgp_clouds in.nc 3500", "time ./ocean_model -n namelist.ocean",
    "BIN=/gpfs/alpine/cli115/bin\n$BIN/lmp.x -in in.lj", "OMP_NUM_THREADS=4 ./a.out"])
def test_an_own_program_in_the_summit_batch_shell_runs_on_the_launch_node(body):
    found = _findings(SUMMIT.format(project="CLI115", body=body), "summit")
    assert found.get("LAUNCH004") == "warning", found


@pytest.mark.parametrize("body", [
    "jsrun -n1 -a1 -g1 -c1 ./rrtmgp_clouds in.nc", "./run_case.sh\n./post.py out",
    "./configure --prefix=$HOME/x && make -j 4", "mkdir -p out\n/usr/bin/date",
    "source ./env/bin/activate\njsrun -n1 -a1 -g1 ./app", "cp ./bin/* out/",
    "jsrun -n1 -a1 -g1 -c1 ./app in.nc\n./post_process out.nc"])
def test_launched_programs_scripts_and_build_steps_are_not_on_the_launch_node(body):
    found = _findings(SUMMIT.format(project="CLI115", body=body), "summit")
    assert "LAUNCH004" not in found, found


def test_a_training_program_in_the_summit_batch_shell_is_still_an_error():
    found = _findings(SUMMIT.format(project="CLI115", body="python train.py"), "summit")
    assert found.get("LAUNCH004") == "error", found


def test_an_own_program_in_a_polaris_batch_shell_is_not_a_launch_node_finding():
    found = _findings(POLARIS.format(body="./rrtmgp_clouds in.nc"), "polaris")
    assert "LAUNCH004" not in found, found


SUMMIT_MPS = ("#!/bin/bash\n#BSUB -P CLI115\n#BSUB -W 30\n#BSUB -nnodes 2\n{flags}\n"
              "jsrun {rs} ./ocean_model -n namelist.ocean\n")


# Summit's V100s are EXCLUSIVE_PROCESS: "the GPU is assigned to only a single process at a
# time" (olcf/olcf-user-docs @ 2745903 systems/summit_user_guide.rst L957-961); tasks share one
# only under MPS (-alloc_flags gpumps, L942-953) or the DEFAULT mode (gpudefault, L964-971).
# Any GPU program: the resource set's -g says its tasks use GPUs.
@pytest.mark.parametrize(("flags", "rs"), [
    ("##BSUB -alloc_flags gpumps", "-n 2 -a 8 -c 8 -g 6"),
    ("", "-n 12 -a 2 -c 2 -g 1"), ("#BSUB -alloc_flags smt4", "-n12 -a2 -c2 -g1"),
    ("", "-n 2 -p 16 -c 8 -g 6")])
def test_more_tasks_than_gpus_in_a_resource_set_without_mps_is_an_error(flags, rs):
    found = _findings(SUMMIT_MPS.format(flags=flags, rs=rs), "summit")
    assert found.get("GPU004") == "error", found


@pytest.mark.parametrize(("flags", "rs"), [
    ("#BSUB -alloc_flags gpumps", "-n 2 -a 8 -c 8 -g 6"),
    ('#BSUB -alloc_flags "gpumps smt4"', "-n 12 -a 2 -c 2 -g 1"),
    ('#BSUB -alloc_flags "gpudefault"', "-n 12 -a 2 -c 2 -g 1"),
    ("", "-n 12 -a 1 -c 7 -g 1"), ("", "-n 2 -a 6 -c 42 -g 6"), ("", "-n 2 -a 8 -c 8 -g 0"),
    ("#BSUB -alloc_flags $FLAGS", "-n 12 -a 2 -c 2 -g 1")])
def test_mps_or_one_task_per_gpu_or_no_gpus_is_no_shared_device(flags, rs):
    found = _findings(SUMMIT_MPS.format(flags=flags, rs=rs), "summit")
    assert "GPU004" not in found, found


def test_a_jsrun_line_without_directives_is_not_held_to_the_alloc_flags():
    # a guide's own line (summit_user_guide.rst L1544 `jsrun -n12 -a2 -g1 -c2 -dpacked ./a.out`)
    found = _findings("jsrun -n12 -a2 -g1 -c2 -dpacked ./a.out\n", "summit")
    assert "GPU004" not in found, found


def test_a_commented_out_gpumps_turns_no_sharing_on_for_a_training_program():
    text = SUMMIT_MPS.format(flags="##BSUB -alloc_flags gpumps", rs="-n 2 -r 1 -a 12 -c 12 -g 6")
    found = _findings(text.replace("./ocean_model -n namelist.ocean", "python train.py"),
                      "summit")
    assert found.get("GPU001") == "error", found


# capacity: whole nodes (the debug queue's are shared: round 6, test_lint_round6.py)
AURORA = ("#!/bin/bash -l\n#PBS -A proj\n#PBS -l select=1\n#PBS -l walltime=0:30:00\n"
          "#PBS -l filesystems=home:flare\n#PBS -q capacity\nmodule load frameworks\n{body}\n")


# Aurora: 2 sockets, tiles 0-5 (GPUs 0-2) on socket 0, tiles 6-11 (GPUs 3-5) on socket 1
# (argonne-lcf/user-guides @ 7d04a3f9 docs/aurora/running-jobs-aurora.md, the site profile's
# node.gpus.devices). One rank per tile through a wrapper of the user's own: lint cannot see
# which rank gets which tile, but 12 ranks all bound on socket 0 leave the 6 tiles of socket 1
# driven from socket 0 whatever the mapping.
@pytest.mark.parametrize("bind", [
    "--depth=1 --cpu-bind depth", "--cpu-bind list:1:2:3:4:5:6:7:8:9:10:11:12",
    "--depth=4 --cpu-bind depth"])
@pytest.mark.parametrize("program", [
    "python train.py", "./aurora_train_uno.sh"])
def test_twelve_ranks_on_one_socket_drive_the_other_sockets_tiles(bind, program):
    body = f'echo "1 rank per GPU tile"\nmpiexec -n 12 -ppn 12 {bind} {program}'
    assert _findings(AURORA.format(body=body), "aurora").get("CPU007") == "warning"


@pytest.mark.parametrize("body", [
    "mpiexec -n 12 -ppn 12 --depth=8 --cpu-bind depth python train.py",
    "mpiexec -n 12 -ppn 12 --cpu-bind list:1-8:9-16:17-24:25-32:33-40:41-48:53-60:61-68:69-76:"
    "77-84:85-92:93-100 python train.py",
    "mpiexec -n 6 -ppn 6 --depth=1 --cpu-bind depth python train.py",
    "mpiexec -n 12 -ppn 12 --depth=1 --cpu-bind depth ./hello_mpi"])
def test_ranks_on_both_sockets_or_not_one_per_tile_are_not_far(body):
    assert "CPU007" not in _findings(AURORA.format(body=body), "aurora")


def test_polaris_numa_domains_of_one_socket_are_left_to_the_per_rank_check():
    # (no warning whatever the mapping; round 13's note says what the frameworks' usual
    # mapping, local rank r on GPU r, would give: tests/test_lint_round13.py)
    body = "mpiexec -n 4 --ppn 4 --depth=1 --cpu-bind depth python train_ddp.py"
    assert _findings(POLARIS.format(body=body), "polaris").get("CPU007") == "info"


# One process that uses one device: PyTorch's "xpu" / "cuda" without an ordinal is the current
# device (PyTorch docs tensor_attributes.rst, torch.device), tile 0 of the 12 an Aurora process
# sees (argonne-lcf/user-guides @ 7d04a3f9 docs/aurora/data-science/frameworks/pytorch.md
# L37-50). Not "one device per rank": an unnarrowed process sees them all, the claim is that
# this one uses one. PBS gives whole nodes, so the rest are billed and idle.
@pytest.mark.parametrize("body", [
    "./build/pinn_inference --device xpu --epochs 15000",
    "python3 infer.py --device=xpu:0",
    "python - <<'EOF'\nimport torch\nmodel = Net().to(\"xpu\")\nmodel(x)\nEOF",
    "python -c 'import torch; d = torch.device(\"xpu\"); run(d)'"])
def test_one_process_on_one_aurora_tile_leaves_eleven_idle(body):
    assert _findings(AURORA.format(body=body), "aurora").get("GPU008") == "warning"


@pytest.mark.parametrize("body", [
    "python - <<'EOF'\nimport torch\nmodel = AutoModel.from_pretrained(p, device_map='auto')\n"
    "model.to('xpu')\nEOF",
    "python - <<'EOF'\nimport torch\nprint(torch.xpu.device_count())\nEOF",
    "python3 infer.py --device=cpu", "python3 infer.py --device xpu --tp 12",
    "export ZE_AFFINITY_MASK=0,1,2,3,4,5,6,7,8,9,10,11\n./build/pinn_inference --device xpu",
    "mpiexec -n 12 --ppn 12 ./build/pinn_inference --device xpu"])
def test_several_devices_or_no_device_or_a_launch_is_not_one_device_process(body):
    assert "GPU008" not in _findings(AURORA.format(body=body), "aurora")


def test_one_cuda_process_on_a_polaris_node():
    body = "python3 eval.py --device cuda"
    assert _findings(POLARIS.format(body=body), "polaris").get("GPU008") == "warning"


POLARIS_NO_SELECT = ("#!/bin/bash -l\n#PBS -A proj\n{select}#PBS -l walltime=0:30:00\n"
                     "#PBS -l filesystems=home:eagle\n#PBS -q debug-scaling\n{body}\nwait\n")
_ROLES = ("sed -n 1p $PBS_NODEFILE > ServerNode\nsed -n 2p $PBS_NODEFILE > ClientNode\n"
          "mpiexec -n 1 --ppn 1 --hostfile ServerNode ./server &\n"
          "mpiexec -n 1 --ppn 1 --hostfile ClientNode ./client &")


# No -l select: OpenPBS makes one chunk from the job-wide resources (src/server/svr_jobfunc.c @
# cd7ab5ed set_select_and_place: `*cvt = '1'` L1839, place=pack L1895), one whole node at ALCF.
@pytest.mark.parametrize("body", [_ROLES, "mpiexec -n 8 --ppn 4 ./app"])
def test_a_pbs_job_without_select_that_uses_several_nodes(body):
    found = _findings(POLARIS_NO_SELECT.format(select="", body=body), "polaris")
    assert found.get("PBS007") == "warning", found


@pytest.mark.parametrize(("select", "body"), [
    ("#PBS -l select=2:system=polaris\n", _ROLES),
    ("#PBS -l select=2\n", "mpiexec -n 8 --ppn 4 ./app"),
    ("", "mpiexec -n 4 --ppn 4 ./app"),
    ("", "mpiexec -n 1 --ppn 1 --hostfile A ./server &\nmpiexec -n 1 --ppn 1 --hostfile A ./c &"),
    ("", "mpiexec -n 4 --ppn 4 --hostfile $PBS_NODEFILE ./a &\nmpiexec -n 4 --ppn 4 ./b &")])
def test_a_select_or_a_one_node_use_is_not_no_select(select, body):
    found = _findings(POLARIS_NO_SELECT.format(select=select, body=body), "polaris")
    assert "PBS007" not in found, found


@pytest.mark.parametrize(("body", "found"), [
    ("mpiexec -n 2 --ppn 1 ./build/pinn_inference --device xpu", True),
    ("mpiexec -n 2 --ppn 1 ./build/pinn_inference --device xpu --ngpus 12", False),
    ("mpiexec -n 2 --ppn 1 -env ZE_AFFINITY_MASK=0,1,2,3,4,5,6,7,8,9,10,11 "
     "./build/pinn_inference --device xpu", False),
    ("mpiexec -n 24 --ppn 12 ./build/pinn_inference --device xpu", False)])
def test_one_rank_per_node_told_one_device(body, found):
    assert ("GPU008" in _findings(AURORA.format(body=body), "aurora")) is found


def test_summit_one_rank_per_node_told_one_device():
    body = "jsrun -n 1 -r 1 -a 1 -g 6 -c 42 ./app --device cuda"
    text = SUMMIT.format(project="CLI115", body=body)
    assert _findings(text, "summit").get("GPU008") == "warning"


def test_a_device_check_before_the_launch_is_not_the_jobs_work():
    body = ("python -c \"import torch; print(torch.ones(1, device='xpu'))\"\n"
            "mpiexec -n 12 --ppn 12 --cpu-bind list:1-8:9-16:17-24:25-32:33-40:41-48:53-60:"
            "61-68:69-76:77-84:85-92:93-100 gpu_tile_compact.sh python train.py")
    assert "GPU008" not in _findings(AURORA.format(body=body), "aurora")


# The 2024-04-22 upgrade's whole removed list, not only its conda modules (argonne-lcf/
# user-guides @ 7d04a3f9 docs/polaris/system-updates.md L150-184).
@pytest.mark.parametrize(("module", "removed"), [
    ("cudatoolkit-standalone/11.4.4", True), ("cmake/3.23.2", True), ("singularity/3.8.7", True),
    ("cudatoolkit-standalone/12.2.2", False), ("spack-pe-base/0.6.1", False)])
def test_every_module_the_polaris_upgrade_removed(module, removed):
    found = _findings(POLARIS.format(body=f"module load {module}\n./app"), "polaris")
    assert ("MODULE002" in found) is removed, found


# "On Polaris and Aurora, the PBS 'ncpus' and 'ngpus' values are PER-NODE, not total for the
# job" (argonne-lcf/user-guides @ 7d04a3f9 docs/running-jobs/known-issues.md L67-69): 8 GPUs
# asked of 4-GPU Polaris nodes is a chunk no node holds.
@pytest.mark.parametrize(("select", "found"), [
    ("select=2:ngpus=8", True), ("select=1:ncpus=64:ngpus=4", False), ("select=2:ngpus=4", False)])
def test_ngpus_over_a_polaris_node_never_runs(select, found):
    text = POLARIS.replace("select=1:system=polaris", select).format(body="./app")
    assert ("PBS002" in _findings(text, "polaris")) is found


def test_ngpus_6_is_an_aurora_node():
    text = AURORA.replace("select=1", "select=1:ngpus=6").format(body="./app")
    assert "PBS002" not in _findings(text, "aurora")


# Part-node chunks without place=scatter may share a node: "on a host with ncpus=64, if you
# requested -l select=8:ncpus=8 you could end up with all of our chunks on one node"
# (argonne-lcf/user-guides @ 7d04a3f9 docs/running-jobs/index.md L168); PBS's place is free
# when none is named (OpenPBS src/server/svr_jobfunc.c @ cd7ab5ed L2219-2227).
@pytest.mark.parametrize(("select", "found"), [
    ("select=8:ncpus=8", True), ("select=2:ngpus=2", True),
    ("select=8:ncpus=8\n#PBS -l place=free", True),
    ("select=8:ncpus=8\n#PBS -l place=scatter", False), ("select=2:ncpus=64:ngpus=4", False),
    ("select=2:system=polaris", False), ("select=1:ncpus=8", False)])
def test_part_node_chunks_without_scatter_may_share_a_node(select, found):
    text = POLARIS.replace("select=1:system=polaris", select).format(body="./app")
    assert ("PBS008" in _findings(text, "polaris")) is found
