"""Lint precision on the scripts users write (issue 31): the false findings of the users' corpus
(tests/lint_users/RESULTS.md), each kept from coming back, beside the case the rule must still
report. Each first assertion fails on the code before the fix (ENV002, MODULE001, CPU001 at
27160ed)."""

from __future__ import annotations

from jobgen.profiles.load import load_profile
from jobgen.review.lint import lint
from jobgen.review.scriptparse import parse_text

AURORA = ("#!/bin/bash -l\n#PBS -A proj\n#PBS -l select={nodes}\n#PBS -l walltime=00:30:00\n"
          "#PBS -l filesystems=home:flare\n#PBS -q debug\n#PBS -l place=scatter\n"
          "module load {module}\n")
POLARIS = ("#!/bin/bash -l\n#PBS -A proj\n#PBS -l select=2:system=polaris\n"
           "#PBS -l walltime=00:30:00\n#PBS -l filesystems=home:eagle\n#PBS -q debug-scaling\n"
           "#PBS -l place=scatter\nmodule use /soft/modulefiles\nmodule load conda\n{body}"
           "mpiexec -n 8 --ppn 4 --depth=8 --cpu-bind depth python train.py\n")


def _rules(text: str, site: str) -> dict[str, list]:
    out: dict[str, list] = {}
    for f in lint(parse_text(text), load_profile(site).profile):
        out.setdefault(f.rule, []).append(f)
    return out


def test_env002_the_nccl_set_unset_on_purpose_is_not_demanded():
    """ALCF's NCCL page (UG docs/polaris/applications-and-libraries/libraries/nccl.md @
    7d04a3f9 L32-36): applications that hang with the AWS plugin disable it with `unset
    NCCL_NET_GDR_LEVEL NCCL_CROSS_NIC NCCL_COLLNET_ENABLE NCCL_NET` (argonne-lcf/
    ml_communications' Polaris script does); lint said "7 of 7 not set"."""
    unset = "unset NCCL_COLLNET_ENABLE NCCL_CROSS_NIC NCCL_NET NCCL_NET_GDR_LEVEL\n"
    assert "ENV002" not in _rules(POLARIS.format(body=unset), "polaris")
    assert "ENV002" in _rules(POLARIS.format(body=""), "polaris")
    # an unset after the launch turns nothing off for it
    late = POLARIS.format(body="") + unset
    assert "ENV002" in _rules(late, "polaris")


def test_env002_no_collectives_set_for_a_launch_of_one_rank():
    """`mpiexec -n 1` (an environment check, a one-rank vLLM smoke, one node at --ppn 1) has no
    other rank to hold a collective with; a one-rank launch of a launcher (torchrun starts 12)
    still needs the set."""
    head = AURORA.format(nodes=1, module="frameworks")
    for launch in ("mpiexec -n 1 --ppn 1 python3 project/verify_environment.py\n",
                   "mpiexec -n $N --ppn 1 --hostfile $PBS_NODEFILE python train.py\n"):
        found = _rules(head + "N=$(wc -l < $PBS_NODEFILE)\n" + launch, "aurora")
        assert "ENV002" not in found, launch
    two = AURORA.format(nodes=2, module="frameworks")
    assert "ENV002" in _rules(two + "mpiexec -n 24 --ppn 12 python train.py\n", "aurora")
    for launch in ("mpiexec -n 1 --ppn 1 torchrun --standalone --nproc_per_node=12 train.py\n",
                   "mpiexec -n 1 --ppn 1 python -m torch.distributed.run --standalone "
                   "--nproc_per_node=12 train.py\n"):
        assert "ENV002" in _rules(head + launch, "aurora"), launch


def test_env002_no_oneccl_set_for_an_mpi4py_program():
    """argonne-lcf/ml_communications hardware_benchmarks/frameworks/pytorch/mpi4py/
    gpu_allreduce.py @ e128552: MPI.COMM_WORLD.Allreduce, its init_process_group commented out;
    the oneCCL minimal set is "for training workloads" (UG docs/aurora/data-science/frameworks/
    oneCCL.md L32-33). `python -m mpi4py train.py` only wraps a training program."""
    head = AURORA.format(nodes=2, module="frameworks/2024.2.1_u1") + "W=/home/u/bench/mpi4py\n"
    mpi = "mpiexec -n 4 -ppn 2 python ${W}/gpu_allreduce.py --dim=8\n"
    assert "ENV002" not in _rules(head + mpi, "aurora")
    wrapped = "mpiexec -n 4 -ppn 2 python -m mpi4py train.py\n"
    assert "ENV002" in _rules(head + wrapped, "aurora")


def test_module001_a_frameworks_release_that_carried_tensorflow():
    """ALCF's frameworks module carried TensorFlow until the 2025.2.0 release separated it
    (UG docs/aurora/system-updates.md @ 7d04a3f9 L246-269 and L341-346; tensorflow.md @
    8dd185a9): CosmicTagger's Sunspot TensorFlow scripts load frameworks/2023-03-03-experimental
    and frameworks/.2023.05.15.001. Today's default and 2025.3.1 do not carry it."""
    run = ("mpiexec -n 24 --ppn 12 --cpu-bind=list:2-8:10-16:18-24:26-32:34-40:42-48:54-60:"
           "62-68:70-76:78-84:86-92:94-100 python train_tf.py\n")
    for old in ("frameworks/2023-03-03-experimental", "frameworks/.2023.05.15.001",
                "frameworks/2022.12.30.001", "frameworks/2025.0.5"):
        for site in ("aurora", "sunspot"):
            assert "MODULE001" not in _rules(AURORA.format(nodes=2, module=old) + run, site)
    for new in ("frameworks", "frameworks/2025.3.1", "frameworks/2025.2.0"):
        assert "MODULE001" in _rules(AURORA.format(nodes=2, module=new) + run, "aurora"), new


def test_cpu_lists_after_the_last_local_rank_bind_nothing():
    """rickybalin/ALCF (ML/onlineML/submit_sunspot.sh): 12 CPU lists with --ppn 1; list i binds
    local rank i (UG docs/aurora/running-jobs-aurora.md L325), so only the first is used and no
    rank sits on core 52 (list 6). CPU004 still counts all 12 lists."""
    lists = ("0-7,104-111:8-15,112-119:16-23,120-127:24-31,128-135:32-39,136-143:40-47,144-151:"
             "52-59,156-163:60-67,164-171:68-75,172-179:76-83,180-187:84-91,188-195:92-99,"
             "196-203")
    one = AURORA.format(nodes=1, module="frameworks") + \
        f"mpiexec -n 1 --ppn 1 --cpu-bind=verbose,list:{lists} python train.py\n"
    found = _rules(one, "aurora")
    assert [f.message.split(" is bound")[0] for f in found["CPU001"]] == ["local rank 0"]
    assert "CPU004" in found
    twelve = one.replace("-n 1 --ppn 1", "-n 12 --ppn 12")
    ranks = [f.message.split(" is bound")[0] for f in _rules(twelve, "aurora")["CPU001"]]
    assert ranks == ["local rank 0", "local rank 6"]


def test_env002_no_oneccl_minimal_set_for_vllm():
    """UG docs/aurora/data-science/frameworks/oneCCL.md @ 7d04a3f9 L46: "Users of vLLM and other
    inference services should rely on the variables set by the frameworks module"; the minimal
    set is for training workloads (L32-33). Training beside it is still reported."""
    head = AURORA.format(nodes=2, module="frameworks")
    for launch in ("mpiexec -n 2 --ppn 1 vllm serve openai/gpt-oss-120b "
                   "--tensor-parallel-size 12\n",
                   "mpiexec -n 2 --ppn 1 python -m vllm.entrypoints.openai.api_server "
                   "--model m\n"):
        assert "ENV002" not in _rules(head + launch, "aurora"), launch
    assert "ENV002" in _rules(head + "mpiexec -n 24 --ppn 12 python train.py\n", "aurora")


def test_cpu001_is_an_error_only_where_the_reservation_is_documented():
    """Aurora reserves cores 0 and 52 (UG docs/aurora/running-jobs-aurora.md L285); for
    Sunspot the profile assumes the same (same hardware) but no public page says so
    (site_profiles/sunspot.yaml node.reserved.unconfirmed): an error there claimed more than
    lint knows, so it is a warning that says UNCONFIRMED."""
    text = AURORA.format(nodes=1, module="frameworks") + \
        "mpiexec -n 2 --ppn 2 --cpu-bind=list:0-3:4-7 python train.py\n"
    aurora = _rules(text, "aurora")["CPU001"]
    sunspot = _rules(text, "sunspot")["CPU001"]
    assert [f.severity for f in aurora] == ["error"]
    assert [f.severity for f in sunspot] == ["warning"] and "UNCONFIRMED" in sunspot[0].message
