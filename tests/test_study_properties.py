"""Property tests of the study commands against generated input (issue 24).

Hypothesis damages a real sweep: any field of manifest.json replaced by values of any JSON type
and size (paths with '..', absolute paths, format strings, control characters, huge numbers,
NaN, deep nesting), entries replaced by links to a directory outside the sweep, and result
lines of any shape. Every command must then end with exit 0, 1 or 2, an exit 2 with exactly
one error line, never a traceback (the commands run in this process: an exception fails the
test), and nothing outside the sweep written, deleted or run.

PBS is the stand-in of tests/emulation/pbs (jobs never run), so `submit` is quick and safe.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, jobgen_here, run_jobgen

hypothesis = pytest.importorskip("hypothesis", reason="pip install hypothesis (jobgen[dev])")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

PBS_STANDIN = ROOT / "tests" / "emulation" / "pbs"
# JOBGEN_PROP_EXAMPLES=500 hunts further (random, not the fixed examples CI runs)
EXAMPLES = os.environ.get("JOBGEN_PROP_EXAMPLES")
SETTINGS = settings(max_examples=int(EXAMPLES or 20), deadline=None, derandomize=not EXAMPLES,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


# ---------------------------------------------------------------- running a command here
def jobgen(*args: str) -> tuple[int, str, str]:
    res = jobgen_here(*args)
    return res.returncode, res.stdout, res.stderr


def check_answer(code: int, err: str) -> None:
    assert code in (0, 1, 2), (code, err)
    assert "Traceback" not in err
    if code == 2:
        lines = err.strip().splitlines()
        assert lines and lines[-1].startswith("jobgen: error: "), err
        assert sum(line.startswith("jobgen: error: ") for line in lines) == 1, err
    assert "\x1b" not in err


def snapshot(root: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for p in sorted(root.rglob("*")):
        rel = str(p.relative_to(root))
        out[rel] = os.readlink(p) if p.is_symlink() else (
            p.read_bytes() if p.is_file() else "dir")
    return out


@contextlib.contextmanager
def damaged_copy(base: Path):
    """A fresh copy of the sweep, a directory beside it that must stay as it is, and the
    PBS stand-in on PATH."""
    with tempfile.TemporaryDirectory(prefix="jobgen-prop-") as tmp:
        root = Path(tmp)
        sweep = root / "s"
        shutil.copytree(base, sweep, symlinks=True)
        outside = root / "outside"
        (outside / "r1").mkdir(parents=True)
        for name in ("victim.txt", "output.txt", "results.csv", "r1/keep.txt"):
            (outside / name).write_text("precious")
        (outside / "job.sh").write_text(f"#!/bin/bash\ntouch {outside}/RAN\n")
        saved = dict(os.environ)
        os.environ.update(PATH=f"{PBS_STANDIN}{os.pathsep}{saved['PATH']}",
                          JOBGEN_EMU_PBS=str(root / "pbs"), JOBGEN_EMU_QSUB="ok")
        before = snapshot(outside)
        try:
            yield sweep, outside
        finally:
            os.environ.clear()
            os.environ.update(saved)
        assert snapshot(outside) == before and not (outside / "RAN").exists()


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """A PBS sweep (2 points x 2 repeats) with a result line in one run's output."""
    out = tmp_path_factory.mktemp("prop") / "s"
    res = run_jobgen("sweep", "--site", "polaris", "-A", "proj", "--app", "qcnn", "--nodes",
                     "1,2", "--repeat", "2", "--out", str(out))
    assert res.returncode == 0, res.stderr
    data = json.loads((out / "manifest.json").read_text())
    run = data["points"][0]["runs"][0]
    run.update(job_id="1.pbs01", output=f"{run['dir']}/out.txt")
    (out / "manifest.json").write_text(json.dumps(data))
    (out / run["output"]).write_text('{"app": "qcnn", "samples_per_sec": 12.5}\n')
    return out


# ---------------------------------------------------------------- strategies
NASTY = ["../outside", "../outside/job.sh", "/tmp", "n1/r1/../../../outside/job.sh",
         "{id:>300000000}", "{id.__class__.__mro__}", "%j", "%x", "n1/r2", "n1/r1/job.sh",
         "\x1b]0;pwned\x07", "=cmd()", "$\\sqrt{$", "", ".", "..", "²", "a" * 5000]
scalars = (st.none() | st.booleans() | st.integers(min_value=-(10 ** 30), max_value=10 ** 30)
           | st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(NASTY)
           | st.text(max_size=40))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)


def paths_of(data: Any, prefix: tuple = ()) -> list[tuple]:
    found = [prefix] if prefix else []
    if isinstance(data, dict):
        for k, v in data.items():
            found += paths_of(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            found += paths_of(v, (*prefix, i))
    return found


def put(data: Any, path: tuple, value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


LINKABLE = ["n1", "n1/r1", "n1/r1/job.sh", "n1/r1/out.txt", "results.csv", "results.json",
            "n2/r2"]


# ---------------------------------------------------------------- properties
@pytest.mark.slow
@SETTINGS
@given(data=st.data())
def test_damaged_manifests_and_planted_links_end_in_one_clean_answer(base, data):
    manifest = json.loads((base / "manifest.json").read_text())
    edits = data.draw(st.lists(st.tuples(st.sampled_from(paths_of(manifest)), values),
                               max_size=3))
    depth = data.draw(st.sampled_from([0, 0, 0, 40, 5000]))
    links = data.draw(st.lists(st.tuples(st.sampled_from(LINKABLE),
                                         st.sampled_from(["", "victim.txt", "r1", "job.sh"])),
                               max_size=2, unique_by=lambda x: x[0]))
    with damaged_copy(base) as (sweep, outside):
        for path, value in edits:
            with contextlib.suppress(KeyError, IndexError, TypeError):
                put(manifest, path, value)
        text = json.dumps(manifest)
        if depth:
            text = '{"points": ' + "[" * depth + "]" * depth + "}"
        (sweep / "manifest.json").write_text(text)
        for name, target in links:
            entry = sweep / name
            if any(p.is_symlink() for p in entry.parents):
                continue  # the test itself must not write through its own link
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink(missing_ok=True)
            entry.parent.mkdir(parents=True, exist_ok=True)
            entry.symlink_to(outside / target)
        for args in (("collect", str(sweep)), ("status", str(sweep)),
                     ("submit", str(sweep)), ("cancel", str(sweep)),
                     ("collect", str(sweep), "--force", "--format", "json"),
                     ("report", str(sweep), "--out", str(sweep / "chart.svg"))):
            code, _, err = jobgen(*args)
            check_answer(code, err)


raw_numbers = st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-0.0", "1" * 4000,
                               "[" * 3000 + "]" * 3000, "12.5", "0", "true", "null", '"9"'])


@SETTINGS
@given(lines=st.lists(
    st.one_of(
        st.text(max_size=60),
        st.builds(lambda app, rate, extra: json.dumps({"app": app, "samples_per_sec": 1.0,
                                                       **extra}).replace("1.0", rate, 1),
                  st.text(max_size=10), raw_numbers,
                  st.dictionaries(st.sampled_from(["instance", "instances", "expected",
                                                   "world_size", "precision", "x"]),
                                  scalars, max_size=3)),
        st.sampled_from(['{"samples_per_sec"', '{"app": 1, "samples_per_sec": 2}',
                         "{" * 2000 + '"samples_per_sec"' + "}" * 2000])),
    max_size=6))
def test_result_lines_of_any_shape_end_in_one_clean_answer(base, lines):
    with damaged_copy(base) as (sweep, _):
        (sweep / "n1" / "r1" / "out.txt").write_text("\n".join(lines) + "\n")
        code, out, err = jobgen("collect", str(sweep), "--format", "json")
        check_answer(code, err)
        if code != 2:
            rows = json.loads(out)
            assert all(r["best"] is None or r["best"] >= 0 for r in rows)
            results = (sweep / "results.json").read_text()
            assert "NaN" not in results and "Infinity" not in results
