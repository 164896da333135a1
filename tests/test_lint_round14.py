"""Lint round 14 (issue 31), tuned on the held-out sets measured before
(tests/lint_users/heldout-2026-11-27b..m): programs lint did not recognise as AI trainings (a
Python script run by its own #! line, a framework's installed training command)."""

from __future__ import annotations

import pytest

from jobgen.profiles.load import load_profile
from jobgen.review.lint import lint
from jobgen.review.scriptparse import parse_text


def _findings(text: str, site: str, rule: str) -> list[tuple[int, str, str]]:
    return [(f.line, f.severity, f.message) for f in
            lint(parse_text(text), load_profile(site).profile) if f.rule == rule]


# ------------------------------- a Python script run by its own #! line is a Python program
# heldout-2026-11-27b's nanotron job: `srun --label lumi_launch.sh run_train.py ...` (8 ranks
# per LUMI-G node); lint read run_train.py as an unknown binary, so neither the MIOpen cache
# set nor the missing device binding was reported.
LUMI = ("#!/bin/bash\n#SBATCH --account=project_465000000\n#SBATCH --partition=standard-g\n"
        "#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=8\n#SBATCH --gpus-per-node=mi250:8\n"
        "#SBATCH --time=01:00:00\n"
        "srun --label lumi_launch.sh run_train.py --config-file config.yaml\n")


def test_a_py_script_run_directly_is_read_as_the_python_program_it_is():
    as_python = LUMI.replace("run_train.py", "python run_train.py")
    for rule in ("ENV002", "CPU009"):
        direct = _findings(LUMI, "lumi", rule)
        assert direct, rule
        assert [(line, sev) for line, sev, _ in direct] == \
            [(line, sev) for line, sev, _ in _findings(as_python, "lumi", rule)]
    assert "MIOPEN_USER_DB_PATH" in _findings(LUMI, "lumi", "ENV002")[0][2]


def test_a_script_in_a_variable_is_not_taken_for_a_python_file():
    text = LUMI.replace("run_train.py --config-file config.yaml", "$PROG")
    assert not _findings(text, "lumi", "ENV002")


# --------------------------------- frameworks' training commands (fairseq-train, anemoi-training)
# heldout-2026-11-27m's Summit fairseq jobs: `jsrun -n N -g 6 -a1 ... fairseq-train ...`: one
# process per node that starts one process per visible GPU itself (fairseq's call_main,
# torch.multiprocessing.spawn), so no device of the node is idle.
SUMMIT = ("#!/bin/bash\n#BSUB -P BIE108\n#BSUB -W 2:00\n#BSUB -nnodes 4\n#BSUB -q batch\n"
          "module load open-ce/1.5.2-py39-0\n"
          "jsrun -n 4 -g 6 -c 42 -r1 -a1 -b none fairseq-train --distributed-port 23456 "
          "--fp16 /mnt/bb/$USER/data --arch roberta_base\n")


def test_fairseq_train_is_an_ai_program_that_drives_every_gpu_it_sees():
    profile = load_profile("summit").profile
    script = parse_text(SUMMIT)
    from jobgen.review.lint.context import Context
    ctx = Context(script, profile)
    assert [la.ai for la in ctx.launches] == [True]
    assert not _findings(SUMMIT, "summit", "GPU008")


def test_another_programs_train_binary_is_not_an_ai_framework():
    # the ALCF DAOS page's thundersvm-train (an SVM program of its own): no oneCCL set
    text = ("#!/bin/bash\n#PBS -A proj\n#PBS -q prod\n#PBS -l select=512\n"
            "#PBS -l walltime=01:00:00\n#PBS -l filesystems=flare\n"
            "mpiexec -np 6144 -ppn 12 --cpu-bind list:4:9:14:19:20:25:56:61:66:71:74:79 "
            "wrapper.sh bin/thundersvm-train -s 0 data.txt\n")
    assert not _findings(text, "aurora", "ENV002")


# ------------------------------------------ TEXT015: a variable written inside single quotes
# heldout-2026-11-27i's RFdiffusion job: `'[A1-${size_ref}/0 ${min_design}-${max_design}]'`
# hands the program the text, not the sizes the script sets.
PBS = ("#!/bin/bash\n#PBS -A proj\n#PBS -q debug\n#PBS -l select=1:system=polaris\n"
       "#PBS -l walltime=00:30:00\n#PBS -l filesystems=home:eagle\ncd $PBS_O_WORKDIR\n"
       "size=150\nout=/lus/eagle/projects/proj/out\n")


def test_a_set_variable_in_single_quotes_on_a_program_line_is_reported():
    text = PBS + "./run_inference.py 'contigmap.contigs=[A1-${size}/0]' --out \"$out\"\n"
    found = _findings(text, "polaris", "TEXT015")
    assert [(line, sev) for line, sev, _ in found] == [(10, "warning")]
    assert "$size" in found[0][2] and "single quotes" in found[0][2]


def test_the_same_line_in_double_quotes_is_clean():
    text = PBS + "./run_inference.py \"contigmap.contigs=[A1-${size}/0]\" --out \"$out\"\n"
    assert not _findings(text, "polaris", "TEXT015")


@pytest.mark.parametrize("line", [
    # another interpreter reads the quoted text and may expand it itself
    "bash -c 'python train.py --size $size'",
    "mpiexec -n 4 sh -c 'echo $size'",
    "awk '{print $size}' data.txt",
    "ssh host 'cd $out && ./run.sh'",
    # a template kept for later (eval, a command line built from it)
    "PROFILE='echo \"--profile logdir/${size}\"'",
    # in double quotes the single quotes are plain characters
    "python -c \"import yaml; yaml.safe_load(open('${out}/c.yaml'))\"",
    # a config's own interpolation (OmegaConf/Hydra), not the script's variable
    "python train.py 'paths.out=${size.dir}' 'x=${size:default}'",
    # a variable the script exports: a child may read it from its environment
    "export NAME=1\n./run.sh '$NAME'",
    # a name the script never sets (the program's own placeholder syntax)
    "./run.sh --template 'file_${index}.dat'",
])
def test_single_quotes_that_another_reader_expands_are_left_alone(line):
    assert not _findings(PBS + line + "\n", "polaris", "TEXT015")


# ------------------------- a batch-shell program in a loop over devices: one run per device
# `for device in 0 1 2 3; do CUDA_VISIBLE_DEVICES=$device python x.py & done` runs four
# processes on four GPUs; lint read the first iteration only and called 3 GPUs idle (GPU008).
def test_a_device_loop_in_the_batch_shell_is_read_once_per_device():
    loop = ("for device in 0 1 2 3; do\n"
            "    CUDA_VISIBLE_DEVICES=$device python infer.py > log.$device 2>&1 &\ndone\nwait\n")
    assert not _findings(PBS + loop, "polaris", "GPU008")
    two = loop.replace("0 1 2 3", "0 1")
    found = _findings(PBS + two, "polaris", "GPU008")
    assert found and "2 device(s) of the node idle" in found[0][2]
