"""Lint's round-2 fixes from the held-out measurement of issue 31
(tests/lint_users/heldout-2026-11-26/README.md): the false findings and the site-detection,
placeholder and device classes found there, each as a broken/clean twin written from the rule's
documented meaning and the sites' documents (not copies of the held-out scripts)."""

from __future__ import annotations

import json

from helpers import run_jobgen

from jobgen.profiles.load import load_profile
from jobgen.review.lint import detect_site, guess_site, lint
from jobgen.review.lint.site import tell_site
from jobgen.review.scriptparse import parse_text


def _rules(text: str, site: str) -> list[str]:
    return [f.rule for f in lint(parse_text(text), load_profile(site).profile)]


# ---- site detection: one path for the CLI, detect_site and the corpus tools; /opt/aurora
# is Aurora's and Sunspot's alike (argonne-lcf/user-guides @ e0a5b88c
# docs/aurora/sunspot-to-aurora.md L3, L91)
SUNSPOT = ("#!/bin/bash\n#PBS -l select=1\n#PBS -l filesystems=tegu:home\n#PBS -q workq\n"
           + "\n" * 20 + "export CCL_ROOT=/opt/aurora/25.190.0/oneapi/ccl/latest\n"
           "mpiexec -n 12 --ppn 12 python train.py\n")


def test_opt_aurora_paths_do_not_outweigh_sunspots_filesystem():
    assert guess_site(parse_text(SUNSPOT)).site == "sunspot"  # the whole script
    assert tell_site(SUNSPOT)[0].site == "sunspot"  # head first, as the CLI
    assert detect_site(parse_text(SUNSPOT)) == "sunspot"


def test_opt_aurora_alone_decides_neither_aurora_nor_sunspot():
    text = "#!/bin/bash\n#PBS -l select=1\nsource /opt/aurora/25.190.0/oneapi/setvars.sh\n" \
        "mpiexec -n 12 --ppn 12 python train.py\n"
    guess = guess_site(parse_text(text))
    assert guess.site is None and any("sunspot" in c for c in guess.clues), guess
    # a clue only Aurora has still tells Aurora beside it
    assert detect_site(parse_text(text + "cd /lus/flare/projects/p\n")) == "aurora"


def test_the_cli_tells_the_site_as_detect_site_and_says_its_clues(tmp_path):
    job = tmp_path / "job.sh"
    job.write_text(SUNSPOT)
    out = run_jobgen("lint", str(job), "--format", "json")
    assert out.returncode in (0, 1), out.stderr
    report = json.loads(out.stdout)
    assert report["site"] == detect_site(parse_text(SUNSPOT)) == "sunspot"
    assert any("tegu" in c for c in report["site_clues"]), report["site_clues"]
    text = run_jobgen("lint", str(job))
    assert "for site sunspot (told from: filesystem tegu" in text.stdout + text.stderr


# ---- ENV001: a variable the library reads is a setting of its own, never a misspelling
# (libfabric fi_cxi(7) RUNTIME PARAMETERS lists FI_CXI_DEFAULT_TX_SIZE beside
# FI_CXI_DEFAULT_CQ_SIZE; fabric(7) FI_PROVIDER selects the provider)
AURORA_LAUNCH = "#!/bin/bash\n#PBS -l select=2\n#PBS -l filesystems=home:flare\n{env}" \
    "mpiexec -n 24 --ppn 12 python train.py\n"


def test_real_libfabric_variables_are_not_called_misspellings():
    text = AURORA_LAUNCH.format(env="export FI_CXI_DEFAULT_TX_SIZE=1024\n"
                                    "export FI_PROVIDER=cxi\n")
    assert "ENV001" not in _rules(text, "aurora")
    assert "ENV001" not in _rules(text, "sunspot")


def test_a_real_misspelling_is_still_reported():
    # FI_CXI_DEFAULT_CQ_SIZ: no library reads it; FI_CXI_DEFAULT_CQ_SIZE is one edit away
    text = AURORA_LAUNCH.format(env="export FI_CXI_DEFAULT_CQ_SIZ=131072\n")
    assert "ENV001" in _rules(text, "aurora")


# ---- ENV002: the oneCCL minimal set is for programs that use oneCCL (UG-ACCL: training
# workloads on Intel GPUs); an NCCL program (named for NCCL, an nccl-tests binary, or given
# NCCL's settings and none of oneCCL's) is not one
SUNSPOT_TORCH = "#!/bin/bash\n#PBS -l select=2\n#PBS -l filesystems=home:tegu\n{env}" \
    "mpiexec -n 24 --ppn 12 --cpu-bind list:1-8:9-16:17-24:25-32:33-40:41-48:53-60:61-68:" \
    "69-76:77-84:85-92:93-100 python {program}\n"


def _oneccl_set(text: str) -> bool:
    return any(f.rule == "ENV002" and "oneCCL" in f.message
               for f in lint(parse_text(text), load_profile("sunspot").profile))


def test_the_oneccl_set_is_asked_of_a_torch_training_program():
    assert _oneccl_set(SUNSPOT_TORCH.format(env="", program="train.py"))


def test_the_oneccl_set_is_not_asked_of_an_nccl_program():
    assert not _oneccl_set(SUNSPOT_TORCH.format(env="", program="torch_nccl.py"))
    assert not _oneccl_set(SUNSPOT_TORCH.format(
        env="export NCCL_NET='AWS Libfabric'\nexport NCCL_DEBUG=INFO\n", program="ddp.py"))
    # oneCCL's own settings beside NCCL's: still a oneCCL program
    assert _oneccl_set(SUNSPOT_TORCH.format(
        env="export NCCL_DEBUG=INFO\nexport CCL_KVS_MODE=mpi\n", program="train.py"))


# ---- QUEUE005: only a program that uses the GPUs misses them on small-g (LUMI partitions.md:
# small-g allocates by resources); a CPU step in an AI container asks for none and runs
SMALL_G = "#!/bin/bash\n#SBATCH --account=project_465000000\n#SBATCH --partition=small-g\n" \
    "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=16\n#SBATCH --time=2:00:00\n" \
    "SIF=/appl/local/containers/sif-images/lumi-pytorch-rocm-6.2.4.sif\n" \
    "singularity exec $SIF python {program} --input data.jsonl\n"


def test_queue005_reports_a_training_program_without_gpus():
    assert "QUEUE005" in _rules(SMALL_G.format(program="train.py"), "lumi")


def test_queue005_is_silent_for_a_cpu_step_in_an_ai_container():
    assert "QUEUE005" not in _rules(SMALL_G.format(program="tokenize_shards.py"), "lumi")


# ---- TEXT002: a project placeholder in other spellings (PROJ_ID, [projid]); a real project
# (OLCF's ABC123 form, summit_user_guide.rst `#BSUB -P ABC123`) is none
SUMMIT = "#!/bin/bash\n#BSUB -P {project}\n#BSUB -W 0:30\n#BSUB -nnodes 1\n" \
    "jsrun -n6 -r6 -a1 -c7 -g1 python train.py\n"


def test_project_placeholders_in_other_spellings_are_reported():
    for project in ("PROJ_ID", "[projid]", "{project}"):
        assert "TEXT002" in _rules(SUMMIT.format(project=project), "summit"), project


def test_real_project_values_are_not_placeholders():
    for project in ("CSC123", "stf011", "${ACCOUNT}"):
        assert "TEXT002" not in _rules(SUMMIT.format(project=project), "summit"), project


# ---- GPU008: one process narrowed to one device (ZE_AFFINITY_MASK=0) on a whole node, in the
# batch shell or under the launcher, leaves the others idle (SS-HW: a Sunspot node has 6 PVC
# GPUs; ALCF bills whole nodes); unnarrowed, one process may drive them all (not reported)
ONE_PROCESS = "#!/bin/bash\n#PBS -l select=1\n#PBS -l filesystems=home:tegu\n#PBS -q workq\n" \
    "{mask}PY=/lus/tegu/projects/p/venvs/rl-vllm/bin/python\n{launch}\"$PY\" -u eval_gsm8k.py\n"


def test_gpu008_reports_one_masked_process_on_a_whole_node():
    for launch in ("", "mpiexec -n 1 --ppn 1 "):
        rules = _rules(ONE_PROCESS.format(mask="export ZE_AFFINITY_MASK=0\n", launch=launch),
                       "sunspot")
        assert "GPU008" in rules, launch
        assert "ENV002" not in rules  # one process: no collectives, no oneCCL set


def test_gpu008_is_silent_for_one_process_that_sees_every_device():
    for launch in ("", "mpiexec -n 1 --ppn 1 "):
        assert "GPU008" not in _rules(ONE_PROCESS.format(mask="", launch=launch), "sunspot")
