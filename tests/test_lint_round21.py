"""Lint round 21 (issue 31): PALS mpiexec's own per-rank GPU list, `--gpu-bind=list:0.0:0.1:...`
(argonne-lcf/user-guides @ 7d04a3f9 docs/aurora/running-jobs-aurora.md L564-601: rank r takes
entry r, a GPU.tile; a list of whole GPUs fails to launch). Lint did not read it: a DFT-FE job
with the guide's 12-entry lists and 6 ranks per node (heldout-2026-11-29t, read after its blind
run) got a CPU007 warning on each of its 19 launches, "ranks drive devices of the other socket",
though its 6 ranks take tiles 0.0-2.1 next to their cores 1-48; and no word of the 6 tiles (GPUs
3-5) its ranks leave idle."""

from __future__ import annotations

import random

import pytest

from jobgen.profiles.load import load_profile
from jobgen.review.lint import lint
from jobgen.review.scriptparse import parse_text

CPUS = "list:1-8:9-16:17-24:25-32:33-40:41-48:53-60:61-68:69-76:77-84:85-92:93-100"
TILES = ["0.0", "0.1", "1.0", "1.1", "2.0", "2.1", "3.0", "3.1", "4.0", "4.1", "5.0", "5.1"]


def aurora(launch: str, env: str = "") -> str:
    return ("#!/bin/bash\n#PBS -l select=4\n#PBS -l walltime=0:30:00\n#PBS -q prod\n"
            "#PBS -A proj\n#PBS -l filesystems=home:flare\n" + env + launch + "\n")


def findings(text: str, rule: str | None = None):
    out = lint(parse_text(text), load_profile("aurora").profile)
    return [f for f in out if rule is None or f.rule == rule]


def test_the_guides_twelve_entry_lists_with_six_ranks_bind_near_and_leave_six_tiles_idle():
    text = aurora(f"mpiexec -n 24 --ppn 6 --cpu-bind={CPUS} "
                  f"--gpu-bind=list:{':'.join(TILES)} ./dftfe in.prm")
    assert not [f for f in findings(text, "CPU007") if f.severity == "warning"]
    idle = findings(text, "GPU008")
    assert len(idle) == 1 and idle[0].severity == "warning", idle
    assert "tiles 0-5" in idle[0].message and "6 of the node's 12 tiles idle" in \
        idle[0].message and "GPUs 3-5 untouched" in idle[0].message


def test_the_guides_twelve_ranks_fill_the_node():
    text = aurora(f"mpiexec -n 48 --ppn 12 --cpu-bind={CPUS} "
                  f"--gpu-bind=list:{':'.join(TILES)} ./a.out")
    assert not findings(text, "GPU008") and not findings(text, "CPU007")
    assert not findings(text, "GPU005")


def test_a_list_that_sends_ranks_of_socket_0_to_tiles_of_socket_1_is_far():
    # cores 1-48 (socket 0) with tiles of GPUs 3-5 (socket 1)
    tiles = TILES[6:] + TILES[:6]
    text = aurora(f"mpiexec -n 48 --ppn 12 --cpu-bind={CPUS} --gpu-bind=list:{':'.join(tiles)} "
                  "./a.out")
    far = findings(text, "CPU007")
    assert far and far[0].severity == "warning" and "rank 0 on cores 1-8 drives device 6" in \
        far[0].message, far


@pytest.mark.parametrize("value", ["list:0:1:2:3:4:5", "list:0:1:2:3:4:5:6:7:8:9:10:11"])
def test_a_list_of_whole_gpus_fails_to_launch(value):
    text = aurora(f"mpiexec -n 24 --ppn 6 --cpu-bind=list:1-16:17-32:33-48:53-68:69-84:85-100 "
                  f"--gpu-bind={value} ./a.out")
    fails = findings(text, "GPU005")
    assert len(fails) == 1 and fails[0].severity == "error"
    assert "Failed to parse implicit GPU selection" in fails[0].message


def test_under_flat_the_profiles_own_failure_is_told_once():
    text = aurora("mpiexec -n 24 --ppn 6 --gpu-bind=list:0:1:2:3:4:5 ./a.out",
                  "export ZE_FLAT_DEVICE_HIERARCHY=FLAT\n")
    fails = findings(text, "GPU005")
    assert len(fails) == 1 and "under FLAT" in fails[0].message


def test_the_list_in_a_variable_as_the_guide_writes_it():
    text = aurora("mpiexec -n ${NTOTRANKS} --ppn ${NRANKS_PER_NODE} ${CPU_BIND_SCHEME} "
                  "${GPU_BIND_SCHEME} ./dftfe in.prm",
                  "cd \"$PBS_O_WORKDIR\"\nNRANKS_PER_NODE=6\nNTOTRANKS=24\n"
                  f"export CPU_BIND_SCHEME=\"--cpu-bind={CPUS}\"\n"
                  f"export GPU_BIND_SCHEME=\"--gpu-bind=list:{':'.join(TILES)}\"\n")
    assert [f.rule for f in findings(text) if f.severity == "warning"] == ["GPU008"]


def test_generated_lists_count_exactly_the_tiles_the_ranks_take():
    rng = random.Random(21)
    for _ in range(60):
        rpn = rng.randint(1, 12)
        tiles = rng.sample(TILES, rng.randint(rpn, 12))
        text = aurora(f"mpiexec -n {rpn * 4} --ppn {rpn} --gpu-bind=list:{':'.join(tiles)} ./a.out")
        used = {int(t.split(".")[0]) * 2 + int(t.split(".")[1]) for t in tiles[:rpn]}
        idle = findings(text, "GPU008")
        if len(used) == 12:
            assert not idle, (tiles, rpn)
        else:
            assert len(idle) == 1 and f"{12 - len(used)} of the node's 12 tiles idle" in \
                idle[0].message, (tiles, rpn, idle)


# ---- a top-level `exit` ends the script (bash(1): "exit [n] Cause the shell to exit"):
# heldout-2026-11-29t's MemXCT job runs one jsrun, then `exit 1`, then its old scaling steps;
# lint read those and its 50 findings there were judged false.
def summit(body: str) -> str:
    return ("#!/bin/bash\n#BSUB -P ABC123\n#BSUB -W 00:30\n#BSUB -nnodes 4\n"
            "#BSUB -alloc_flags gpudefault\n" + body)


def summit_rules(text: str) -> list[str]:
    return sorted(f.rule for f in lint(parse_text(text), load_profile("summit").profile)
                  if f.severity in ("warning", "error"))


FULL = "jsrun -n4 -a6 -g6 -c42 -r1 -bpacked:7 ./memxct\n"
SMALL = "jsrun -n1 -a6 -g6 -c42 -r1 -bpacked:7 ./memxct\n"


@pytest.mark.parametrize("stop", ["exit", "exit 1", "exit $rc", "exit ${rc}", 'exit "$?"',
                                  "echo done; exit 0"])
def test_steps_after_a_top_level_exit_are_not_read(stop):
    assert summit_rules(summit(FULL + stop + "\n" + SMALL + "make -j 16\n")) == []


@pytest.mark.parametrize("guarded", [
    "module load gcc || { echo failed; exit 1; }\n",
    "module load gcc || {\n  echo failed\n  exit 1\n}\n",
    "( cd /tmp && exit 1 )\n",
    "(\n  exit 1\n)\n",
    "if [ -z \"$X\" ]; then\n  exit 1\nfi\n",
    "[ -d out ] || exit 1\n",
    "die() {\n  echo \"$1\"\n  exit 1\n}\n",
    "for f in a b; do\n  exit 1\ndone\n",
    "case $1 in\n  a) exit 1 ;;\nesac\n",
    "cat <<EOF > note.txt\nexit 1\nEOF\n",
    "exit 1 2>/dev/null\n",
])
def test_an_exit_that_may_not_run_or_ends_a_group_leaves_the_rest_read(guarded):
    assert summit_rules(summit(guarded + SMALL)) == ["GPU008", "RANK002"]


def test_an_unbalanced_group_leaves_every_exit_unread():
    # a stray `}` (or a case pattern lint cannot place) and the script is read whole
    rules = summit_rules(summit("}\nexit 1\n" + SMALL))
    assert "GPU008" in rules and "RANK002" in rules  # (and TEXT006 for the stray brace)


def test_bash_agrees_which_steps_run(tmp_path):
    """The same scripts run by bash with a stand-in jsrun that records its start: the steps
    lint reads are those bash starts."""
    import shutil
    import subprocess
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash not installed")
    # The stand-in records that bash started it and with which words, nothing else: it is
    # not a jsrun (no resource sets, no LSF allocation, none of jsrun's failures), as the test
    # asks only which lines bash runs (as test_lint_round20's stand-in mpiexec does).
    stub = tmp_path / "jsrun"
    stub.write_text("#!/bin/sh\necho \"$1\" >> \"$LOG\"\n")
    stub.chmod(0o755)
    cases = ["exit 1\n", "echo done; exit 0\n", "true || { echo x; exit 1; }\n",
             "( exit 1 )\n", "f() {\n exit 1\n}\n", "[ -d /nonexistent ] && exit 1\n"]
    for case in cases:
        text = summit("jsrun -n4 ./a\n" + case + "jsrun -n1 ./b\n")
        script = tmp_path / "job.sh"
        script.write_text(text)
        log = tmp_path / "log"
        log.write_text("")
        subprocess.run([bash, str(script)], env={"PATH": f"{tmp_path}:/usr/bin:/bin",
                                                 "LOG": str(log)}, check=False,
                       capture_output=True, timeout=30)
        ran = log.read_text().split()
        read = [la.text.split()[1] for la in parse_text(text).launches]
        assert read == ran, (case, read, ran)


def test_getopts_own_variables_are_not_unset_reads():
    text = summit('while getopts "o:" opt; do\n  case $opt in\n    o) OPTIONS=$OPTARG ;;\n'
                  '  esac\ndone\nshift $(( $OPTIND - 1))\necho "$REPLY" "${PIPESTATUS[0]}"\n'
                  + FULL)
    assert "TEXT019" not in summit_rules(text)


# ---- heldout-2026-11-29t's other false findings, after its blind run
def test_mpi4py_under_the_frameworks_module_with_more_ranks_than_tiles_is_no_gpu_error():
    # pi_mpi4py.py: the frameworks module is Aurora's Python with mpi4py; 128 ranks per node
    text = aurora("module load frameworks\nmpiexec -n 512 --ppn 128 --cpu-bind depth -d 1 "
                  "python3 pi_mpi4py.py --samples 100")
    assert not findings(text, "GPU001")
    # a program with a sign of its own (torch.distributed's launcher variables) still is one
    text = aurora("module load frameworks\nexport MASTER_ADDR=$(head -1 $PBS_NODEFILE)\n"
                  "mpiexec -n 64 --ppn 16 --cpu-bind depth -d 1 python3 main.py")
    assert [f.severity for f in findings(text, "GPU001")] == ["error"]


def polaris(launch: str) -> str:
    return ("#!/bin/bash\n#PBS -l select=4\n#PBS -l walltime=0:30:00\n#PBS -q prod\n"
            "#PBS -A proj\n#PBS -l filesystems=home:eagle\ncd \"$PBS_O_WORKDIR\"\n" + launch + "\n")


@pytest.mark.parametrize("name", ["gpu_cleanup.sh", "kill_gpu_procs.sh", "gpu_check.sh",
                                  "reset_gpus.sh"])
def test_a_gpu_cleanup_step_one_per_node_is_no_gpu_program(name):
    text = polaris(f"mpiexec -n 4 --ppn 1 ./{name} speed3d_r2c")
    out = lint(parse_text(text), load_profile("polaris").profile)
    assert not [f for f in out if f.rule == "GPU008"], out


def test_the_sites_gpu_wrapper_still_marks_a_gpu_program():
    text = polaris("mpiexec -n 4 --ppn 1 --depth 8 --cpu-bind depth ./set_affinity_gpu_polaris.sh "
                   "./app")
    out = lint(parse_text(text), load_profile("polaris").profile)
    assert [f.rule for f in out if f.rule == "GPU008"] == ["GPU008"]


# ---- ENV008: RANK=$SLURM_PROCID in the batch shell is harmless where torchrun starts every
# worker (it sets RANK, LOCAL_RANK, WORLD_SIZE, ... for each: torch 2.13
# torch/distributed/run.py L207-231), and so is a launcher command kept in a variable no later
# line uses (heldout-2026-11-29t's Vmjkom jobs, three findings judged false)
def lumi(body: str) -> str:
    return ("#!/bin/bash\n#SBATCH --account=project_465000001\n#SBATCH --partition=standard-g\n"
            "#SBATCH --nodes=2\n#SBATCH --gpus-per-node=8\n#SBATCH --ntasks-per-node=1\n"
            "#SBATCH --time=01:00:00\n" + body)


def env008(text: str) -> list[str]:
    return [f.message for f in lint(parse_text(text), load_profile("lumi").profile)
            if f.rule == "ENV008"]


TORCHRUN = ("srun python3 -m torch.distributed.run --nnodes=$SLURM_NNODES --nproc-per-node=8 "
            "--rdzv-backend=c10d --rdzv-endpoint=$(hostname):29400 train.py\n")


@pytest.mark.parametrize("name", ["RANK", "LOCAL_RANK", "WORLD_SIZE"])
def test_torchrun_gives_its_workers_their_own_ranks(name):
    value = "$SLURM_LOCALID" if name == "LOCAL_RANK" else "$SLURM_PROCID"
    assert env008(lumi(f"export {name}={value}\n" + TORCHRUN)) == []


def test_the_same_export_before_a_plain_srun_still_collides():
    text = lumi("export RANK=$SLURM_PROCID\n" + TORCHRUN +
                "srun --ntasks-per-node=8 python3 eval.py\n")
    assert env008(text) and "RANK=$SLURM_PROCID" in env008(text)[0]


def test_a_launcher_command_in_a_variable_nobody_uses():
    text = lumi('export TORCH_LAUNCHER="torchrun --nnodes 2 --node_rank $SLURM_PROCID"\n'
                "srun --ntasks-per-node=8 python3 pretrain.py\n")
    assert env008(text) == []
    used = lumi('export TORCH_LAUNCHER="torchrun --nnodes 2 --node_rank $SLURM_PROCID"\n'
                "srun $TORCH_LAUNCHER pretrain.py\n")
    assert env008(used)


# ---- a function called with literal words: the names its body assigns from them
# (`local ngpus=$1`, `local nodes=$(( (ngpus + 3) / 4 ))`) take the call's values while it runs
# (heldout-2026-11-29t's CIFAR-10 scaling study: `run_case 8 4` read as --ppn ${ppn}, unknown)
from jobgen.review.scriptparse import parse_text as _parse  # noqa: E402


def _argvs(text: str) -> list[list[str]]:
    return [launch.argv for launch in _parse(text).launches]


def test_locals_of_a_function_take_each_calls_values():
    text = ("#!/bin/bash\nNG=4\nrun_case() {\n    local ngpus=$1\n    local ppn=\"$2\"\n"
            "    local nodes=$(( (ngpus + NG - 1) / NG ))\n"
            "    mpiexec -n \"${ngpus}\" --ppn \"${ppn}\" ./a --nodes $nodes\n}\n"
            "run_case 1 1\nrun_case 8 4\necho \"$ngpus\"\n")
    assert _argvs(text) == [["mpiexec", "-n", "1", "--ppn", "1", "./a", "--nodes", "1"],
                            ["mpiexec", "-n", "8", "--ppn", "4", "./a", "--nodes", "2"]]
    assert "ngpus" not in _parse(text).variables  # gone once the calls return


@pytest.mark.parametrize("value", ["$(hostname)", "\"$RANDOM_THING\"", "`date`", "$3"])
def test_a_local_lint_cannot_compute_stays_unknown(value):
    text = ("#!/bin/bash\nn=5\nf() {\n    local n=" + value + "\n    mpiexec -n $n ./a\n}\nf 2\n")
    assert _argvs(text)[0][2] != "5"  # not the outer n: unknown (as written), or the empty $3


def test_bash_agrees_on_the_values_a_call_gives(tmp_path):
    import shutil
    import subprocess
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash not installed")
    # (a recorder of the words bash gives it, not an mpiexec: see the jsrun stand-in above)
    stub = tmp_path / "mpiexec"
    stub.write_text("#!/bin/sh\necho \"$*\" >> \"$LOG\"\n")
    stub.chmod(0o755)
    rng = random.Random(7)
    for _ in range(25):
        calls = [(rng.randint(1, 64), rng.choice([1, 2, 4, 8])) for _ in range(rng.randint(1, 4))]
        text = ("#!/bin/bash\nPER=4\nrun() {\n    local n=$1\n    ppn=$2\n"
                "    local nodes=$(( (n + PER - 1) / PER ))\n"
                "    mpiexec -n ${n} --ppn \"$ppn\" ./a --nodes $nodes\n}\n" +
                "".join(f"run {n} {p}\n" for n, p in calls))
        script = tmp_path / "job.sh"
        script.write_text(text)
        log = tmp_path / "log"
        log.write_text("")
        subprocess.run([bash, str(script)], env={"PATH": f"{tmp_path}:/usr/bin:/bin",
                                                 "LOG": str(log)}, check=True, timeout=30)
        ran = [line.split() for line in log.read_text().splitlines()]
        assert [argv[1:] for argv in _argvs(text)] == ran, text


# ---- LAUNCH011: torchrun --standalone started on several nodes by the site's launcher: each
# agent makes its own rendezvous on localhost (torch 2.13 torch/distributed/run.py L476-483,
# L988-991), so the nodes train alone (heldout-2026-11-29t's sft_train, a miss with no rule)
def launch011(launch: str, nodes: int = 2) -> list[str]:
    text = ("#!/bin/bash\n#SBATCH --account=project_465000001\n#SBATCH --partition=standard-g\n"
            f"#SBATCH --nodes={nodes}\n#SBATCH --ntasks-per-node=1\n#SBATCH --gpus-per-node=8\n"
            "#SBATCH --time=01:00:00\n" + launch + "\n")
    return [f.message for f in lint(parse_text(text), load_profile("lumi").profile)
            if f.rule == "LAUNCH011"]


@pytest.mark.parametrize("launch", [
    "srun python3 -m torch.distributed.run --standalone --nproc-per-node=8 train.py",
    "srun torchrun --standalone --nproc_per_node=8 train.py",
    "srun -N 2 -n 2 torchrun --standalone --nnodes=1 --nproc_per_node=8 train.py",
])
def test_standalone_torchrun_on_two_nodes_trains_twice(launch):
    found = launch011(launch)
    assert len(found) == 1 and "2 separate trainings" in found[0]


@pytest.mark.parametrize(("launch", "nodes"), [
    ("srun python3 -m torch.distributed.run --standalone --nproc-per-node=8 train.py", 1),
    ("srun -N 1 -n 1 torchrun --standalone --nproc_per_node=8 train.py", 2),
    ("srun torchrun --nnodes=2 --rdzv-backend=c10d --rdzv-endpoint=$H:29500 train.py", 2),
    ("torchrun --standalone --nproc_per_node=8 train.py", 2),  # (the batch shell: LAUNCH001's)
])
def test_one_node_each_or_one_rendezvous_is_not_reported(launch, nodes):
    assert launch011(launch, nodes) == []
