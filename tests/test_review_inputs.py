"""Hostile input to the review tools and the profile search path (issue 24: F8, F10, F11).

Each test is one of the issue's reproducers: the input that crashed or stalled jobgen, and
the one-line answer it gives now."""

from __future__ import annotations

from pathlib import Path

from helpers import run_jobgen

from jobgen.review import semantic
from jobgen.shell import split


def _render(tmp_path: Path, *args: str) -> Path:
    out = tmp_path / "job.sh"
    res = run_jobgen("render", *args, "--out", str(out), "--force")
    assert res.returncode == 0, res.stderr
    return out


class CountingGroup(semantic.Numbered):
    """A group that counts how often a key is looked up."""

    lookups = 0

    def __contains__(self, key: object) -> bool:
        CountingGroup.lookups += 1
        return super().__contains__(key)


def test_f8_repeated_keys_are_numbered_with_a_number_of_lookups_linear_in_the_repeats():
    group = CountingGroup()
    for _ in range(5000):
        semantic._put(group, "A", "1")
    assert len(group) == 5000 and group["A #5000"] == "1"
    assert CountingGroup.lookups <= 3 * 5000  # the linear probe took 12.5 million


def test_f8_a_key_spelt_like_a_numbered_one_is_not_overwritten():
    group = semantic.Numbered()
    for key in ("A", "A #2", "A", "A"):
        semantic._put(group, key, key)
    assert list(group) == ["A", "A #2", "A #3", "A #4"]


def test_f8_diff_of_a_script_with_20000_repeated_exports_lists_each(tmp_path):
    base = _render(tmp_path, "--site", "local-mpich", "--app", "qcnn")
    lines = base.read_text().split("\n")
    k = next(i for i, line in enumerate(lines) if line.startswith("export"))
    lines[k:k] = ["export A=1"] * 20000
    edited = tmp_path / "edited.sh"
    edited.write_text("\n".join(lines))
    res = run_jobgen("diff", str(base), str(edited), timeout=60)  # took 27 s before
    assert res.returncode == 1, res.stderr
    assert "  + A #20000: 1" in res.stdout.splitlines()


def test_f10_an_escape_beyond_unicode_in_the_regenerate_line_is_one_line(tmp_path):
    path = _render(tmp_path, "--site", "local", "--app", "qcnn")
    text = path.read_text().replace(
        "# Regenerate: jobgen render", "# Regenerate: jobgen render --env=X=$'\\UFFFFFFFF'", 1)
    path.write_text(text)
    res = run_jobgen("verify", str(path))
    assert res.returncode == 2
    [line] = res.stderr.splitlines()
    assert line.startswith("jobgen: error: cannot read the Regenerate line")
    assert line.endswith("\\UFFFFFFFF is beyond Unicode (U+10FFFF)")


def test_f10_surrogate_and_largest_escapes_read_as_bash_writes_them():
    assert split("$'\\U0010FFFF'") == ["\U0010ffff"]
    # bash writes a lone surrogate's three UTF-8 bytes; they read back as escaped bytes
    assert split("$'\\uD800'")[0].encode("utf-8", "surrogateescape") == b"\xed\xa0\x80"


def test_f11_an_unknown_user_in_the_profile_path_is_one_line():
    res = run_jobgen("sites", env={"JOBGEN_PROFILE_PATH": "~nosuchuser"})
    assert res.returncode == 2
    assert res.stderr.splitlines() == [
        "jobgen: error: JOBGEN_PROFILE_PATH: cannot expand '~nosuchuser' (no such user or "
        "no home directory): give the directory as an absolute path"]


def test_f12_verify_shows_a_scripts_escape_sequences_escaped(tmp_path):
    path = _render(tmp_path, "--site", "local", "--app", "qcnn")
    text = path.read_text()
    k = text.index("\nexport ")
    path.write_text(text[:k] + "\n# \x1b]0;pwned\x07" + text[k:])  # a comment: same meaning
    res = run_jobgen("verify", str(path))
    assert res.returncode == 1
    assert "\x1b" not in res.stdout and "+# \\x1b]0;pwned\\x07" in res.stdout
