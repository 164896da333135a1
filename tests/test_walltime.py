"""Walltime input: minutes, H:MM:SS, HH:MM:SS and D-HH:MM:SS; every refusal says why."""

from __future__ import annotations

import pytest
from helpers import plan_for

from jobgen.errors import JobgenError
from jobgen.profiles.walltime import parse_walltime


@pytest.mark.parametrize(("text", "seconds"), [
    ("90", 5400), ("1:30:00", 5400), ("01:30:00", 5400), ("168:00:00", 604800),
    ("1-12:00:00", 129600), ("0-00:00:30", 30), (" 45 ", 2700),
])
def test_accepted_forms_give_seconds(text, seconds):
    assert parse_walltime(text) == seconds


@pytest.mark.parametrize(("text", "why"), [
    ("00:75:00", "minutes must be 00-59, not 75"),
    ("01:00:61", "seconds must be 00-59, not 61"),
    ("1-24:00:00", "hours must be 00-23 after the days, not 24"),
    ("1:90", "H:MM is ambiguous"),
    ("0", "longer than zero"),
    ("00:00:00", "longer than zero"),
    ("1:5:00", "minutes must be 00-59, not 5"),
    ("01:00:00\n#PBS -V", "control or non-ASCII characters"),
    ("01:00:00\r", "control or non-ASCII characters"),
    ("１:00:00", "control or non-ASCII characters"),
    ("soon", "not a walltime"),
])
def test_refusals_say_why(text, why):
    with pytest.raises(JobgenError, match=why.replace("(", r"\(")) as err:
        parse_walltime(text)
    assert "\n" not in str(err.value)


def test_minutes_and_day_forms_reach_the_directives():
    pbs = plan_for("aurora", nodes=4, walltime="90")
    assert pbs.walltime == 5400 and "#PBS -l walltime=01:30:00" in [d.text for d in pbs.directives]
    slurm = plan_for("lumi", walltime="1-00:00:00")
    assert "#SBATCH --time=24:00:00" in [d.text for d in slurm.directives]
