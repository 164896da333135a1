"""Lint round 16 (issue 31), tuned on the blind misses and false findings of the spot set
2026-11-28o (tests/lint_users/spotcheck-2026-11-28): a CPU-only job on whole LUMI-G nodes, a
Summit CPU template whose program is a placeholder, a job script written one `echo` at a time,
parallel builds on Summit's launch node, nested double quotes in an assignment, and scripts
for SummitDev or Sophia told apart from Summit and Polaris."""

from __future__ import annotations

import pytest

from jobgen.profiles.load import load_profile
from jobgen.review.lint import lint
from jobgen.review.lint.site import SiteGuess, tell_site
from jobgen.review.scriptparse import parse_text


def _findings(text: str, site: str, rule: str) -> list[tuple[int, str, str]]:
    return [(f.line, f.severity, f.message) for f in
            lint(parse_text(text), load_profile(site).profile) if f.rule == rule]


# ---------------------------------------------- LUMI: --gpus-per-node=0 on a whole GPU node
# rapid-earthquake-dynamics' post-processing: small-g, --exclusive, --mem=480G, no GPU. LUMI
# bills small-g by the largest of GCDs, 8-core slices and 64 GB slices (billing.md "GPU
# billing"): the whole node's 4 GPU-hours an hour, for CPU work.
LUMI = ("#!/bin/bash\n#SBATCH --account=project_465000000\n#SBATCH --partition={part}\n"
        "#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=56\n#SBATCH --gpus-per-node=0\n"
        "{extra}#SBATCH --time=00:30:00\nsrun ./post input.h5\n")


def test_a_cpu_only_job_on_a_whole_lumi_g_node_is_waste():
    found = _findings(LUMI.format(part="small-g", extra="#SBATCH --exclusive\n"), "lumi",
                      "GPU008")
    assert [(line, sev) for line, sev, _ in found] == [(6, "warning")]
    assert "CPU-only job" in found[0][2] and "all 8 device(s)" in found[0][2]
    # standard-g gives whole nodes by itself
    found = _findings(LUMI.format(part="standard-g", extra=""), "lumi", "GPU008")
    assert [(line, sev) for line, sev, _ in found] == [(6, "warning")]


def test_a_zero_gpu_job_that_shares_a_small_g_node_is_left_alone():
    # without --exclusive small-g bills the slices asked for: not a whole node's bill
    assert _findings(LUMI.format(part="small-g", extra=""), "lumi", "GPU008") == []


# --------------------------------------- Summit: a CPU template whose program is a placeholder
SUMMIT = ("#!/bin/bash\n#BSUB -P ABC123\n#BSUB -W 0:10\n#BSUB -nnodes 1\n#BSUB -J WarpX\n"
          "export OMP_NUM_THREADS=21\n")


def test_a_placeholder_for_the_program_still_lets_gpu008_read_the_options():
    # WarpX's summit_power9.bsub: `jsrun -n 2 -a 1 -c 21 ... <path/to/executable> <input file>`
    step = "jsrun -n 2 -a 1 -c 21 -r 2 -d packed -b rs <path/to/executable> <input file>\n"
    found = _findings(SUMMIT + step, "summit", "GPU008")
    assert [(line, sev) for line, sev, _ in found] == [(7, "warning")]


@pytest.mark.parametrize("step", ["jsrun <options> ./a.out\n", "jsrun -n 6 <more options> ./a\n",
                                  "jsrun ... ./a.out\n"])
def test_a_placeholder_for_the_options_is_not_read(step):
    # the Summit guide's own `jsrun <options> ./a.out &` examples: what they ask is unknown
    assert _findings(SUMMIT + step, "summit", "GPU008") == []


# ------------------------------------------------ a job script written one echo at a time
# nekRS's nrsqsub_polaris: `echo "#PBS -l filesystems=home:eagle:grand" >>$SFILE`
GENERATOR = ("#!/bin/bash\nPROJ_ID=MyProject\nnodes=2\nSFILE=run.pbs\n"
             "echo \"#!/bin/bash\" > $SFILE\necho \"#PBS -A $PROJ_ID\" >>$SFILE\n"
             "echo \"#PBS -l walltime=00:30:00\" >>$SFILE\n"
             "echo \"#PBS -l filesystems={fs}\" >>$SFILE # where the data is\n"
             "echo \"#PBS -l select=$nodes:system=polaris\" >>$SFILE\n"
             "echo \"cd \\$PBS_O_WORKDIR\" >> $SFILE\nqsub $SFILE\n")


def test_a_job_script_written_by_echo_lines_is_linted_on_those_lines():
    found = _findings(GENERATOR.format(fs="home:eagle:theta-fs0"), "polaris", "ALCF003")
    assert [(line, sev) for line, sev, _ in found] == [(8, "error")]
    assert found[0][2].startswith("in the job script the echo lines from line 5 write:")
    assert _findings(GENERATOR.format(fs="home:eagle"), "polaris", "ALCF003") == []


def test_echo_lines_without_directives_are_not_a_job_script():
    text = ("#!/bin/bash\n#PBS -l select=1\n#PBS -l filesystems=home:eagle\n#PBS -A P\n"
            "#PBS -l walltime=0:10:00\necho \"x=1\" > log.txt\necho \"grand\" >> log.txt\n")
    assert _findings(text, "polaris", "ALCF003") == []


def test_a_second_truncating_echo_starts_another_file():
    # `>` writes the file again: the directive of the first file is not the second's
    text = ("#!/bin/bash\nF=a.pbs\necho '#PBS -l filesystems=home:theta-fs0' > $F\nqsub $F\n"
            "echo '#PBS -l filesystems=home:eagle' > $F\necho '#PBS -l select=1' >> $F\n")
    found = _findings(text, "polaris", "ALCF003")
    assert [line for line, _, _ in found] == [3]


# ---------------------------------------------------- Summit: a parallel build on the launch node
@pytest.mark.parametrize("build", ["make -j", "make -j8 all", "make --jobs=4", "ninja",
                                   "cmake --build build -j 8", "time make -sj"])
def test_a_parallel_build_in_a_summit_batch_shell_runs_on_the_launch_node(build):
    text = SUMMIT + f"{build}\njsrun -n 6 -a 1 -c 7 -g 1 -b packed:7 ./app\n"
    found = _findings(text, "summit", "LAUNCH004")
    assert [(line, sev) for line, sev, _ in found] == [(7, "warning")]
    assert "parallel build" in found[0][2] and "launch node" in found[0][2]


@pytest.mark.parametrize("build", ["make", "make install", "ninja -j1",
                                   "jsrun -n1 -c42 -g0 -bpacked:42 make -j42"])
def test_a_serial_build_or_one_run_on_a_compute_node_is_left_alone(build):
    text = SUMMIT + f"{build}\njsrun -n 6 -a 1 -c 7 -g 1 -b packed:7 ./app\n"
    assert _findings(text, "summit", "LAUNCH004") == []


def test_a_parallel_build_where_the_batch_shell_runs_on_a_compute_node_is_left_alone():
    # Polaris: the batch shell runs on the job's first compute node (no launch node)
    text = ("#!/bin/bash\n#PBS -A P\n#PBS -l select=1\n#PBS -l walltime=0:10:00\n"
            "#PBS -l filesystems=home:eagle\nmake -j\n"
            "mpiexec -n 4 --ppn 4 --depth 8 --cpu-bind depth ./app\n")
    assert _findings(text, "polaris", "LAUNCH004") == []


# --------------------------------------------- TEXT021: nested double quotes in an assignment
# AMReX workflow's run_amrex_gpu_tutorials.summit: the second `"` ends the string, so
# `-disable_gpu_hooks""` runs as a command with SMPIARGS+=... and PAMI_...=1 as its environment
# (bash manual 3.7.1): SMPIARGS stays empty.
@pytest.mark.parametrize("line", [
    'SMPIARGS+=" --smpiargs="-x PAMI_DISABLE_CUDA_HOOK=1 -disable_gpu_hooks""',
    'ARGS=" --mca="btl ^openib""',
])
def test_nested_double_quotes_end_an_assignment_early(line):
    found = _findings(SUMMIT + line + "\njsrun -n 6 -a 1 -c 7 -g 1 -b packed:7 ./app\n",
                      "summit", "TEXT021")
    assert [(n, sev) for n, sev, _ in found] == [(7, "warning")]
    assert "is never set" in found[0][2]


@pytest.mark.parametrize("line", [
    'SMPIARGS+=" --smpiargs=\'-x PAMI_DISABLE_CUDA_HOOK=1 -disable_gpu_hooks\'"',
    'SMPIARGS+=" --smpiargs=\\"-gpu\\""',
    'CC="gcc" make',                   # a prefix assignment for a command, on purpose
    'OMP_NUM_THREADS="7" jsrun -n 6 -a 1 -c 7 -g 1 -b packed:7 ./app',
    'X="a"b c',                        # (no leading dash, no leftover quotes: a command c)
    'OPTS="--smpiargs="-gpu""',        # one word: OPTS=--smpiargs=-gpu, what was meant
])
def test_quotes_that_do_not_end_early_are_left_alone(line):
    assert _findings(SUMMIT + line + "\n", "summit", "TEXT021") == []


# ------------------------------------------------------ site: SummitDev and Sophia apart
def _guess(text: str) -> SiteGuess:
    return tell_site(text)[0]


def test_a_summitdev_script_is_not_told_as_summit():
    text = ("#!/bin/bash\n#BSUB -P AST106SUMDEV\n#BSUB -W 0:10\n#BSUB -nnodes 8\n"
            "cd /lustre/atlas/scratch/$USER/ast106/run\njsrun -n 8 -a 20 -c 20 ./Castro3d.ex\n")
    guess = _guess(text)
    assert guess.site is None
    assert any("retired OLCF system" in clue for clue in guess.clues)


def test_a_sophia_script_is_not_told_as_polaris():
    text = ("#!/bin/bash\n#PBS -A MyProject\n#PBS -q by-gpu\n#PBS -l select=2\n"
            "#PBS -l filesystems=home:eagle\n#PBS -l walltime=1:00:00\n"
            "cd /lus/eagle/projects/MyProject\ntorchrun --standalone --nproc_per_node=2 t.py\n")
    guess = _guess(text)
    assert guess.site is None
    assert any("Sophia" in clue for clue in guess.clues)


def test_a_summit_script_is_still_told_as_summit():
    text = ("#!/bin/bash\n#BSUB -P AST106\n#BSUB -W 0:10\n#BSUB -nnodes 8\n"
            "cd /gpfs/alpine/ast106/scratch/$USER\njsrun -n 48 -a 1 -c 7 -g 1 ./Castro3d.ex\n")
    assert _guess(text).site == "summit"


# ------------------------------------- LUMI: torchrun's workers without --numa-binding
# heldout-2026-11-27k's parameter-golf jobs: one srun task per node, torchrun starting 8
# workers in it, no binding of their own. The LUMI AI guide (05-multi-gpu-and-node/README.md
# L278-283, since 2026-05-18) binds them with torchrun --numa-binding=exclusive; before, in
# the program (psutil): a note, since lint cannot see the program.
TORCHRUN = ("#!/bin/bash\n#SBATCH --account=project_465000000\n#SBATCH --partition=standard-g\n"
            "#SBATCH --nodes=2\n#SBATCH --gpus-per-node=8\n#SBATCH --ntasks-per-node=1\n"
            "#SBATCH --cpus-per-task=56\n#SBATCH --time=01:00:00\nNPROC=8\n")


@pytest.mark.parametrize("launch", [
    "srun singularity exec $SIF torchrun --nnodes=2 --nproc_per_node=8 train.py",
    "srun singularity exec $SIF python -m torch.distributed.run --nproc-per-node \"$NPROC\" t.py",
    "srun bash -c 'torchrun --nproc_per_node=gpu train.py'",
])
def test_torchrun_workers_without_the_guides_numa_binding_are_a_note(launch):
    found = _findings(TORCHRUN + launch + "\n", "lumi", "CPU009")
    assert [(line, sev) for line, sev, _ in found] == [(10, "info")]
    assert "8 workers per node" in found[0][2] and "--numa-binding=exclusive" in found[0][2]


@pytest.mark.parametrize("launch", [
    "srun singularity exec $SIF torchrun --numa-binding=exclusive --nproc_per_node=8 train.py",
    "srun singularity exec $SIF torchrun --nproc_per_node=1 train.py",
    "srun numactl_bind.sh torchrun --nproc_per_node=8 train.py",
])
def test_bound_or_single_torchrun_workers_are_left_alone(launch):
    assert _findings(TORCHRUN + launch + "\n", "lumi", "CPU009") == []


def test_sites_whose_guides_name_no_torchrun_binding_get_no_such_note():
    text = ("#!/bin/bash\n#PBS -A P\n#PBS -l select=1\n#PBS -l walltime=0:10:00\n"
            "#PBS -l filesystems=home:eagle\ntorchrun --standalone --nproc_per_node=4 t.py\n")
    assert not [f for f in _findings(text, "polaris", "CPU009") if "workers per node" in f[2]]


# ------------------------------------- WALL001: a Summit job naming no queue goes to batch
# heldout-2026-11-28p's TIES_MD job: -W 240 on 4 nodes, no -q. bsub sends it to the default
# queue batch (summit_user_guide.rst L842 "submitted to default queue <batch>", L1088-1089),
# whose bin for 1-45 nodes allows 2 hours.
def test_a_summit_job_without_a_queue_is_held_to_the_default_queues_limits():
    text = ("#!/bin/bash\n#BSUB -P ABC123\n#BSUB -W 240\n#BSUB -nnodes 4\n"
            "jsrun -n 24 -a 1 -c 7 -g 1 -b packed:7 ./md\n")
    found = _findings(text, "summit", "WALL001")
    assert [(line, sev) for line, sev, _ in found] == [(3, "error")]
    assert "default queue batch" in found[0][2] and "names no queue" in found[0][2]
    # 46 nodes fall in bin 4 (6 h): 4 h is within it
    assert _findings(text.replace("-nnodes 4", "-nnodes 46"), "summit", "WALL001") == []
    # a named queue is held to its own limits (debug: 2 h), as before
    found = _findings(text.replace("#BSUB -nnodes 4\n", "#BSUB -nnodes 4\n#BSUB -q debug\n"),
                      "summit", "WALL001")
    assert [line for line, _, _ in found] == [3] and "default" not in found[0][2]


def test_a_fragment_without_directives_of_its_own_is_not_held_to_a_default_queue():
    text = "#!/bin/bash\n# run inside a job\njsrun -n 6 -a 1 -c 7 -g 1 ./md\n"
    assert _findings(text, "summit", "WALL001") == []


# -------------------------- after the blind run of heldout-2026-11-28p (tuned on its misses)
SUMMIT_JOB = ("#!/bin/bash\n#BSUB -P ABC123\n#BSUB -W 1:00\n#BSUB -nnodes 2\n{flags}"
              "export OMP_NUM_THREADS={threads}\n"
              "jsrun -n 12 -r 6 -a 7 -c 7 -g 0 -b packed:1 ./homme\n")


@pytest.mark.parametrize("flags,threads,found", [
    ("", 4, False),                                   # Summit's default smt4: {0:4} per core
    ("#BSUB -alloc_flags smt4\n", 4, False),          # E3SM's POWER9 run
    ("#BSUB -alloc_flags smt4\n", 8, True),
    ("#BSUB -alloc_flags \"gpumps smt1\"\n", 4, True),
    ("#BSUB -alloc_flags smt2\n", 2, False),
])
def test_cpu011_counts_the_hardware_threads_of_the_jobs_smt_level(flags, threads, found):
    text = SUMMIT_JOB.format(flags=flags, threads=threads)
    assert bool(_findings(text, "summit", "CPU011")) is found


def test_a_submitter_scripts_login_node_steps_are_not_the_jobs():
    # Cardinal's job_summit: no directives, `#/bin/bash`, a one-rank mpirun precompile on the
    # login node, then `bsub ... "jsrun ..."` from a variable
    text = ("#/bin/bash\nnodes=$1\nmpirun -np 1 $NEKRS_HOME/bin/nekrs --setup c --build-only 6\n"
            "cmd=\"bsub -nnodes $nodes -W 1:00 -P ABC123 jsrun -n6 -g1 ./cardinal\"\n$cmd\n")
    assert _findings(text, "summit", "TEXT003") == []
    assert _findings(text, "summit", "LAUNCH001") == []
    # the same lines as a batch script (directives of its own): both are reported again
    job = text.replace("#/bin/bash\n", "#/bin/bash\n#BSUB -nnodes 1\n#BSUB -W 1:00\n"
                       "#BSUB -P ABC123\n")
    assert _findings(job, "summit", "TEXT003") and _findings(job, "summit", "LAUNCH001")


def test_background_python_modules_without_wait_end_with_the_job():
    # APPFL-SIM's sweep: four `CUDA_VISIBLE_DEVICES=i python -m appfl_sim.runner ... &`
    text = ("#!/bin/bash -l\n#PBS -A P\n#PBS -l select=1\n#PBS -l walltime=2:00:00\n"
            "#PBS -l filesystems=home:eagle\n#PBS -q preemptable\n" + "".join(
                f"CUDA_VISIBLE_DEVICES={i} python -m appfl_sim.runner --config c{i}.yaml &\n"
                for i in range(4)))
    found = _findings(text, "polaris", "LAUNCH007")
    assert [(line, sev) for line, sev, _ in found] == [(7, "error")]
    assert _findings(text + "wait\n", "polaris", "LAUNCH007") == []
    # a module that serves (python -m http.server &) is a service, not the job's work
    served = text.split("CUDA_VISIBLE")[0] + "python -m http.server 8000 &\npython t.py\n"
    assert _findings(served, "polaris", "LAUNCH007") == []


def test_every_jsrun_saying_g0_is_a_note_even_when_the_program_is_a_variable():
    # E3SM's POWER9 comparison: `jsrun ... -g0 $exexx` with exexx a path the script sets
    text = ("#!/bin/bash\n#BSUB -P ABC123\n#BSUB -W 1:00\n#BSUB -nnodes 2\n"
            "exexx=${HOME}/bld/theta-nlev128\njsrun -n 12 -r 6 -a 7 -c 7 -g0 $exexx\n")
    found = _findings(text, "summit", "GPU008")
    assert [(line, sev) for line, sev, _ in found] == [(6, "info")]


def test_a_path_into_a_removed_summit_install_is_a_removed_module():
    # E3SM's nsys under /sw/summit/cuda/10.1.243 (removed with RHEL 8, software-news.rst L728)
    text = ("#!/bin/bash\n#BSUB -P ABC123\n#BSUB -W 1:00\n#BSUB -nnodes 1\n"
            "jsrun -n 6 -a 1 -c 7 -g 1 /sw/summit/cuda/10.1.243/nsight-systems/2020.1.0/bin/nsys"
            " profile ./a.out\n"
            "export LD_LIBRARY_PATH=/sw/summit/cuda/11.0.3/lib64:$LD_LIBRARY_PATH\n")
    found = _findings(text, "summit", "MODULE002")
    assert [(line, sev) for line, sev, _ in found] == [(5, "error")]
    assert found[0][2].startswith("/sw/summit/cuda/10.1.243/nsight-systems/2020.1.0/bin/nsys "
                                  "is the install of cuda/10.1.243")


def test_an_old_oneapi_module_on_aurora_is_outdated():
    text = ("#!/bin/sh\n#PBS -A P\n#PBS -l select=1\n#PBS -l walltime=1:00:00\n"
            "#PBS -l filesystems=home:flare\nmodule load oneapi/release/2023.12.15.001\n")
    found = _findings(text, "aurora", "MODULE003")
    assert [(line, sev) for line, sev, _ in found] == [(6, "info")]


def test_a_status_read_after_an_echo_is_the_echos():
    # UAAG2's sampling job: python ...; echo "completed"; if [ $? -eq 0 ]
    text = ("#!/bin/bash\n#SBATCH --account=project_465000000\n#SBATCH --partition=small-g\n"
            "#SBATCH --gpus-per-node=1\n#SBATCH --time=1:00:00\n"
            "python scripts/generate_ligand.py --n 10\necho \"sampling completed\"\n"
            "if [ $? -eq 0 ]; then echo ok; else exit 1; fi\n")
    found = _findings(text, "lumi", "TEXT016")
    assert [(line, sev) for line, sev, _ in found] == [(8, "warning")]
    assert "always 0" in found[0][2] and "generate_ligand.py" in found[0][2]
    # the status kept right after the command: nothing to report
    kept = text.replace("echo \"sampling completed\"\nif [ $? -eq 0 ]",
                        "rc=$?\necho \"sampling completed\"\nif [ $rc -eq 0 ]")
    assert _findings(kept, "lumi", "TEXT016") == []
    # an echo right after another echo: no command meant
    two = ("#!/bin/bash\necho start\necho next\nif [ $? -ne 0 ]; then exit 1; fi\n")
    assert _findings(two, "lumi", "TEXT016") == []


# ------------------------------ SCHED012: array tasks past the shard count they are given
# heldout-2026-11-28p's crux ratings job: `--array=0-10%4`, `--shard $SLURM_ARRAY_TASK_ID
# --total_shards 10`: task 10 loads a 70B model for an empty shard.
ARRAY = ("#!/bin/bash\n#SBATCH --account=project_465000000\n#SBATCH --partition=small-g\n"
         "#SBATCH --array={arr}\n#SBATCH --gpus-per-node=1\n#SBATCH --time=1:00:00\n"
         "python rate.py --shard $SLURM_ARRAY_TASK_ID {count}\n")


@pytest.mark.parametrize("arr,count,extra", [
    ("0-10%4", "--total_shards 10", 1), ("0-15", "--num-shards=8", 8), ("1-11", "--n_splits 10", 1),
])
def test_array_indices_past_the_shard_count_are_tasks_without_work(arr, count, extra):
    found = _findings(ARRAY.format(arr=arr, count=count), "lumi", "SCHED012")
    assert [(line, sev) for line, sev, _ in found] == [(4, "warning")]
    assert f"{extra} task(s) get an index past the last part" in found[0][2]


@pytest.mark.parametrize("arr,count", [
    ("0-9", "--total_shards 10"), ("1-10", "--total_shards 10"),   # 1-based shards: all used
    ("0-10", "--total_shards $N"), ("0-10", "--shards 4"),          # unknown count / not a count
    ("0-10", ""),
])
def test_arrays_that_match_their_shards_are_left_alone(arr, count):
    assert _findings(ARRAY.format(arr=arr, count=count), "lumi", "SCHED012") == []
