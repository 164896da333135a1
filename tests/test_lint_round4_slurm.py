"""Lint round 4, Slurm and LUMI-G side (issue 31): classes of violations users make that lint
missed on the held-out sets: the scheduler's output file in a directory that cannot exist,
OpenMP threads on one CPU, AI programs recognised from more of the clues a reader uses, and
containers started without the filesystems their paths need."""

from __future__ import annotations

import pytest

from jobgen.profiles.load import load_profile
from jobgen.review.lint import lint
from jobgen.review.scriptparse import parse_text


def _found(text: str, site: str) -> dict[str, str]:
    return {f.rule: f.severity for f in lint(parse_text(text), load_profile(site).profile)}


def _all(text: str, site: str, rule: str) -> list[tuple[int, str]]:
    return [(f.line, f.severity) for f in lint(parse_text(text), load_profile(site).profile)
            if f.rule == rule]


# ---------------------------------------------------------------- SCHED008: output directory
LUMI_OUT = ("#!/bin/bash\n#SBATCH --account=project_465000001\n#SBATCH --partition=small-g\n"
            "#SBATCH --nodes=1\n#SBATCH --gpus-per-node=1\n#SBATCH --time=15\n"
            "#SBATCH --output={out}\n{body}srun python3 train.py\n")


@pytest.mark.parametrize("out", ["logs/%j/log_%x.out", "run_%j/out.txt", "logs/%A_%a/o.txt"])
def test_an_output_directory_named_per_job_fails_the_job(out):
    text = LUMI_OUT.format(out=out, body="")
    assert _all(text, "lumi", "SCHED008") == [(7, "error")]


@pytest.mark.parametrize("out", ["logs/%x-%j.out", "slurm-%j.out", "/dev/null",
                                 "$HOME/logs/%j/o.txt", "logs/job.out"])
def test_an_output_file_named_per_job_in_a_fixed_directory_is_not_reported(out):
    assert "SCHED008" not in _found(LUMI_OUT.format(out=out, body=""), "lumi")


def test_a_directory_the_script_makes_itself_is_a_note_not_an_error():
    # the mkdir runs after Slurm opened the file: too late if logs/ is missing, but it may
    # exist from an earlier run (lint cannot see the filesystem)
    text = LUMI_OUT.format(out="./logs/train.out", body="mkdir -p logs\n")
    assert _all(text, "lumi", "SCHED008") == [(7, "info")]


def test_a_pbs_output_directory_the_script_makes_is_a_note():
    text = ("#!/bin/bash -l\n#PBS -A proj\n#PBS -l select=1:system=polaris\n"
            "#PBS -l walltime=01:00:00\n#PBS -l filesystems=home:eagle\n#PBS -q debug\n"
            "#PBS -o out/job.txt\nmkdir -p out\nmpiexec -n 4 --ppn 4 python3 train.py\n")
    assert _all(text, "polaris", "SCHED008") == [(7, "info")]
    assert "SCHED008" not in _found(text.replace("mkdir -p out\n", ""), "polaris")


@pytest.mark.slow
def test_slurm_fails_a_job_whose_output_directory_is_missing(slurm, tmp_path):
    """The severity's source, on the real Slurm: the output file is opened before the script's
    first line, so the job fails at launch and its own mkdir never runs."""
    script = tmp_path / "job.sh"
    script.write_text("#!/bin/bash\n#SBATCH --output=run_%j/out.txt\n#SBATCH --time=1\n"
                      "mkdir -p made && echo ran > made/flag\n")
    assert _all(script.read_text(), "local-slurm", "SCHED008") == [(2, "error")]
    job = slurm.wait(slurm.submit(script), timeout=60)
    assert job.state == "FAILED" and job.fields.get("Reason") == "JobLaunchFailure", job.fields
    assert not (tmp_path / "made").exists()


# ---------------------------------------------------------------- CPU011: threads on one CPU
def _lumi_threads(part: str = "standard-g", directives: str = "", body: str = "",
                  srun: str = "srun ./app") -> str:
    return ("#!/bin/bash\n#SBATCH --account=project_465000001\n"
            f"#SBATCH --partition={part}\n#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=8\n"
            f"#SBATCH --gpus-per-node=8\n#SBATCH --time=15\n{directives}"
            f"export OMP_NUM_THREADS=7\n{body}{srun}\n")


def test_openmp_threads_on_a_task_of_one_cpu_share_it():
    assert _all(_lumi_threads(), "lumi", "CPU011") == [(9, "warning")]


@pytest.mark.parametrize(("directives", "body", "srun"), [
    ("", "", "srun --cpus-per-task=7 ./app"),
    ("", "", "srun -c 7 ./app"),
    ("#SBATCH --cpus-per-task=7\n", "export SRUN_CPUS_PER_TASK=$SLURM_CPUS_PER_TASK\n",
     "srun ./app"),
    ("", "", "srun --cpu-bind=mask_cpu:fe,fe00,fe0000,fe000000,fe00000000,fe0000000000,"
             "fe000000000000,fe00000000000000 ./app"),
])
def test_tasks_given_their_cores_are_not_reported(directives, body, srun):
    assert "CPU011" not in _found(_lumi_threads(directives=directives, body=body, srun=srun),
                                  "lumi")


def test_one_thread_per_task_is_not_reported():
    text = _lumi_threads().replace("OMP_NUM_THREADS=7", "OMP_NUM_THREADS=1")
    assert "CPU011" not in _found(text, "lumi")


def test_the_jobs_cpus_per_task_not_given_to_srun_is_a_note():
    # Slurm 22.05 and later releases: srun does not inherit the job's --cpus-per-task
    text = _lumi_threads(directives="#SBATCH --cpus-per-task=7\n")
    assert _all(text, "lumi", "CPU011") == [(10, "info")]


def test_a_hidden_srun_on_a_shared_partition_shares_the_jobs_cpus():
    # the launch is in a sourced file; on small-g the job holds one CPU per task
    text = _lumi_threads(part="small-g", srun="source run/common.sh")
    assert _all(text, "lumi", "CPU011") == [(8, "warning")]
    # on whole nodes the hidden srun may bind each task to several cores: a note
    text = _lumi_threads(srun="source run/common.sh")
    assert _all(text, "lumi", "CPU011") == [(8, "info")]
    # binding options carried to it in a variable: not reported
    text = _lumi_threads(body='SRUN_OPTS="--cpu-bind=$CPU_BIND ./wrapper"\n',
                         srun="source run/common.sh")
    assert "CPU011" not in _found(text, "lumi")


# ---------------------------------------------------------------- ENV002: AI programs by clues
LUMI_PY = ("#!/bin/bash\n#SBATCH --account=project_465000001\n#SBATCH --partition=standard-g\n"
           "#SBATCH --nodes=1\n#SBATCH --ntasks=1\n#SBATCH --gpus-per-node=8\n#SBATCH --time=60\n"
           "{setup}{run}\n")


def _miopen(text: str) -> bool:
    return any(f.rule == "ENV002" and "MIOPEN" in f.message
               for f in lint(parse_text(text), load_profile("lumi").profile))


@pytest.mark.parametrize(("setup", "run"), [
    # the framework's module (LUMI's EasyBuild PyTorch), then python in the batch shell
    ("module load LUMI/22.08 partition/G\nmodule load PyTorch/1.12.1-cpeGNU-22.08\n",
     "python main.py --config cfg.yaml"),
    # a conda environment named for the framework
    ("conda activate torch-2.3\n", "python main.py --config cfg.yaml"),
    ("source /scratch/project_465000001/venvs/pytorch/bin/activate\n", "python run.py"),
    # a training's own arguments
    ("", "python main.py --epochs 10 --batch-size 64"),
    ("", "singularity exec /project/project_465000001/env.sif python main.py trainer=gpu"),
    # the LUMI AI guide's bindings module for its PyTorch containers
    ("module use /appl/local/containers/ai-modules\nmodule load singularity-AI-bindings\n",
     "srun singularity exec $SIF python main.py"),
])
def test_a_python_program_a_reader_takes_for_ai_gets_the_miopen_set(setup, run):
    assert _miopen(LUMI_PY.format(setup=setup, run=run))


@pytest.mark.parametrize(("setup", "run"), [
    ("module load cray-python\n", "python main.py --config cfg.yaml"),
    ("conda activate analysis\n", "python main.py --input data.h5 --output out.h5"),
    ("module load LUMI/22.08 partition/G\n", "python postprocess.py --nx 128"),
])
def test_a_python_program_with_no_ai_clue_gets_no_miopen_set(setup, run):
    assert not _miopen(LUMI_PY.format(setup=setup, run=run))


POLARIS_SUBMITTED = (
    "#!/bin/bash -l\n#PBS -A proj\n#PBS -l filesystems=home:eagle\n"
    "# qsub -V -q debug -l select={a} -l walltime=00:30:00 job.sh\n"
    "# qsub -V -q prod -l select={b} -l walltime=00:10:00 job.sh\n"
    "# qsub -V -q debug -l select=1 -l walltime=01:00:00 -I\n"
    "mpiexec -n $NHOSTS --ppn 1 --depth=64 --cpu-bind depth python -m torch.distributed.run "
    "--nnodes $NHOSTS --nproc_per_node 4 train.py\n")


def test_the_node_count_of_the_submit_lines_in_comments_is_read_for_the_nccl_set():
    # the job is submitted with -l select on the qsub line (UG-NCCL's set is for 2+ nodes);
    # the interactive line (-I) is a session, not this job
    text = POLARIS_SUBMITTED.format(a=2, b=64)
    assert any("NCCL" in m for m in _messages(text, "polaris", "ENV002"))
    text = POLARIS_SUBMITTED.format(a=1, b=64)
    assert not any("NCCL" in m for m in _messages(text, "polaris", "ENV002"))


def _messages(text: str, site: str, rule: str) -> list[str]:
    return [f.message for f in lint(parse_text(text), load_profile(site).profile)
            if f.rule == rule]


# ---------------------------------------------------------------- CONT005: filesystems not bound
LUMI_CONT = ("#!/bin/bash\n#SBATCH --account=project_465000001\n#SBATCH --partition=small-g\n"
             "#SBATCH --nodes=1\n#SBATCH --ntasks=1\n#SBATCH --gpus-per-task=1\n"
             "#SBATCH --time=60\n"
             "SIF=/appl/local/containers/sif-images/lumi-jax-rocm-6.2.4-python-3.12.sif\n"
             "INPUT=/scratch/project_465000001/data\n{setup}"
             "srun singularity exec {flags}$SIF python /project/project_465000001/run.py "
             "--input $INPUT\n")


def test_a_container_given_project_paths_without_binds_cannot_see_them():
    found = _all(LUMI_CONT.format(setup="", flags=""), "lumi", "CONT005")
    assert found == [(10, "error")]
    message = _messages(LUMI_CONT.format(setup="", flags=""), "lumi", "CONT005")[0]
    assert "/project/project_465000001" in message and "/scratch/project_465000001" in message


@pytest.mark.parametrize(("setup", "flags"), [
    ("", "-B /scratch/project_465000001,/project/project_465000001 "),
    ("", "--bind=/pfs,/scratch,/project "),
    ("export SINGULARITY_BIND=/pfs,/scratch,/projappl,/project,/flash\n", ""),
    ("module use /appl/local/laifs/modules\nmodule load lumi-aif-singularity-bindings\n", ""),
    ("module use /appl/local/containers/ai-modules\nmodule load singularity-AI-bindings\n", ""),
    # binds computed at run time: not judged
    ("", "-B $BINDS "),
])
def test_a_container_with_its_filesystems_bound_is_not_reported(setup, flags):
    assert "CONT005" not in _found(LUMI_CONT.format(setup=setup, flags=flags), "lumi")


def test_paths_under_the_working_directory_are_mounted_by_the_runtime():
    text = LUMI_CONT.format(setup="cd /scratch/project_465000001\n",
                            flags="-B /project/project_465000001 ")
    assert "CONT005" not in _found(text, "lumi")


def test_only_the_site_that_documents_its_binds_is_checked():
    text = ("#!/bin/bash -l\n#PBS -A proj\n#PBS -l select=1:system=polaris\n"
            "#PBS -l walltime=01:00:00\n#PBS -l filesystems=home:eagle\n#PBS -q debug\n"
            "apptainer exec --fakeroot img.sif python /lus/eagle/projects/p/run.py\n")
    assert "CONT005" not in _found(text, "polaris")  # ALCF's pages say nothing of it


# ---------------------------------------------------------------- GPU008: --gpus in all
@pytest.mark.parametrize(("nodes", "gpus", "found"), [
    ("", "--gpus=1", True), ("#SBATCH --nodes=2\n", "--gpus=8", True),
    ("", "--gpus=8", False), ("#SBATCH --nodes=2\n", "--gpus=16", False),
])
def test_a_job_asking_fewer_gpus_in_all_than_its_whole_nodes_hold(nodes, gpus, found):
    text = ("#!/bin/bash\n#SBATCH --account=project_465000001\n#SBATCH --partition=standard-g\n"
            f"{nodes}#SBATCH {gpus}\n#SBATCH --ntasks=1\n#SBATCH --time=15\n"
            "srun singularity exec -B $(pwd):/work img.sif bash -c 'cd /work; python3 main.py'\n")
    assert ("GPU008" in _found(text, "lumi")) is found


@pytest.mark.parametrize(("args", "found"), [
    ("--num_workers 7", True), ("data.num_workers=8", True), ("--threads=4", True),
    ("--num_workers 1", False), ("--epochs 7", False)])
def test_a_programs_own_workers_on_a_task_of_one_cpu_share_it(args, found):
    # the LUMI AI guide sets the DataLoader's workers to the CPUs the job asks for
    text = _lumi_threads(srun=f"srun python3 train.py {args}").replace(
        "export OMP_NUM_THREADS=7\n", "")
    assert ("CPU011" in _found(text, "lumi")) is found


def test_cpus_given_per_gpu_are_not_judged():
    text = _lumi_threads(directives="#SBATCH --cpus-per-gpu=7\n",
                         srun="srun python3 train.py --num_workers 10")
    assert "CPU011" not in _found(text, "lumi")


SUMMIT_OUT = ("#!/bin/bash\n#BSUB -P ABC123\n#BSUB -W 0:30\n#BSUB -nnodes 1\n#BSUB -q batch\n"
              "#BSUB -o {out}\ncd /gpfs/alpine2/abc123/scratch/run\n"
              "jsrun -n1 -a1 -c1 ./analyse\n")


@pytest.mark.parametrize(("out", "found"), [
    ("logs/%J/out.txt", [(6, "warning")]), ("logs/out.%J", []), ("logs/%J/", [])])
def test_an_lsf_output_directory_named_per_job_loses_the_output(out, found):
    # bsub -o: the output is mailed or not stored when the path is not accessible; a path
    # ending in / is a directory LSF makes itself
    assert _all(SUMMIT_OUT.format(out=out), "summit", "SCHED008") == found


def test_a_sourced_file_that_may_bind_the_filesystems_lowers_it_to_a_warning():
    text = LUMI_CONT.format(setup="source ./env_lumi.sh\n", flags="")
    assert _all(text, "lumi", "CONT005") == [(11, "warning")]
    # an environment's activate script binds nothing
    text = LUMI_CONT.format(setup="source /scratch/project_465000001/venv/bin/activate\n",
                            flags="")
    assert _all(text, "lumi", "CONT005") == [(11, "error")]
