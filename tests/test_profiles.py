"""The profile model, merging, the search path, the cache and the bundled facts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import PROFILE_FIXTURES, ROOT, run_jobgen

from jobgen.errors import JobgenError
from jobgen.profiles.cpus import cpu_mask, format_cpu_list, parse_cpu_list
from jobgen.profiles.load import deep_merge, discover, load_profile, site_names

BUNDLED = ["aurora", "jlse-mi250", "local", "local-gpu", "local-mpich", "local-slurm", "lumi",
           "polaris", "summit", "sunspot"]


def test_the_six_systems_and_local_profiles_are_found():
    assert site_names() == BUNDLED


@pytest.mark.parametrize("site", BUNDLED)
def test_bundled_profile_validates(site):
    loaded = load_profile(site)
    assert loaded.profile.name == site
    assert len(loaded.digest) == 64


def test_every_sourced_fact_names_a_reference():
    from jobgen.profiles.checks import _sourced

    for site in BUNDLED:
        p = load_profile(site).profile
        facts = list(_sourced(p, ""))
        assert len(facts) > 5
        for path, fact in facts:
            assert fact.why.strip() and fact.source.strip(), (site, path)
            assert fact.source.split()[0].rstrip(":") in p.references, (site, path, fact.source)


def test_sunspot_extends_aurora_and_overrides_system_facts():
    aurora = load_profile("aurora").profile
    sunspot = load_profile("sunspot")
    s = sunspot.profile
    assert [pf.name for pf in sunspot.chain] == ["sunspot", "aurora"]
    # inherited unchanged
    assert s.node.gpus == aurora.node.gpus
    assert s.env == aurora.env
    assert s.cpu_binding == aurora.cpu_binding
    # overridden
    assert s.scheduler.system_resource == "sunspot"
    assert s.scheduler.filesystems.default == ["home", "tegu"]
    assert [q.name for q in s.scheduler.queues] == ["workq"]
    assert s.launcher.master.suffix == ".hsn.cm.sunspot.alcf.anl.gov"
    assert s.launcher.master.hostfile == "PBS_NODEFILE"  # merged key by key
    assert s.copper is None and aurora.copper is not None
    assert "UG" in s.references and "UGOLD" in s.references


def test_show_prints_the_merged_sunspot_profile():
    res = run_jobgen("show", "sunspot", "--format", "json")
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["extends"] == "aurora"
    assert data["scheduler"]["system_resource"] == "sunspot"
    assert data["node"]["gpus"]["count"] == 6
    yaml_out = run_jobgen("show", "sunspot")
    assert "merged from" in yaml_out.stdout and "aurora.yaml" in yaml_out.stdout


def test_deep_merge_merges_mappings_and_replaces_lists():
    base = {"a": {"x": 1, "y": [1, 2]}, "b": 1}
    assert deep_merge(base, {"a": {"y": [3]}}) == {"a": {"x": 1, "y": [3]}, "b": 1}


def test_aurora_reserved_cores_and_topology():
    p = load_profile("aurora").profile
    assert p.node.reserved.cores == [0, 52]
    assert p.devices_per_node == 12
    assert p.gpu_affinity.hierarchy == "FLAT"


def test_lumi_has_56_usable_cores():
    from jobgen.plan.placement import usable_cores

    assert len(usable_cores(load_profile("lumi").profile)) == 56


def _user_profile_dir(tmp_path: Path, name: str, text: str) -> Path:
    d = tmp_path / "profiles"
    d.mkdir(exist_ok=True)
    (d / f"{name}.yaml").write_text(text)
    return d


def test_user_profile_overrides_bundled_visibly(tmp_path, monkeypatch):
    d = _user_profile_dir(tmp_path, "polaris", "name: polaris\nextends: polaris\n"
                          "scheduler:\n  default_walltime: '01:00:00'\n")
    monkeypatch.setenv("JOBGEN_PROFILE_PATH", str(d))
    pf = discover()["polaris"]
    assert pf.layer == "JOBGEN_PROFILE_PATH"
    assert pf.shadows and "site_profiles" in str(pf.shadows[0])
    loaded = load_profile("polaris")
    assert loaded.profile.scheduler.default_walltime == "01:00:00"
    # extends its own name: the bundled polaris underneath
    assert loaded.chain[1].layer == "bundled"
    res = run_jobgen("sites", env={"JOBGEN_PROFILE_PATH": str(d), "COLUMNS": "300"})
    assert res.returncode == 0
    row = next(line for line in res.stdout.splitlines() if "polaris" in line)
    assert "JOBGEN_PROFILE_PATH (overrides bundled)" in row


def test_xdg_config_dir_is_on_the_search_path(tmp_path, monkeypatch, isolated_jobgen):
    xdg = isolated_jobgen / "config" / "jobgen" / "profiles"
    xdg.mkdir(parents=True)
    (xdg / "mysite.yaml").write_text("name: mysite\nextends: polaris\n")
    assert discover()["mysite"].layer == "user config"
    assert load_profile("mysite").profile.node.gpus.count == 4


def test_env_path_wins_over_xdg(tmp_path, monkeypatch, isolated_jobgen):
    xdg = isolated_jobgen / "config" / "jobgen" / "profiles"
    xdg.mkdir(parents=True)
    (xdg / "mysite.yaml").write_text("name: mysite\nextends: polaris\n")
    d = _user_profile_dir(tmp_path, "mysite", "name: mysite\nextends: aurora\n")
    monkeypatch.setenv("JOBGEN_PROFILE_PATH", str(d))
    assert load_profile("mysite").profile.node.gpus.vendor == "intel"


def test_unknown_site_lists_sites_and_close_matches():
    with pytest.raises(JobgenError) as err:
        load_profile("auroa")
    assert "Did you mean aurora" in str(err.value) and "polaris" in str(err.value)


def test_cache_is_used_and_invalidated_on_edit(tmp_path, monkeypatch):
    d = _user_profile_dir(tmp_path, "mysite", "name: mysite\nextends: polaris\n")
    monkeypatch.setenv("JOBGEN_PROFILE_PATH", str(d))
    first = load_profile("mysite")
    probe = (
        "import sys; from jobgen.profiles.load import load_profile; "
        "p = load_profile('mysite'); "
        "print(p.profile.scheduler.default_walltime, 'pydantic' in sys.modules, "
        "'yaml' in sys.modules)"
    )
    env = dict(__import__("os").environ)
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env,
                         cwd=ROOT, check=True).stdout.split()
    assert out == ["00:30:00", "False", "False"], "a warm cache must skip pydantic and YAML"
    (d / "mysite.yaml").write_text("name: mysite\nextends: polaris\n"
                                   "scheduler:\n  default_walltime: '02:00:00'\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env,
                         cwd=ROOT, check=True).stdout.split()
    assert out[0] == "02:00:00" and out[1] == "True"
    assert first.profile.scheduler.default_walltime == "00:30:00"


def test_cached_profile_equals_validated_profile(monkeypatch):
    fresh = load_profile("aurora")
    again = load_profile("aurora")  # from the cache written by the first call
    assert again.profile == fresh.profile and again.digest == fresh.digest
    monkeypatch.setenv("JOBGEN_NO_CACHE", "1")
    assert load_profile("aurora").profile == fresh.profile


def test_validate_bundled_profiles_exit_zero():
    res = run_jobgen("validate")
    assert res.returncode == 0, res.stderr
    assert "0 problem(s)" in res.stdout


def _invalid_fixtures():
    return sorted((PROFILE_FIXTURES / "invalid").glob("*.yaml"))


def test_at_least_twelve_invalid_fixtures():
    assert len(_invalid_fixtures()) >= 12


@pytest.mark.parametrize("fixture", _invalid_fixtures(), ids=lambda p: p.stem)
def test_invalid_profile_gives_its_one_line_error(fixture):
    expected = fixture.read_text().splitlines()[0].removeprefix("# expect: ")
    search = f"{PROFILE_FIXTURES / 'valid'}:{PROFILE_FIXTURES / 'invalid'}"
    res = run_jobgen("validate", str(fixture), env={"JOBGEN_PROFILE_PATH": search})
    assert res.returncode == 2
    assert "Traceback" not in res.stderr
    lines = res.stderr.strip().splitlines()
    assert lines and all(line.startswith(str(fixture)) for line in lines)
    assert any(expected in line for line in lines), (expected, lines)


def test_valid_fixture_validates():
    search = str(PROFILE_FIXTURES / "valid")
    res = run_jobgen("validate", str(PROFILE_FIXTURES / "valid"),
                     env={"JOBGEN_PROFILE_PATH": search})
    assert res.returncode == 0, res.stderr


def test_schema_is_json_schema_with_strict_objects():
    res = run_jobgen("schema")
    schema = json.loads(res.stdout)
    assert schema["title"] == "jobgen site profile"
    assert schema["additionalProperties"] is False
    assert "Queue" in schema["$defs"]


def test_cpu_list_helpers():
    assert parse_cpu_list("1-3,7") == [1, 2, 3, 7]
    assert format_cpu_list([1, 2, 3, 7, 9, 10]) == "1-3,7,9-10"
    assert cpu_mask(range(49, 56), 64) == "0x00fe000000000000"
    with pytest.raises(ValueError):
        parse_cpu_list("3-1")
    with pytest.raises(ValueError):
        parse_cpu_list("a")


def test_a_typo_in_a_user_override_is_reported_against_that_file(isolated_jobgen):
    """sunspot extends aurora; a user's aurora.yaml extends the bundled one: a typo there is
    the user file's, whichever site is rendered, and `validate` says it once."""
    from helpers import run_jobgen

    xdg = isolated_jobgen / "config" / "jobgen" / "profiles"
    xdg.mkdir(parents=True)
    user = xdg / "aurora.yaml"
    user.write_text('name: aurora\nextends: aurora\nscheduler:\n  default_waltime: "01:00:00"\n')
    env = {"XDG_CONFIG_HOME": str(isolated_jobgen / "config")}
    for site in ("aurora", "sunspot"):
        res = run_jobgen("render", "--site", site, "-A", "p", "--", "x", env=env)
        assert res.returncode == 2
        assert res.stderr == (f"jobgen: error: {user}: scheduler.default_waltime: unknown key "
                              "(check the spelling; `jobgen schema` lists the allowed keys)\n")
    res = run_jobgen("validate", env=env)
    assert res.returncode == 2
    assert (res.stdout + res.stderr).count("default_waltime") == 1, res.stdout + res.stderr


def test_validate_takes_a_profile_name_as_sites_lists_it(tmp_path):
    """`jobgen validate lumi-mine` checks the profile `jobgen sites` lists under that name."""
    (tmp_path / "lumi-mine.yaml").write_text(
        "name: lumi-mine\nextends: lumi\nscheduler:\n  default_walltime: '02:00:00'\n")
    env = {"JOBGEN_PROFILE_PATH": str(tmp_path)}
    assert "lumi-mine" in run_jobgen("sites", "--format", "json", env=env).stdout
    res = run_jobgen("validate", "lumi-mine", env=env)
    assert res.returncode == 0 and "1 profile(s) checked, 0 problem(s)" in res.stdout, res.stderr
    (tmp_path / "lumi-mine.yaml").write_text("name: lumi-mine\nextends: lumi\nbogus: 1\n")
    res = run_jobgen("validate", "lumi-mine", env=env)
    assert res.returncode == 2 and "bogus: unknown key" in res.stderr
    res = run_jobgen("validate", "lumi-g", env=env)
    assert res.returncode == 2 and "unknown site 'lumi-g'. Did you mean lumi" in res.stderr
