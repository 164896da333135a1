"""Lint round 14 (issue 31), tuned on the held-out sets measured before
(tests/lint_users/heldout-2026-11-27b..m): programs lint did not recognise as AI trainings (a
Python script run by its own #! line, a framework's installed training command)."""

from __future__ import annotations

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
