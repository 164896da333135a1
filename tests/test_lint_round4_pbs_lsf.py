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
