"""Command-line conventions: --version, -h, completion, one-line usage errors, JSON listings,
whole site names in a narrow terminal, examples in help, and the fast render path."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import struct
import subprocess
import sys
import termios

import pytest
from helpers import ROOT, run_jobgen
from hypothesis import given, settings
from hypothesis import strategies as st

from jobgen import __version__
from jobgen.request.options import RENDER_OPTIONS, fast_parse

COMMANDS = ("sites", "show", "validate", "schema", "apps", "make-data", "render", "explain",
            "diff", "lint", "verify")


def test_version_prints_the_package_version():
    res = run_jobgen("--version")
    assert res.returncode == 0 and res.stdout.strip() == f"jobgen {__version__}"


@pytest.mark.parametrize("command", (None, *COMMANDS))
def test_dash_h_is_help_on_every_command(command):
    args = [command, "-h"] if command else ["-h"]
    short, long = run_jobgen(*args), run_jobgen(*[a if a != "-h" else "--help" for a in args])
    assert short.returncode == 0 and "Usage: jobgen" in short.stdout
    assert short.stdout == long.stdout


@pytest.mark.parametrize("command", ("sites", "show", "validate", "apps", "make-data", "lint",
                                     "verify"))
def test_help_of_the_everyday_commands_shows_examples(command):
    out = run_jobgen(command, "-h").stdout
    assert "Example" in out and f"jobgen {command}" in out


def test_completion_offers_commands_options_and_site_names():
    def complete(words: str) -> list[str]:
        env = {"_JOBGEN_COMPLETE": "complete_bash", "COMP_WORDS": words,
               "COMP_CWORD": str(len(words.split()) - 1)}
        res = run_jobgen(env=env)
        assert res.returncode == 0, res.stderr
        return res.stdout.split()

    assert complete("jobgen ren") == ["render"]
    assert "--ranks-per-node" in complete("jobgen render --ranks")
    assert complete("jobgen render --site su") == ["summit", "sunspot"]
    assert complete("jobgen explain --app cosm") == ["cosmictagger"]
    # Typer detects the user's shell from the process tree; name it instead (as in its tests)
    script = run_jobgen("--show-completion", "bash",
                        env={"_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"})
    assert script.returncode == 0 and "complete -o default -F _jobgen_completion jobgen" in \
        script.stdout


@pytest.mark.parametrize(("args", "expected"), [
    (["render", "--site", "aurora", "--app", "ffn", "-A", "p", "--nodes", "two"],
     "Invalid value for '--nodes': 'two' is not a valid int"),
    (["render", "--site", "aurora", "--app", "ffn", "-A", "p", "--precision", "fp8"],
     "'fp8' is not one of 'fp32', 'tf32', 'bf16', 'fp16'"),
    (["render", "--site", "aurora", "--nodse", "2"], "No such option: --nodse"),
    (["explain", "--site", "aurora", "--framework", "jax"], "'jax' is not one of"),
    (["lint"], "Missing argument 'script': give the SCRIPT"),
    (["sites", "--format", "xml"], "'xml' is not one of 'table', 'json'"),
    (["bogus"], "No such command 'bogus'"),
])
def test_usage_errors_are_one_line_with_exit_2(args, expected):
    res = run_jobgen(*args)
    assert res.returncode == 2 and res.stdout == ""
    lines = res.stderr.splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("jobgen: error: ") and expected in lines[0], lines[0]
    assert "-h`)" in lines[0]  # where to read more


@pytest.mark.parametrize(("args", "hint"), [
    (["render", "aurora", "--app", "ffn"], "; to name the site, write --site aurora"),
    (["explain", "polaris"], "; to name the site, write --site polaris"),
    (["render", "--site", "local", "python", "train.py"],
     "; a program to launch goes after `--`: jobgen render [OPTIONS] -- python train.py"),
    (["render", "--site", "local", "python3", "train.py", "--lr", "3"],
     "a program to launch goes after `--`"),
])
def test_the_usual_slips_get_a_hint(args, hint):
    res = run_jobgen(*args)
    assert res.returncode == 2 and res.stdout == "" and len(res.stderr.splitlines()) == 1
    assert hint in res.stderr, res.stderr


def test_a_default_site_from_the_environment_or_the_config(tmp_path):
    res = run_jobgen("render", "--app", "ffn", "-A", "p")
    assert res.returncode == 2 and len(res.stderr.splitlines()) == 1
    assert "no site given: add --site SITE" in res.stderr and "JOBGEN_SITE" in res.stderr
    res = run_jobgen("render", "--app", "ffn", env={"JOBGEN_SITE": "local"})
    assert res.returncode == 0, res.stderr
    assert "# Regenerate: jobgen render --site local " in res.stdout
    conf = tmp_path / "xdg" / "jobgen"
    conf.mkdir(parents=True)
    (conf / "config.yaml").write_text("defaults:\n  site: local-mpich\n")
    res = run_jobgen("render", "--app", "ffn", env={"XDG_CONFIG_HOME": str(tmp_path / "xdg")})
    assert res.returncode == 0 and "--site local-mpich" in res.stdout, res.stderr
    res = run_jobgen("render", "--site", "local", "--app", "ffn",
                     env={"XDG_CONFIG_HOME": str(tmp_path / "xdg"), "JOBGEN_SITE": "aurora"})
    assert res.returncode == 0 and "--site local " in res.stdout  # the command line wins


def test_a_misspelt_site_in_the_config_is_named(tmp_path):
    conf = tmp_path / "jobgen"
    conf.mkdir()
    (conf / "config.yaml").write_text("sites:\n  auroa:\n    account: X\n")
    res = run_jobgen("render", "--site", "aurora", "--app", "ffn",
                     env={"XDG_CONFIG_HOME": str(tmp_path)})
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.strip().endswith("sites.auroa: no such site (did you mean aurora? "
                                       "`jobgen sites` lists them)"), res.stderr
    (conf / "config.yaml").write_text("sites:\n  mycluster:\n    account: X\n")
    res = run_jobgen("render", "--site", "local", "--app", "ffn",
                     env={"XDG_CONFIG_HOME": str(tmp_path)})
    assert res.returncode == 0
    assert "sites.mycluster: no profile on the search path has this name" in res.stderr


def test_sites_apps_and_validate_speak_json():
    sites = json.loads(run_jobgen("sites", "--format", "json").stdout)
    aurora = next(s for s in sites if s["site"] == "aurora")
    assert aurora["scheduler"] == "pbs" and aurora["status"] == "production"
    apps = json.loads(run_jobgen("apps", "--format", "json").stdout)
    assert {"cosmictagger", "ffn"} <= {a["app"] for a in apps}
    assert all(isinstance(a["batch"], int) and a["frameworks"] for a in apps)
    ok = run_jobgen("validate", "--format", "json")
    assert ok.returncode == 0 and json.loads(ok.stdout) == {"checked": len(sites), "problems": []}
    bad = ROOT / "tests" / "profiles" / "invalid"
    broken = run_jobgen("validate", str(bad), "--format", "json")
    data = json.loads(broken.stdout)
    assert broken.returncode == 2 and data["problems"] and data["checked"] >= len(data["problems"])


def _in_terminal(columns: int, *args: str) -> str:
    """Run jobgen with its stdout on a pseudo-terminal of the given width, as a user sees it."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    proc = subprocess.Popen([sys.executable, "-m", "jobgen", *args], stdout=follower,
                            stderr=subprocess.PIPE, cwd=ROOT, env=env)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO once the child closed its side
            break
        if not chunk:
            break
        chunks.append(chunk)
    proc.wait(timeout=60)
    os.close(leader)
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", b"".join(chunks).decode()).replace("\r", "")


def test_sites_in_a_100_column_terminal_keeps_every_name_whole():
    out = _in_terminal(100, "sites")
    assert max(len(line) for line in out.splitlines()) <= 100
    names = json.loads(run_jobgen("sites", "--format", "json").stdout)
    for row in names:
        assert f" {row['site']} " in out, row["site"]


# ---------------------------------------------------------------- fast render path
def _typer_params(args: list[str]) -> dict:
    """What Typer makes of render's arguments (the reference the fast path must match)."""
    import typer.main

    from jobgen.cli.commands import app

    command = typer.main.get_command(app).commands["render"]  # type: ignore[attr-defined]
    ctx = command.make_context("render", list(args))
    return {k: getattr(v, "value", v) for k, v in ctx.params.items()}


def _normalised(params: dict) -> dict:
    return {k: (tuple(v) if isinstance(v, list | tuple) else v) or
            (None if isinstance(v, list | tuple) else v) for k, v in params.items()}


@pytest.mark.parametrize("args", [
    ["--site", "aurora", "--app", "cosmictagger", "--nodes", "2", "-A", "p"],
    ["--site=lumi", "--app=gpt", "--account=p", "--env", "A=1", "--env=B=2", "--precision",
     "bf16", "--framework", "pytorch", "--copper", "--requeue", "0"],
    ["--site", "aurora", "-A", "p", "--copper", "--copper-path", "/a", "--copper-path", "/b",
     "--app-args", "--tiny --steps 3", "--walltime", "90", "--app", "ffn", "--app", "gpt"],
    ["--site", "aurora", "--app", "ffn", "-A", "p", "--out", "job.sh", "--force"],
    ["--site", "aurora", "--app", "ffn", "-A", "p", "--out=", "--force"],
])
def test_fast_parser_reads_what_typer_reads(args):
    assert _normalised(fast_parse(args)) == _normalised(_typer_params(args))


@pytest.mark.parametrize("args", [
    ["--site", "aurora", "--nodes", "two"], ["--site", "aurora", "--precision", "fp8"],
    ["--site", "aurora", "--nodse", "2"], ["--site", "aurora", "-h"],
    ["--site", "aurora", "--force=yes"], ["--site", "aurora", "-Ap"],
    ["--site", "aurora", "--copper=yes"], ["--site"], ["--site", "aurora", "stray"],
    ["--site", "aurora", "--no-copper"],
])
def test_fast_parser_leaves_everything_unusual_to_typer(args):
    assert fast_parse(args) is None


_WORDS = st.sampled_from(
    [f for o in RENDER_OPTIONS for f in o.flags] + ["--no-copper", "-h", "--bogus", "aurora",
                                                    "2", "two", "bf16", "", "-1", "x=y", "--"])


@settings(max_examples=150, deadline=None)
@given(st.lists(_WORDS, max_size=8))
def test_whatever_the_fast_parser_accepts_typer_accepts_the_same_way(words):
    args = ["--site", "aurora", *words]
    fast = fast_parse(args)
    if fast is not None:
        assert _normalised(fast) == _normalised(_typer_params(args))


HEAVY = ("typer", "click", "pydantic", "torch", "jinja2", "jobgen.profiles.model",
         "annotated_types", "dataclasses", "typing", "tempfile")


@pytest.mark.parametrize("extra", [[], ["--out", "OUT"], ["--out", "OUT", "--force"]])
def test_a_warm_render_imports_neither_typer_pydantic_jinja2_nor_the_model(tmp_path, extra):
    """Nor dataclasses (its records are Frozen), typing (annotations only) or tempfile (a warm
    cache only reads); writing --out, with or without --force, stays on this path."""
    out = tmp_path / "job.pbs"
    if "--force" in extra:
        out.write_text("old\n")
    words = ["render", "--site", "aurora", "--app", "cosmictagger", "--nodes", "2", "-A", "p",
             *[str(out) if w == "OUT" else w for w in extra]]
    # what the interpreter loads before jobgen (an editable install's hook) does not count
    code = ("import sys, io; before = set(sys.modules); from jobgen.cli.main import _fast_render; "
            f"sys.stdout = io.StringIO(); done = _fast_render({words!r}); "
            "text = sys.stdout.getvalue(); sys.stdout = sys.__stdout__; "
            f"print(done, bool(text), sorted(m for m in {HEAVY!r} "
            "if m in sys.modules and m not in before))")
    run_jobgen("render", "--site", "aurora", "--app", "cosmictagger", "-A", "p")  # warm cache
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert res.stdout.strip() == f"True {not extra} []", res.stderr
    if extra:
        assert out.read_text().startswith("#!/bin/bash")


def test_fast_and_typer_paths_print_the_same_script_and_errors(tmp_path):
    ok = ["render", "--site", "polaris", "--app", "ffn", "--nodes", "2", "-A", "p"]
    fast = run_jobgen(*ok)
    out, typer_out = tmp_path / "job.sh", tmp_path / "typer.sh"
    assert run_jobgen(*ok, "--out", str(out)).returncode == 0
    slow = run_jobgen(*ok, "-Ap", "--out", str(typer_out))  # -Ap: only Typer reads it
    assert fast.returncode == slow.returncode == 0
    assert fast.stdout == out.read_text() == typer_out.read_text()
    bad = ["render", "--site", "polaris", "--app", "ffn", "-A", "p", "--nodes", "0"]
    fast_err = run_jobgen(*bad)
    slow_err = run_jobgen(*bad, "-Ap")
    assert fast_err.returncode == slow_err.returncode == 2
    assert fast_err.stderr == slow_err.stderr


def test_top_level_help_lists_every_command_whole_at_80_columns(monkeypatch):
    from helpers import jobgen_here

    monkeypatch.setenv("COLUMNS", "80")
    out = jobgen_here("--help").stdout
    listed = out.split("Commands:", 1)[1].splitlines()
    names = [ln.split()[0] for ln in listed if ln.strip()]
    from jobgen.cli.commands import SHORT_HELP

    assert set(COMMANDS) <= set(names) and sorted(names) == sorted(SHORT_HELP)
    assert not any("..." in ln for ln in listed) and all(len(ln) <= 80 for ln in listed), out
