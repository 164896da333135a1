"""The cache is private and untrusted: damage is rebuilt, edits are not believed, no traceback."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, run_jobgen

from jobgen import cache
from jobgen.profiles.load import _entry_name, digest_of, discover, from_dict, load_profile
from jobgen.profiles.model import Profile

RENDER = ["render", "--site", "aurora", "--app", "ffn", "-A", "p"]


def _render(cache_dir: Path | None, **env: str) -> str:
    if cache_dir is not None:
        env["JOBGEN_CACHE_DIR"] = str(cache_dir)
    res = run_jobgen(*RENDER, env=env, timeout=60)
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr[-2000:]
    # only the plan's own notes (the queue choice), never a warning about the cache
    assert all(line.startswith("jobgen: note: ") for line in res.stderr.splitlines())
    return res.stdout


@pytest.fixture
def warm(tmp_path) -> tuple[Path, str]:
    """A cache filled by one render, and that render's text."""
    directory = tmp_path / "cache"
    return directory, _render(directory)


def _entries(directory: Path, prefix: str) -> list[Path]:
    found = sorted(directory.glob(f"{prefix}-*.json"))
    assert found, list(directory.iterdir())
    return found


# ---------------------------------------------------------------- damage
_DAMAGE = {
    "a list": "[1]",
    "a number": "7",
    "deeply nested JSON": "[" * 100_000 + "]" * 100_000,
    "truncated JSON": '{"name": "x", "data": {"vers',
    "not UTF-8": b"\xff\xfe\x00",
    "empty": "",
}


@pytest.mark.parametrize("damage", list(_DAMAGE), ids=list(_DAMAGE))
def test_a_damaged_entry_is_rebuilt_without_traceback(warm, damage):
    directory, expected = warm
    for entry in _entries(directory, "profile") + _entries(directory, "app"):
        content = _DAMAGE[damage]
        entry.write_bytes(content if isinstance(content, bytes) else content.encode())
    assert _render(directory) == expected
    assert json.loads(_entries(directory, "profile")[0].read_text())["name"].startswith(
        "profile-")  # written again, whole


@pytest.mark.parametrize("field,value", [("frameworks", 5), ("default_batch_size", "x"),
                                         ("sizes", [1]), ("name", None)])
def test_a_wrong_type_in_the_app_cache_is_rebuilt(warm, field, value):
    directory, expected = warm
    (entry,) = _entries(directory, "app")
    data = json.loads(entry.read_text())
    data["data"][field] = value
    entry.write_text(json.dumps(data))
    assert _render(directory) == expected


@pytest.mark.parametrize("kind", ["directory", "fifo", "symlink"])
def test_an_entry_that_is_not_a_regular_file_is_ignored(warm, kind):
    directory, expected = warm
    for entry in _entries(directory, "profile"):
        entry.unlink()
        if kind == "directory":
            entry.mkdir()
        elif kind == "fifo":
            os.mkfifo(entry)
        else:
            entry.symlink_to("/dev/zero")
    assert _render(directory) == expected


def test_an_app_entry_copied_under_another_name_is_ignored(tmp_path):
    directory = tmp_path / "cache"
    gpt = run_jobgen("render", "--site", "local", "--app", "gpt",
                     env={"JOBGEN_CACHE_DIR": str(directory)})
    _render(directory)  # adds ffn's entry
    ffn_entry = next(p for p in _entries(directory, "app") if p.name.startswith("app-ffn-"))
    gpt_entry = next(p for p in _entries(directory, "app") if p.name.startswith("app-gpt-"))
    gpt_entry.write_bytes(ffn_entry.read_bytes())
    again = run_jobgen("render", "--site", "local", "--app", "gpt",
                       env={"JOBGEN_CACHE_DIR": str(directory)})
    assert again.returncode == 0 and again.stdout == gpt.stdout


# ---------------------------------------------------------------- unusable directories
@pytest.mark.slow
def test_unusable_cache_locations_only_cost_speed(tmp_path):
    expected = _render(None, JOBGEN_NO_CACHE="1")
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    assert _render(a_file) == expected and a_file.read_text() == "x"
    assert _render(tmp_path / "a-file" / "below") == expected
    assert _render(None, JOBGEN_CACHE_DIR="", XDG_CACHE_HOME="/dev/null") == expected
    assert _render(Path("/proc/self/jobgen-cache")) == expected
    read_only = tmp_path / "read-only"
    read_only.mkdir(mode=0o700)
    _render(read_only)
    read_only.chmod(0o500)
    try:
        assert _render(read_only) == expected
    finally:
        read_only.chmod(0o700)


def test_a_new_cache_directory_is_private(tmp_path):
    directory = tmp_path / "deep" / "cache"
    _render(directory)
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert all(stat.S_IMODE(p.stat().st_mode) & 0o077 == 0
               for p in directory.iterdir() if p.is_file())


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o1777])
def test_a_group_or_world_writable_cache_directory_is_not_used(tmp_path, mode):
    directory = tmp_path / "shared"
    directory.mkdir()
    directory.chmod(mode)
    expected = _render(None, JOBGEN_NO_CACHE="1")
    assert _render(directory) == expected
    assert list(directory.iterdir()) == []


def test_a_cache_directory_owned_by_someone_else_is_not_used(tmp_path):
    directory = tmp_path / "theirs"
    directory.mkdir(mode=0o700)
    if os.geteuid() == 0:
        os.chown(directory, 12345, 12345)
    else:
        directory = Path("/")  # owned by root, not by this user
    before = sorted(os.listdir(directory))
    assert _render(directory) == _render(None, JOBGEN_NO_CACHE="1")
    assert sorted(os.listdir(directory)) == before


# ---------------------------------------------------------------- trust
def _profile_entry(directory: Path) -> tuple[Path, dict]:
    (entry,) = _entries(directory, "profile")
    return entry, json.loads(entry.read_text())


def test_an_edited_cached_profile_is_not_believed(warm):
    directory, expected = warm
    entry, data = _profile_entry(directory)
    queues = data["data"]["profile"]["scheduler"]["queues"]
    queues[0]["name"] = "debug\n#PBS -l evil=1"
    entry.write_text(json.dumps(data))
    text = _render(directory)
    assert text == expected and "evil" not in text
    assert "evil" not in entry.read_text()  # rebuilt from the profile file


def test_a_cached_profile_with_a_matching_digest_still_passes_the_profile_checks(warm):
    directory, expected = warm
    entry, data = _profile_entry(directory)
    profile = data["data"]["profile"]
    profile["launcher"]["rank_env"]["rank"] = "X;touch /tmp/pwned"  # not a variable name
    profile["node"]["reserved"] = {"cores": [9999], "why": "w", "source": "UG"}  # outside
    data["data"]["digest"] = digest_of(from_dict(Profile, profile))  # a consistent forgery
    entry.write_text(json.dumps(data))
    text = _render(directory)
    assert text == expected and "pwned" not in text


def test_a_symlink_planted_at_the_old_predictable_temp_name_is_not_followed(tmp_path):
    directory = tmp_path / "cache"
    directory.mkdir(mode=0o700)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    pf = discover()["aurora"]
    name = _entry_name(pf, pf.path.read_bytes())
    plant = f'ln -s {victim} {directory}/.{name}.$$ && exec "$0" -m jobgen "$@"'
    res = subprocess.run(["bash", "-c", plant, sys.executable, *RENDER], cwd=ROOT,
                         capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, JOBGEN_CACHE_DIR=str(directory),
                                  PYTHONPATH=str(ROOT)))
    assert res.returncode == 0, res.stderr
    assert victim.read_text() == "precious\n"
    assert json.loads((directory / name).read_text())["name"] == name


def test_entries_are_stored_with_their_own_name(tmp_path, monkeypatch):
    monkeypatch.setenv("JOBGEN_CACHE_DIR", str(tmp_path / "c"))
    cache.write("one.json", {"a": 1})
    assert cache.read("one.json") == {"a": 1}
    (tmp_path / "c" / "two.json").write_bytes((tmp_path / "c" / "one.json").read_bytes())
    assert cache.read("two.json") is None
    assert sorted(os.listdir(tmp_path / "c")) == ["one.json", "two.json"]


def test_the_cached_profile_still_equals_the_validated_one(monkeypatch):
    fresh = load_profile("lumi")
    again = load_profile("lumi")
    assert again.profile == fresh.profile and again.digest == fresh.digest


# ---------------------------------------------------------------- compiled templates
def _truncate_bytecode(directory: Path, keep: int) -> None:
    files = list((directory / "templates").iterdir())
    assert files
    for f in files:
        f.write_bytes(f.read_bytes()[:keep])


@pytest.mark.parametrize("keep", [0, 10, 30, 60, 2000])
def test_bytecode_cache_compiles_a_truncated_file_again(tmp_path, monkeypatch, keep):
    monkeypatch.setenv("JOBGEN_CACHE_DIR", str(tmp_path / "c"))
    import jinja2

    loader = jinja2.DictLoader({"t": "{% for i in range(3) %}{{ i }}{% endfor %}"})
    first = jinja2.Environment(loader=loader, bytecode_cache=cache.bytecode_cache())
    assert first.get_template("t").render() == "012"
    _truncate_bytecode(tmp_path / "c", keep)
    again = jinja2.Environment(loader=loader, bytecode_cache=cache.bytecode_cache())
    assert again.get_template("t").render() == "012"


def test_a_truncated_template_bytecode_file_is_compiled_again_by_render(warm):
    """A warm render runs the compiled templates kept in the cache (jobgen/text/templating.py) and
    otherwise Jinja2 with its bytecode cache: damage to either is compiled again."""
    directory, expected = warm
    kept = [*directory.glob("templates-*.marshal"), *directory.glob("templates/*")]
    assert kept
    for f in kept:
        f.write_bytes(f.read_bytes()[:30])
    assert _render(directory) == expected
