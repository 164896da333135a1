"""Lint round 9 (issue 31), tuned on the held-out sets measured before
(tests/lint_users/heldout-2026-11-27b/-c/-d), before the set 2026-11-27e was gathered or seen."""

from __future__ import annotations

import pytest

from jobgen.profiles.load import load_profile
from jobgen.review.lint import lint
from jobgen.review.scriptparse import parse_text


def _all(text: str, site: str, rule: str) -> list[tuple[int, str]]:
    return [(f.line, f.severity) for f in lint(parse_text(text), load_profile(site).profile)
            if f.rule == rule]


# ---------------------------------------------------------------- GPU008: jsrun in a launch script
# A script run inside a job (no #BSUB lines) does not say the job's nodes, but a jsrun's -r sets
# are on every node it uses, and the job has at least one node: -r 2 -g 1 leaves 4 of Summit's 6
# GPUs idle whatever the size (heldout-2026-11-27d exawind-summit).
@pytest.mark.parametrize(("launch", "found"), [
    ("jsrun --nrs 2 --rs_per_host 2 --cpu_per_rs 1 --gpu_per_rs 1 ./exawind in.yaml",
     [(3, "warning")]),
    ("jsrun -n8 -r4 -a1 -c1 -g1 ./app", [(3, "warning")]),
    ("jsrun -n 1 -g 1 ./app", [(3, "warning")]),       # one node at least: 5 of its 6 idle
    ("jsrun -n 12 -r 6 -a 1 -g 1 ./app", []),            # every GPU of each node
    ("jsrun -n 8 -a 1 -g 1 ./app", []),                  # 8 sets may fill the nodes it has
    ("jsrun -n 2 -r 2 -g 3 ./app", []),
    ("jsrun -n 2 -r 2 -g 0 ./cpu_app", []),              # a CPU program asks for no GPU
    ("for g in 1 2 3; do\n  jsrun -n 1 -r 1 -g $g ./scale\ndone", []),  # a scaling study
    ("jsrun -n 1 -g 1 ./a &\njsrun -n 1 -g 1 ./b &\nwait", []),  # several at once share it
])
def test_a_jsrun_of_a_script_without_directives_is_held_to_the_node_it_uses(launch, found):
    text = f"#!/bin/bash\nmodule load cuda\n{launch}\n"
    assert _all(text, "summit", "GPU008") == found
