"""`jobgen verify`: a generated script against what jobgen renders today from its header."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import ROOT, run_jobgen


def _render(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> Path:
    out = tmp_path / "job.sh"
    result = run_jobgen("render", *args, "--out", str(out), "--force", env=env)
    assert result.returncode == 0, result.stderr
    return out


def test_fresh_script_is_up_to_date(tmp_path):
    path = _render(tmp_path, "--site", "polaris", "--app", "ffn", "--nodes", "2", "-A", "p")
    result = run_jobgen("verify", str(path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "up to date" in result.stdout


def test_a_one_character_edit_is_drift_named_by_meaning(tmp_path):
    path = _render(tmp_path, "--site", "aurora", "--app", "ffn", "--nodes", "2", "-A", "p")
    text = path.read_text()
    assert "--ppn 12 " in text
    path.write_text(text.replace("--ppn 12 ", "--ppn 13 ", 1))
    result = run_jobgen("verify", str(path))
    assert result.returncode == 1
    assert "DRIFTED" in result.stdout and "edited by hand" in result.stdout
    assert "launcher:" in result.stdout and "~ --ppn: 12 -> 13" in result.stdout


def test_a_one_character_edit_in_a_comment_is_drift_too(tmp_path):
    path = _render(tmp_path, "--site", "lumi", "--app", "gpt", "-A", "p")
    lines = path.read_text().splitlines(keepends=True)
    k = next(i for i, line in enumerate(lines) if line.startswith("# ---- environment"))
    lines[k] = lines[k].replace("environment", "environmant")
    path.write_text("".join(lines))
    result = run_jobgen("verify", str(path), "--format", "json")
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert data["changes"] == [] and not data["up_to_date"]
    assert any("environmant" in line for line in data["text_diff"])


def test_a_changed_profile_is_named_as_the_cause(tmp_path):
    profiles = tmp_path / "profiles"
    profiles.mkdir()
    mine = profiles / "polaris.yaml"
    mine.write_text("name: polaris\nextends: polaris\n")
    env = {"JOBGEN_PROFILE_PATH": str(profiles)}
    path = _render(tmp_path, "--site", "polaris", "--app", "ffn", "-A", "p", env=env)
    assert run_jobgen("verify", str(path), env=env).returncode == 0
    mine.write_text("name: polaris\nextends: polaris\nscheduler:\n  default_walltime: '00:45:00'\n")
    result = run_jobgen("verify", str(path), env=env)
    assert result.returncode == 1
    assert "the polaris profile changed since the script was generated" in result.stdout
    assert "~ #PBS -l walltime: 00:45:00 -> 00:30:00" in result.stdout


def test_scripts_without_a_header_cannot_be_verified(tmp_path):
    path = tmp_path / "hand.pbs"
    path.write_text((ROOT / "tests" / "scripts" / "broken" / "cpu001_reserved_core.pbs")
                    .read_text())
    result = run_jobgen("verify", str(path))
    assert result.returncode == 2
    assert "no jobgen provenance header" in result.stderr


def _moved(tmp_path: Path, *args: str) -> Path:
    """A script rendered when jobgen's bundled apps lay elsewhere (a reinstall, a move)."""
    path = _render(tmp_path, *args)
    here = str(ROOT / "workloads")
    text = path.read_text()
    assert f"cp -R {here} " in text
    path.write_text(text.replace(here, "/old/venv/lib/python3.11/site-packages/workloads"))
    return path


def test_a_moved_install_is_named_as_such_not_as_a_hand_edit(tmp_path):
    path = _moved(tmp_path, "--site", "aurora", "--app", "ffn", "--nodes", "2", "-A", "p")
    result = run_jobgen("verify", str(path))
    assert result.returncode == 1, result.stdout + result.stderr
    assert ("the bundled apps' path changed from /old/venv/lib/python3.11/site-packages/"
            f"workloads to {ROOT / 'workloads'}") in result.stdout
    assert "render the script again" in result.stdout
    assert "edited by hand" not in result.stdout and "text differs" not in result.stdout


def test_a_hand_edit_beside_a_moved_install_is_still_a_hand_edit(tmp_path):
    path = _moved(tmp_path, "--site", "aurora", "--app", "ffn", "--nodes", "2", "-A", "p")
    path.write_text(path.read_text().replace("--ppn 12 ", "--ppn 13 ", 1))
    result = run_jobgen("verify", str(path))
    assert result.returncode == 1
    assert "the bundled apps' path changed" in result.stdout
    assert "edited by hand" in result.stdout and "~ --ppn: 12 -> 13" in result.stdout
    assert "/old/venv" not in result.stdout.split("edited by hand", 1)[1]
