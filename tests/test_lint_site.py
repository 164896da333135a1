"""`jobgen lint` tells the site from what a script says (issue 31): directives, launchers,
modules, paths and host names, and says which clues it used; it asks for --site only when the
clues are absent or point to several sites, or to a site jobgen has no profile for."""

from __future__ import annotations

import pytest
import yaml
from helpers import ROOT, run_jobgen

from jobgen.profiles.load import load_profile, site_names
from jobgen.review.lint import guess_site, lint
from jobgen.review.scriptparse import parse_text

# What users write, each without a `system=` resource, a jobgen header or a `# site:` line.
TOLD = {
    "summit": "#!/bin/bash\n#BSUB -P ABC123\n#BSUB -W 0:30\n#BSUB -nnodes 2\n"
              "module load open-ce\njsrun -n12 -r6 -a1 -c7 -g1 -bpacked:7 python train.py\n",
    "summit-bare": "#!/bin/bash\n#BSUB -W 30\n#BSUB -nnodes 1\njsrun -n1 -a6 -g6 python t.py\n",
    "lumi": "#!/bin/bash\n#SBATCH --account=project_462000921\n#SBATCH --partition=small\n"
            "srun python train.py\n",
    "lumi-partition": "#!/bin/bash\n#SBATCH -p standard-g\n#SBATCH -N 2\nsrun python t.py\n",
    "aurora": "#!/bin/bash\n#PBS -l select=2\n#PBS -A proj\ncd /lus/flare/projects/p/run\n"
              "module load frameworks\nmpiexec -n 24 --ppn 12 python train.py\n",
    "polaris": "#!/bin/bash\n#PBS -l select=2\n#PBS -A proj\nmodule use /soft/modulefiles\n"
               "module load conda/2024-04-29\nexport MASTER_ADDR=$(head -1 $PBS_NODEFILE)"
               ".hsn.cm.polaris.alcf.anl.gov\nmpiexec -n 8 --ppn 4 python train.py\n",
}
SITE_OF = {"summit-bare": "summit", "lumi-partition": "lumi"}


@pytest.mark.parametrize("case", sorted(TOLD))
def test_the_site_is_told_from_what_users_write(case):
    guess = guess_site(parse_text(TOLD[case]))
    assert guess.site == SITE_OF.get(case, case), guess
    assert guess.clues


@pytest.mark.parametrize("text", [
    # Frontier: Slurm, srun, an OLCF project id and /lustre/orion: not LUMI
    "#!/bin/bash\n#SBATCH -A ABC123\n#SBATCH -N 2\ncd /lustre/orion/abc123/scratch\n"
    "srun -n 16 python train.py\n",
    # Perlmutter
    "#!/bin/bash\n#SBATCH -C gpu\n#SBATCH -N 1\nsrun python train.py\n",
    # LLNL Lassen: #BSUB -nnodes as on Summit, but lrun
    "#!/bin/bash\n#BSUB -nnodes 1\n#BSUB -G guests\nlrun -T4 python train.py\n",
    # nothing at all
    "#!/bin/bash\n#SBATCH -N 2\nsrun python train.py\n",
    # two ALCF systems at once: Aurora's filesystem and Polaris's GPU helper
    "#!/bin/bash\n#PBS -l select=2\n#PBS -l filesystems=home:flare\n"
    "mpiexec -n 8 --ppn 4 ./set_affinity_gpu_polaris.sh python t.py\n",
])
def test_no_site_is_guessed_from_absent_conflicting_or_foreign_clues(text):
    assert guess_site(parse_text(text)).site is None


def test_clues_of_a_site_without_a_profile_name_it():
    guess = guess_site(parse_text("#!/bin/bash\n#SBATCH -A ABC123\ncd /lustre/orion/x\n"
                                  "srun python t.py\n"))
    assert guess.site is None and "frontier" in guess.reason


def test_the_cli_says_which_clues_it_used_and_why_it_asks(tmp_path):
    path = tmp_path / "job.lsf"
    path.write_text(TOLD["summit"])
    r = run_jobgen("lint", str(path))
    assert "for site summit (told from: #BSUB -nnodes" in r.stdout + r.stderr
    other = tmp_path / "other.sh"
    other.write_text("#!/bin/bash\n#PBS -l select=2\n#PBS -l filesystems=home:flare\n"
                     "mpiexec -n 8 --ppn 4 ./set_affinity_gpu_polaris.sh python t.py\n")
    r = run_jobgen("lint", str(other))
    assert r.returncode == 2 and "point to several sites" in r.stderr and "--site" in r.stderr


def test_site_detection_on_the_corpora_keeps_every_site_the_old_one_told():
    """The sites' own scripts (tests/lint_corpus, profiled sites, many of them a guide's
    few lines without a clue): at least 70% told without --site (the old detection told
    76 of 139, 55%, and none of Summit's 9), and never a wrong site."""
    corpus = ROOT / "tests" / "lint_corpus"
    entries = [e for e in yaml.safe_load((corpus / "index.yaml").read_text())
               if e.get("site") in site_names()]
    told = [guess_site(parse_text((corpus / "scripts" / e["file"]).read_text())).site
            for e in entries]
    assert all(t in (None, e["site"]) for t, e in zip(told, entries, strict=True))
    assert sum(t == e["site"] for t, e in zip(told, entries, strict=True)) >= 0.7 * len(entries)
    assert all(t == "summit" for t, e in zip(told, entries, strict=True) if e["site"] == "summit")


def test_a_misspelt_shebang_keeps_the_site_requirements():
    """`#/bin/bash` made lint read the script as a guide's fragment, so the filesystems check
    was skipped (issue 31); now it is a whole script with its own finding."""
    text = ("#/bin/bash\n#PBS -A proj\n#PBS -l select=1:system=polaris\n#PBS -l walltime=1:00:00"
            "\n#PBS -q debug\nmpiexec -n 4 --ppn 4 --depth=8 --cpu-bind depth /eagle/p/a.out\n")
    found = {f.rule: f.severity for f in lint(parse_text(text), load_profile("polaris").profile)}
    assert found == {"ALCF002": "error", "TEXT003": "warning"}
    slurm = "#/bin/bash\n#SBATCH --account=project_465000000\n#SBATCH -p small\nsrun ./a.out\n"
    found = {f.rule: f.severity for f in lint(parse_text(slurm), load_profile("lumi").profile)}
    assert found.get("TEXT003") == "error"


def test_the_fix_for_an_unexported_setting_is_a_command_that_works():
    """ENV004's fix was the whole line behind `export` (`export OMP_NUM_THREADS=1 srun ...`),
    which bash refuses; it is now `export NAME=value`."""
    path = ROOT / "tests" / "scripts" / "broken" / "env004_lumi_prefix_assignment_on_srun.slurm"
    found = [f for f in lint(parse_text(path.read_text()), load_profile("lumi").profile)
             if f.rule == "ENV004"]
    assert [f.fix for f in found] == ["write `export OMP_NUM_THREADS=7`"]


def test_the_coverage_table_is_current_and_names_real_rules():
    """docs/lint-coverage.md is tools/lint_coverage.py's output, and every rule a statement is
    mapped to exists (issue 31: coverage from the documents)."""
    import re
    import subprocess
    import sys

    from jobgen.review.lint import RULES

    r = subprocess.run([sys.executable, str(ROOT / "tools" / "lint_coverage.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout
    data = yaml.safe_load((ROOT / "tools" / "lint_coverage.yaml").read_text())
    for row in data["statements"]:
        named = set(re.findall(r"\b[A-Z]{3,9}[0-9]{3}\b", row["checked_by"]))
        assert named <= set(RULES), row
        assert named or row["checked_by"].startswith(("no: ", "missing: ")), row
        assert row["repo"] and row["commit"] and row["path"], row
