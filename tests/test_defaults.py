"""Per-site user defaults: config file, environment, command line, in that order of strength."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers import ROOT, run_jobgen

CONFIG = """\
defaults:
  python: python3.11
sites:
  aurora:
    account: cfgproj
    queue: [capacity, debug]
    filesystems: [home, flare, daos_user]
  polaris:
    account: polproj
"""


@pytest.fixture
def config(isolated_jobgen):
    home = isolated_jobgen / "config" / "jobgen"
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.yaml").write_text(CONFIG)
    return home / "config.yaml"


def regenerate(*args: str, env: dict[str, str] | None = None) -> str:
    res = run_jobgen("render", *args, env=env)
    assert res.returncode == 0, res.stderr
    return next(line for line in res.stdout.splitlines() if line.startswith("# Regenerate:"))


def test_config_file_fills_account_queue_filesystems_and_python(config):
    line = regenerate("--site", "aurora", "--app", "ffn", "--nodes", "2")
    assert "--account=cfgproj" in line and "--queue=capacity" in line
    assert "--filesystems=home:flare:daos_user" in line and "--python=python3.11" in line
    assert "--account=polproj" in regenerate("--site", "polaris", "--app", "ffn")


def test_command_line_beats_environment_beats_config(config):
    env = {"JOBGEN_DEFAULTS": "aurora.account=envproj; python=py-env", "JOBGEN_ACCOUNT": "acct"}
    line = regenerate("--site", "aurora", "--app", "ffn", env=env)
    assert "--account=envproj" in line and "--python=py-env" in line
    line = regenerate("--site", "aurora", "--app", "ffn", "-A", "cli", env=env)
    assert "--account=cli" in line
    # JOBGEN_ACCOUNT is an account for every site, below a site's own JOBGEN_DEFAULTS entry
    assert "--account=acct" in regenerate("--site", "polaris", "--app", "ffn",
                                          env={"JOBGEN_ACCOUNT": "acct"})


def test_queue_preference_skips_queues_that_cannot_take_the_job(config):
    # capacity takes 1-16 nodes: 32 nodes fall through debug (1-2) to the automatic choice
    assert "--queue=capacity" in regenerate("--site", "aurora", "--app", "ffn", "--nodes", "4")
    assert "--queue=" not in regenerate("--site", "aurora", "--app", "ffn", "--nodes", "32")


def test_toml_config_works_the_same(isolated_jobgen):
    home = isolated_jobgen / "config" / "jobgen"
    home.mkdir(parents=True)
    (home / "config.toml").write_text('[sites.lumi]\naccount = "project_465000000"\n')
    assert "--account=project_465000000" in regenerate("--site", "lumi", "--app", "gpt")


def test_explain_names_the_layer_of_each_default(config):
    env = {"JOBGEN_DEFAULTS": "aurora.python=py-env"}
    res = run_jobgen("explain", "--site", "aurora", "--app", "ffn", "--nodes", "2",
                     "--format", "json", env=env)
    data = json.loads(res.stdout)
    layers = {d["key"]: d["layer"] for d in data["defaults"]}
    assert layers["account"] == f"user config ({config}: sites.aurora.account)"
    assert layers["queue"] == f"user config ({config}: sites.aurora.queue)"
    assert layers["python"] == "environment (JOBGEN_DEFAULTS aurora.python)"
    account = next(d for d in data["directives"] if d["text"] == "#PBS -A cfgproj")
    assert account["layer"] == layers["account"]
    text = run_jobgen("explain", "--site", "aurora", "--app", "ffn", env=env).stdout
    assert f"default: account=cfgproj   layer: user config ({config}: sites.aurora.account)" \
        in text


@pytest.mark.parametrize(("content", "message"), [
    ("sites:\n  aurora:\n    acount: x\n", "sites.aurora.acount: unknown key (use account, "
     "queue, filesystems, python)"),
    ("sites:\n  aurora:\n    account: [a, b]\n", "sites.aurora.account: account must be a "
     "string"),
    ("defaults:\n  python: 3\n", "defaults.python: python must be a string"),
    ("default:\n  python: x\n", "default: unknown key (use defaults, sites)"),
    ("sites: [aurora]\n", "sites must map site names"),
    ("sites:\n  aurora: {account: \"a\\nb\"}\n", "has control characters"),
    ("sites:\n  aurora:\n account: x\n", "YAML syntax error"),
    ("sites:\n  aurora:\n    queue: [nope]\n", "unknown queue 'nope' on aurora"),
])
def test_a_bad_config_is_one_line_naming_file_and_key(isolated_jobgen, content, message):
    home = isolated_jobgen / "config" / "jobgen"
    home.mkdir(parents=True)
    (home / "config.yaml").write_text(content)
    res = run_jobgen("render", "--site", "aurora", "--app", "ffn")
    assert res.returncode == 2 and res.stdout == ""
    assert len(res.stderr.splitlines()) == 1 and "Traceback" not in res.stderr
    assert str(home / "config.yaml") in res.stderr and message in res.stderr, res.stderr


def test_a_bad_environment_entry_is_one_line():
    res = run_jobgen("render", "--site", "aurora", "--app", "ffn",
                     env={"JOBGEN_DEFAULTS": "aurora.acount=x"})
    assert res.returncode == 2 and len(res.stderr.splitlines()) == 1
    assert "JOBGEN_DEFAULTS: 'aurora.acount=x' must be [SITE.]KEY=VALUE" in res.stderr


def test_config_is_not_read_when_the_command_line_sets_everything(isolated_jobgen):
    home = isolated_jobgen / "config" / "jobgen"
    home.mkdir(parents=True)
    (home / "config.yaml").write_text("not: [valid\n")
    res = run_jobgen("render", "--site", "aurora", "--app", "ffn", "-A", "p", "--queue", "debug",
                     "--filesystems", "home:flare", "--python", "python3")
    assert res.returncode == 0, res.stderr


def test_a_warm_render_with_a_config_does_not_import_yaml(config):
    run_jobgen("render", "--site", "aurora", "--app", "ffn")  # fills the cache
    code = ("import sys, io; from jobgen.cli.main import _fast_render; sys.stdout = io.StringIO(); "
            "_fast_render(['render', '--site', 'aurora', '--app', 'ffn']); "
            "sys.stdout = sys.__stdout__; print('yaml' in sys.modules)")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert res.stdout.strip() == "False", res.stderr
