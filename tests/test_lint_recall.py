"""Lint recall on users' scripts (issue 31, tests/lint_users): what users write that lint did
not read or check before. Each test fails on the code before this change."""

from __future__ import annotations

from jobgen.profiles.load import load_profile
from jobgen.review.lint import lint
from jobgen.review.lint.scope import placeholders
from jobgen.review.scriptparse import parse_text


def findings(text: str, site: str) -> list[tuple[str, int]]:
    return [(f.rule, f.line) for f in lint(parse_text(text), load_profile(site).profile)]


def test_a_module_named_through_a_variable_is_the_module_it_names():
    s = parse_text("#!/bin/bash\nMODULE=conda/2022-09-08\nmodule load $MODULE\nml ${MODULE}\n")
    assert s.modules == [(3, "module load conda/2022-09-08"), (4, "module load conda/2022-09-08")]


def test_a_wrapper_function_called_with_computed_words_still_runs_the_launch():
    # HydraGNN's Aurora scripts: `function cmd() { echo "$@"; time "$@"; }` then
    # `cmd mpiexec -n "$NRANKS" -ppn "$RANKS_PER_NODE" python ...`
    s = parse_text('#!/bin/bash\nfunction cmd() {\n  echo "$@"\n  time "$@"\n}\n'
                   'NRANKS=$((NODES * 12))\n'
                   'cmd mpiexec -n "$NRANKS" -ppn 12 python -u "$DIR/train.py" --x=1\n')
    assert len(s.launches) == 1
    launch = s.launches[0]
    assert launch.at == 7 and launch.argv[:5] == ["mpiexec", "-n", "$NRANKS", "-ppn", "12"]
    assert launch.argv[-2:] == ["$DIR/train.py", "--x=1"]


def test_a_default_value_is_the_scripts_own_unless_the_scheduler_sets_the_name():
    s = parse_text("#!/bin/bash\nexport PPN=${PPN:-4}\nID=${PBS_JOBID:-none}\n"
                   "mpiexec -n 8 --ppn ${PPN} ./a.out ${RANKS:-2}\n")
    assert s.variables["PPN"] == "4" and s.variables["ID"] == "${PBS_JOBID:-none}"
    assert s.launches[0].argv == ["mpiexec", "-n", "8", "--ppn", "4", "./a.out", "2"]


def test_a_launch_in_a_function_gets_the_modules_loaded_before_the_call():
    # The frameworks module sets FLAT (12 devices): read at the call, not at the function's
    # line, 12 ranks per node fit; read at the function's line they seemed 12 on 6 GPUs.
    text = ("#!/bin/bash\n#PBS -A p\n#PBS -l select=1\n#PBS -l walltime=1:00:00\n"
            "#PBS -l filesystems=home:flare\n#PBS -q debug\n"
            "run() {\n  mpiexec -n 12 --ppn 12 --cpu-bind list:1-8:9-16:17-24:25-32:33-40:41-48:"
            "53-60:61-68:69-76:77-84:85-92:93-100 python train.py\n}\n"
            "module load frameworks\nrun\n")
    assert "GPU001" not in {r for r, _ in findings(text, "aurora")}


POLARIS = ("#!/bin/bash\n#PBS -A p\n#PBS -l select=2\n#PBS -l walltime=1:00:00\n"
           "#PBS -l filesystems=home:eagle\n#PBS -q debug-scaling\n")


def test_cpu_bind_none_is_unbound_and_gpu_programs_are_held_to_binding():
    ai = POLARIS + "mpiexec -n 8 --ppn 4 --cpu-bind none python train.py\n"
    assert ("CPU009", 7) in findings(ai, "polaris")
    # a GPU program lint does not know as AI: one rank per GPU in a script that speaks of
    # GPUs, a device wrapper, a training wrapper
    gpus = POLARIS + "GPUS_PER_NODE=4\nmpiexec -n 8 --ppn $GPUS_PER_NODE ./alltoall_perf\n"
    assert ("CPU009", 8) in findings(gpus, "polaris")
    for wrapper in ("./set_affinity_gpu_polaris.sh", "$PBS_O_WORKDIR/train.sh"):
        text = POLARIS + f"mpiexec -n 6 --ppn 3 {wrapper} ./a.out\n"
        assert ("CPU009", 7) in findings(text, "polaris")
    # not a GPU program: 32 ranks of a CPU program; 16 (4 per GPU) or 4 ranks of an MPI
    # hello world in a script that never speaks of GPUs (ALCF's container page); 3 ranks
    for ranks, words in ((32, "GPUS=4\n"), (16, ""), (4, ""), (3, "GPUS=4\n")):
        text = POLARIS + words + f"mpiexec -n {2 * ranks} --ppn {ranks} ./a.out\n"
        assert "CPU009" not in {r for r, _ in findings(text, "polaris")}, ranks
    bound = POLARIS + "mpiexec -n 8 --ppn 4 --cpu-bind depth -d 8 ./alltoall_perf\n"
    assert "CPU009" not in {r for r, _ in findings(bound, "polaris")}


def test_template_projects_and_paths_without_angle_brackets_are_placeholders():
    for directive in ("#PBS -A YourProject", "#SBATCH --account=your_project_number",
                      "#SBATCH --account=project_number", "#BSUB -P PROJECTNAME",
                      "#SBATCH -A project_465XXXXXX", "#PBS -A PROJECT"):
        s = parse_text(f"#!/bin/bash\n{directive}\n")
        assert placeholders(s) == [(2, directive.split()[-1].split("=")[-1])], directive
    for real in ("#PBS -A datascience", "#SBATCH --account=project_465001020",
                 "#BSUB -P CSC499", "#PBS -A MyProjectX1", "#PBS -A projects"):
        assert placeholders(parse_text(f"#!/bin/bash\n{real}\n")) == [], real
    s = parse_text("#!/bin/bash\nVENV=path\nsource $VENV/bin/activate\n"
                   "OUT=/lus/x/path/out\nP=paths\n")
    assert [line for line, _ in placeholders(s)] == [2]


def _rules(text: str, site: str) -> set[str]:
    return {r for r, _ in findings(text, site)}


def test_idle_devices_on_whole_nodes():
    one = POLARIS + "mpiexec -n 2 --ppn 1 --cpu-bind depth -d 32 ./set_affinity_gpu.sh python "
    assert ("GPU008", 7) in findings(one + "train.py\n", "polaris")
    # a DDP program one rank per node, named so; 8 of 12 Aurora tiles (FLAT)
    assert "GPU008" in _rules(POLARIS + "mpiexec -n 2 --ppn 1 --cpu-bind depth -d 32 python "
                              "ddp_train.py\n", "polaris")
    aurora = ("#!/bin/bash\n#PBS -A p\n#PBS -l select=1\n#PBS -l walltime=1:00:00\n"
              "#PBS -l filesystems=home:flare\n#PBS -q capacity\nmodule load frameworks\n")
    assert "GPU008" in _rules(aurora + "mpiexec -n 4 --ppn 4 --cpu-bind list:1-8:9-16:17-24:"
                              "25-32 python train.py\n", "aurora")
    lumi = ("#!/bin/bash\n#SBATCH --account=project_465000000\n#SBATCH --partition={p}\n"
            "#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=4\n#SBATCH --gpus-per-node={g}\n"
            "#SBATCH --time=1:00:00\nsrun ./select_gpu python train.py\n")
    assert "GPU008" in _rules(lumi.format(p="standard-g", g=8), "lumi")
    assert "GPU008" not in _rules(lumi.format(p="small-g", g=4), "lumi")  # shared: 4 asked


def test_programs_that_drive_several_devices_from_one_rank_are_not_idle():
    for program in ("torchrun --nproc_per_node=4 train.py", "python -m torch.distributed.run "
                    "--nproc_per_node=4 train.py", "python train_jax.py",
                    "python train.py --tensor-parallel-size 4", "vllm serve model",
                    "python train.py --num_gpus 4", "python tf_train.py",
                    "python train_tensorflow.py"):
        text = POLARIS + f"mpiexec -n 2 --ppn 1 --cpu-bind depth -d 32 {program}\n"
        assert "GPU008" not in _rules(text, "polaris"), program
    # one rank per device in use; per-node launches in the background that fill the node
    full = POLARIS + "mpiexec -n 8 --ppn 4 --cpu-bind depth -d 8 python train.py\n"
    assert "GPU008" not in _rules(full, "polaris")
    bg = POLARIS + ("for h in a b; do\n  mpiexec -n 1 --ppn 1 --hosts $h ./set_affinity_gpu.sh "
                    "python train.py &\ndone\nwait\n")
    assert "GPU008" not in _rules(bg, "polaris")


def test_a_queue_the_site_does_not_list_is_a_note_with_the_known_queues():
    text = POLARIS.replace("-q debug-scaling", "-q gpu-hackathon") + "hostname\n"
    [finding] = [f for f in lint(parse_text(text), load_profile("polaris").profile)
                 if f.rule == "QUEUE006"]
    assert finding.severity == "info" and "debug-scaling, prod" in finding.message
    # a reservation's queue, a misspelling (QUEUE002), another site's queue (QUEUE002)
    for queue in ("R1234567", "debug-scalin", "workq"):
        assert "QUEUE006" not in _rules(POLARIS.replace("debug-scaling", queue), "polaris")


LUMI = ("#!/bin/bash\n#SBATCH --account=project_465000000\n#SBATCH --partition=small-g\n"
        "#SBATCH --gpus-per-node={g}\n#SBATCH --ntasks-per-node=1\n#SBATCH --time=1:00:00\n"
        "CONTAINER=/appl/local/containers/sif-images/lumi-tensorflow-rocm-6.2.0.sif\n")


def test_miopen_cache_in_lust_containers_on_shared_nodes_and_multiline_bash_c():
    one = LUMI.format(g=1) + "srun singularity exec $CONTAINER python ./single_gpu_train.py\n"
    assert ("ENV002", 8) in findings(one, "lumi")
    # a package check is no training; the cache set, nothing to say
    check = one.replace("single_gpu_train.py", "test_packages.py")
    assert "ENV002" not in _rules(check, "lumi")
    cached = one.replace("srun", "export MIOPEN_USER_DB_PATH=/tmp/db\n"
                         "export MIOPEN_CUSTOM_CACHE_DIR=/tmp/cache\nsrun")
    assert "ENV002" not in _rules(cached, "lumi")
    # `bash -c "` over lines ending in `\`: the program is the last command, not a newline
    multi = LUMI.format(g=4) + ('srun singularity exec $CONTAINER \\\nbash -c "\n'
                                '  export RANK=\\$SLURM_PROCID; \\\n  python benchmark.py\n"\n')
    assert ("ENV002", 8) in findings(multi, "lumi")


def test_env_dash_s_shebang_is_a_job_script_and_one_profiled_rank_is_not_every_rank():
    text = ("#!/usr/bin/env -S bash -e\n#SBATCH --account=project_465000000\n"
            "#SBATCH --partition=small-g\n#SBATCH --nodes=1\n#SBATCH --tasks-per-node=1\n"
            "#SBATCH --gpus-per-node=1\n#SBATCH --time=15:00\n"
            "srun rocprofv3 --hip-trace -- python3 scaling.py\n")
    assert "PROF001" not in _rules(text, "lumi")  # refused before: "not a job script"
    assert "PROF001" in _rules(text.replace("tasks-per-node=1", "tasks-per-node=8"), "lumi")


def test_one_rank_in_all_uses_no_collectives():
    aurora = ("#!/bin/bash\n#PBS -A p\n#PBS -l select=1\n#PBS -l walltime=1:00:00\n"
              "#PBS -l filesystems=home:flare\n#PBS -q debug\nmodule load frameworks\n"
              "export CCL_LOG_LEVEL=info\nexport TORCH_COMPILE_DISABLE=1\n")
    for launch in ("mpiexec -n 1 --ppn 1 python lora_one_epoch.py",
                   "mpiexec -n 1 --ppn 1 python -c 'import torch; print(torch.xpu)'"):
        assert "ENV002" not in _rules(aurora + launch + "\n", "aurora"), launch
    two = aurora + "mpiexec -n 2 --ppn 2 --cpu-bind list:1-8:9-16 python lora_one_epoch.py\n"
    assert "ENV002" in _rules(two, "aurora")


def test_a_horovod_program_named_hvd_is_an_ai_launch():
    text = POLARIS + "mpiexec -n 8 --ppn 4 --cpu-bind depth -d 8 python scaling_pt_hvd.py\n"
    assert ("ENV002", 7) in findings(text, "polaris")


def test_a_pbs_script_without_a_shebang_that_starts_with_its_directives_is_whole():
    body = ("#PBS -l select=1:system=sunspot\n#PBS -l walltime=0:10:00\n#PBS -A proj\n"
            "#PBS -q workq\n\ncd $PBS_O_WORKDIR\nmpiexec -n 12 --ppn 12 ./a.out\n")
    assert ("ALCF002", 1) in findings(body, "sunspot")
    # an excerpt: directives after other lines, or without the project
    for excerpt in ("# the job\n" + body, body.replace("#PBS -A proj\n", "")):
        assert "ALCF002" not in _rules(excerpt, "sunspot")
