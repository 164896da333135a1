"""Hostile profile files: one-line errors for that profile, every other site still works."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers import PROFILE_FIXTURES, run_jobgen
from hypothesis import given, settings
from hypothesis import strategies as st

from jobgen.errors import JobgenError
from jobgen.profiles.load import _read_yaml
from jobgen.textfile import MAX_BYTES


def _one_line_error(res: subprocess.CompletedProcess[str]) -> str:
    assert res.returncode == 2, (res.returncode, res.stdout[-300:], res.stderr[-2000:])
    assert "Traceback" not in res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def _profiles(tmp_path: Path, **files: str | bytes) -> dict[str, str]:
    directory = tmp_path / "profiles"
    directory.mkdir(exist_ok=True)
    for name, text in files.items():
        data = text.encode() if isinstance(text, str) else text
        (directory / name).write_bytes(data)
    return {"JOBGEN_PROFILE_PATH": f"{directory}:{PROFILE_FIXTURES / 'valid'}"}


def _sites_still_work(env: dict[str, str], bad: str) -> None:
    res = run_jobgen("sites", env=env)
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr[-2000:]
    rows = {line.split("│")[1].strip(): line for line in res.stdout.splitlines()
            if line.startswith("│") and line.split("│")[1].strip()}
    assert "pbs" in rows["aurora"] and "production" in rows["aurora"]
    assert "slurm" in rows["lumi"]
    assert "invalid" in rows[bad], rows.keys()


@pytest.mark.parametrize("shape", ["lists", "maps"])
def test_a_deeply_nested_profile_is_one_line_error_and_sites_lists_the_others(tmp_path, shape):
    depth = 10_000
    nested = "[" * depth + "]" * depth if shape == "lists" else "{a: " * depth + "1" + \
        "}" * depth
    env = _profiles(tmp_path, **{"deep.yaml": f"name: deep\nextends: mini\nx: {nested}\n"})
    line = _one_line_error(run_jobgen("validate", str(tmp_path / "profiles" / "deep.yaml"),
                                      env=env))
    assert line.endswith("deep.yaml:3: nested deeper than 32 levels"), line
    assert "nested deeper" in _one_line_error(run_jobgen("render", "--site", "deep", "--", "x",
                                                         env=env))
    _sites_still_work(env, "deep")


def test_a_duplicate_key_names_the_key_and_both_lines(tmp_path):
    text = "name: dup\nextends: mini\nscheduler:\n  account_required: false\n" \
           "node:\n  sockets: 2\nscheduler:\n  account_required: true\n"
    env = _profiles(tmp_path, **{"dup.yaml": text})
    line = _one_line_error(run_jobgen("render", "--site", "dup", "--", "x", env=env))
    assert line.endswith("dup.yaml:7: duplicate key 'scheduler' (first on line 3)"), line
    _sites_still_work(env, "dup")


@pytest.mark.parametrize("name", ["evil\nx", "evil\rx", "evil\x1b[31mx", "evil\x9bx",
                                  "evil\u2028x"], ids=["LF", "CR", "ESC", "CSI", "LSEP"])
def test_a_profile_file_name_with_a_control_character_is_refused(tmp_path, name):
    env = _profiles(tmp_path, **{f"{name}.yaml": f"name: {name!r}\nextends: mini\n"})
    path = tmp_path / "profiles" / f"{name}.yaml"
    line = _one_line_error(run_jobgen("validate", str(path), env=env))
    assert "a profile file name may not contain control characters" in line
    assert name not in line and name.encode("unicode_escape").decode() in line
    assert "may not contain control" in _one_line_error(
        run_jobgen("render", "--site", name, "--", "x", env=env))
    res = run_jobgen("sites", env=env)
    assert res.returncode == 0 and "\x1b" not in res.stdout and "\x9b" not in res.stdout
    assert "aurora" in res.stdout and "invalid" in res.stdout


def test_a_profile_over_the_size_limit_is_refused_without_reading_it_all(tmp_path):
    big = b"name: big\nextends: mini\n" + b"# padding\n" * (MAX_BYTES // 10 + 1)
    env = _profiles(tmp_path, **{"big.yaml": big})
    line = _one_line_error(run_jobgen("render", "--site", "big", "--", "x", env=env))
    assert "too large for a profile" in line
    _sites_still_work(env, "big")


def test_a_hostfile_that_is_not_a_variable_is_one_line_error_with_openmpi(tmp_path):
    text = "name: mpi\nextends: jlse-mi250\nlauncher:\n  master:\n    method: hostfile\n" \
           "    hostfile: 'COBALT NODEFILE'\n"
    env = _profiles(tmp_path, **{"mpi.yaml": text})
    line = _one_line_error(run_jobgen("render", "--site", "mpi", "-A", "p", "--", "x", env=env))
    assert "launcher.master.hostfile: value error, 'COBALT NODEFILE' is not a shell variable " \
        "name" in line


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="[]{}:,&*!|>-?#'\"\n\t ab1<%@`\\\r\x00\x85\u2028", max_size=200))
def test_any_text_as_a_profile_is_data_or_a_one_line_error(text):
    try:
        data = _read_yaml(Path("p.yaml"), text.encode())
    except JobgenError as exc:
        assert "\n" not in str(exc)
        return
    assert isinstance(data, dict)
