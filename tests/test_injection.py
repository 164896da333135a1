"""No input may run code or add a directive (issue 16): options and profiles are input.

The property tests generate option values and profile strings with control characters and
shell metacharacters for every site and check what a user would be hurt by: the render ends
in exit 0 or a one-line error (exit 2), never a traceback; the script parses (`bash -n`); its
directives are exactly the planned ones; and, for the local sites, running it with stand-in
launchers executes nothing but the stand-ins, which receive the program's words unchanged.
The regression tests replay each reproducer of the adversarial review.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest
import yaml
from helpers import run_jobgen

from jobgen.errors import JobgenError
from jobgen.frozen import replace  # Request and Plan are frozen.Frozen
from jobgen.plan.build import Request, build_plan
from jobgen.plan.program import PREFLIGHT_EXIT
from jobgen.profiles.load import load_profile, site_names
from jobgen.shell import join, split
from jobgen.text.render import render

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, event, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

SITES = site_names()
LOCAL_SITES = ("local", "local-mpich", "local-slurm")
# Scaled up for a long adversarial run: JOBGEN_FUZZ_EXAMPLES=5000 python3 -m pytest ...
EXAMPLES = int(os.environ.get("JOBGEN_FUZZ_EXAMPLES", "400"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])
CANARY = "JOBGEN_CANARY"

# Pieces that broke (or could break) a script: line ends, directive prefixes, command
# substitution, quotes, the heredoc terminator, separators, Unicode line separators.
PAYLOADS = [
    "\n", "\r\n", "\r", "\x0b", "\x0c", "\x1b[2J", "\x85", "\u2028", "\u2029", "\t",
    f"\ntouch {CANARY} #", f"$(touch {CANARY})", f"`touch {CANARY}`", f";touch {CANARY};",
    f"' ; touch {CANARY} ; '", f'" ; touch {CANARY} ; "', "\n#SBATCH --bogus #",
    "\n#PBS -l bogus #", "\n#BSUB -bogus #", "\n#COBALT --bogus #", "\nJOBGEN_EOF\n",
    "JOBGEN_EOF", "${IFS}", "$((9**9**9))", "\\", "\\n", "}", "{", "#", "*", "~", "!",
    "&", "|", "<", ">", "(", ")", "'", '"', " ", "-", "--", "=", ":", "%", "é", "\u202e",
]
hostile = st.lists(st.one_of(st.sampled_from(PAYLOADS), st.text(max_size=6)),
                   min_size=1, max_size=5).map("".join)
safe_word = st.from_regex(r"[a-z][a-z0-9_]{0,7}", fullmatch=True)

# option -> how a hostile value enters the request
FIELDS = ("env_value", "env_name", "job_name", "account", "queue", "walltime", "filesystems",
          "python", "framework_module", "container", "stage", "stage_to", "checkpoint_dir",
          "app_args", "copper_path", "program")


def base_request(site: str, app: bool) -> Request:
    kw: dict = {"site": site}
    if not site.startswith("local"):
        kw["account"] = "proj"
    if app:
        kw["app"] = "qcnn"
    else:
        kw["command"] = ("stubprog", "--x", "1")
    return Request(**kw)


def hostile_request(site: str, field: str, value: str, app: bool) -> Request:
    req = base_request(site, app and field != "program")
    changes: dict = {}
    if field == "env_value":
        changes["env"] = (f"FUZZ={value}",)
    elif field == "env_name":
        changes["env"] = (f"{value}=1",)
    elif field == "stage":
        changes["stage"] = value + ".tar"
    elif field == "stage_to":
        changes.update(stage="/data/in.tar", stage_to=value)
    elif field == "checkpoint_dir":
        changes.update(checkpoint_dir=value, requeue=1 if site == "local-slurm" else 0)
    elif field == "copper_path":
        changes.update(copper=True, copper_paths=(value,))
    elif field == "program":
        changes["command"] = ("stubprog", value, "--", value)
    elif field == "app_args":
        changes["app_args"] = value
    else:
        changes[field] = value
    return replace(req, **changes)


def plan_and_render(site: str, req: Request):
    """(plan, text) or None for a refused request; anything but JobgenError fails the test."""
    try:
        plan = build_plan(load_profile(site), req)
        text = render(plan)
    except JobgenError as exc:
        assert "\n" not in str(exc), f"error message spans lines: {exc!r}"
        event("refused (exit 2)")
        return None
    event("rendered (exit 0)")
    return plan, text


def bash_n(text: str) -> None:
    proc = subprocess.run(["bash", "-n"], input=text, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr + text


DIRECTIVE_PREFIXES = ("#PBS", "#SBATCH", "#BSUB", "#COBALT")


def assert_structure(plan, text: str) -> None:
    lines = text.split("\n")
    written = [s for s in lines if s.startswith(DIRECTIVE_PREFIXES)]
    assert written == [d.text for d in plan.directives]
    for d in plan.directives:  # a directive is one line of plain words
        assert "\n" not in d.text and "\r" not in d.text
    assert lines.count("JOBGEN_EOF") == 1
    # every line is a template line or carries a value inside quotes/comments; a payload
    # line such as `touch JOBGEN_CANARY #` never starts a line
    assert not any(s.lstrip().startswith(f"touch {CANARY}") for s in lines)
    # the script's own parser reads the Regenerate line back to the same request
    regen = next(s for s in lines if s.startswith("# Regenerate: "))
    assert join(split(regen[len("# Regenerate: "):])) == plan.regenerate


# ---------------------------------------------------------------- running local scripts
STUB = f"""#!{sys.executable} -S
import json, os, sys
with open(os.environ["JOBGEN_STUB_LOG"], "a") as fh:
    fh.write(json.dumps([os.path.basename(sys.argv[0]), sys.argv[1:]]) + "\\n")
if os.path.basename(sys.argv[0]) == "scontrol":
    print("localhost")
"""
STUB_NAMES = ("torchrun", "mpiexec.mpich", "srun", "scontrol", "stubprog", "python3", "tar",
              "module", "nvidia-cuda-mps-control")


@pytest.fixture(scope="module")
def stub_bin(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("stubs")
    for name in STUB_NAMES:
        (d / name).write_text(STUB)
        (d / name).chmod(0o755)
    return d


def _passes(words, path: str) -> bool:
    """What a preflight check (`test -x P`, `test -f P`, `command -v P`) finds here."""
    if words[:2] == ("command", "-v"):
        return shutil.which(words[2], path=path) is not None
    if words[:2] == ("test", "-x"):
        return os.access(words[2], os.X_OK)
    if words[:2] == ("test", "-f"):
        return os.path.isfile(words[2])
    raise AssertionError(f"a preflight check this test does not know: {words}")


def run_local(plan, text: str, stub_bin: Path, work: Path) -> list | None:
    """Run a local site's script with stand-ins first on PATH; return the stand-ins' calls, or
    None when the script's preflight refused, rightly, a program that cannot start (a
    generated --python is not an executable here)."""
    work.mkdir(parents=True, exist_ok=True)
    log = work / "calls.jsonl"
    log.unlink(missing_ok=True)
    env = {"PATH": f"{stub_bin}:/usr/bin:/bin", "JOBGEN_STUB_LOG": str(log), "HOME": str(work),
           "TMPDIR": str(work), "SLURM_JOB_NUM_NODES": "1", "SLURM_JOB_NODELIST": "localhost",
           "SLURM_SUBMIT_DIR": str(work), "SLURM_JOB_ID": "1", "USER": "fuzz"}
    script = work / "job.sh"
    script.write_text(text)
    proc = subprocess.run(["bash", str(script)], cwd=work, env=env, capture_output=True,
                          timeout=60)
    assert not list(work.rglob(f"*{CANARY}*")), "a value ran as code"
    assert not Path(CANARY).exists()
    calls = [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []
    if proc.returncode == PREFLIGHT_EXIT:
        refusal = [ln for ln in proc.stderr.splitlines() if b"cannot start the program" in ln]
        assert len(refusal) == 1, proc.stderr
        assert plan.launcher[0] not in [tool for tool, _ in calls], "launched after refusing"
        assert not all(_passes(c.words, env["PATH"]) for c in plan.program.checks), \
            f"refused a program that can start: {proc.stderr!r}"
        event("refused by the preflight (exit 78)")
        return None
    return calls


def assert_program_words(plan, calls: list | None) -> None:
    """The launcher got the wrapper and then the program's words, byte for byte."""
    assert calls is not None, "the preflight refused a program that should start"
    if not all(isinstance(w, str) for w in plan.command):
        return  # an Expand word (staged data) is expanded by the shell on purpose
    launches = [args for tool, args in calls if tool == plan.launcher[0]]
    assert launches, f"the launcher never ran: {calls}"
    args = launches[-1]
    wrapper = next(i for i, a in enumerate(args) if a.endswith("rank-wrapper.sh"))
    assert args[wrapper + 1:] == list(plan.command)


# ---------------------------------------------------------------- property tests
@pytest.mark.slow
@FUZZ
@given(site=st.sampled_from(SITES), field=st.sampled_from(FIELDS), value=hostile,
       app=st.booleans())
def test_hostile_option_values_never_inject(site, field, value, app, stub_bin, tmp_path):
    req = hostile_request(site, field, value, app)
    done = plan_and_render(site, req)
    if done is None:
        return
    plan, text = done
    bash_n(text)
    assert_structure(plan, text)
    if site in LOCAL_SITES and field not in ("stage", "stage_to"):
        calls = run_local(plan, text, stub_bin, tmp_path / "run")
        if calls is not None:
            assert_program_words(plan, calls)
            event("ran with stand-in launchers")


def _string_leaves(obj, path=()):
    if isinstance(obj, str):
        yield path
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _string_leaves(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _string_leaves(v, (*path, i))


def _set(obj, path, value):
    for key in path[:-1]:
        obj = obj[key]
    obj[path[-1]] = value


MERGED = {site: asdict(load_profile(site).profile) for site in SITES}
LEAVES = {site: [p for p in _string_leaves(MERGED[site]) if p[0] not in ("name", "extends")]
          for site in SITES}


@pytest.mark.slow
@FUZZ
@given(site=st.sampled_from(SITES), data=st.data(), value=hostile)
def test_hostile_profile_strings_never_inject(site, data, value, stub_bin, tmp_path,
                                               monkeypatch):
    path = data.draw(st.sampled_from(LEAVES[site]))
    profile = json.loads(json.dumps(MERGED[site]))
    profile.update(name="fuzz", extends=None)
    _set(profile, path, value)
    d = tmp_path / "profiles"
    d.mkdir(exist_ok=True)
    (d / "fuzz.yaml").write_text(yaml.safe_dump(profile, allow_unicode=True))
    monkeypatch.setenv("JOBGEN_PROFILE_PATH", str(d))
    monkeypatch.setenv("JOBGEN_NO_CACHE", "1")
    req = replace(base_request(site, app=False), site="fuzz")
    done = plan_and_render("fuzz", req)
    if done is None:
        return
    plan, text = done
    bash_n(text)
    assert_structure(plan, text)
    if site in LOCAL_SITES:
        assert_program_words(plan, run_local(plan, text, stub_bin, tmp_path / "run"))


@pytest.mark.slow
@settings(max_examples=max(20, EXAMPLES // 20), deadline=None, derandomize=True)
@given(site=st.sampled_from(SITES), field=st.sampled_from(FIELDS), value=hostile)
def test_hostile_values_through_the_cli_exit_0_or_one_line_2(site, field, value):
    """The real command line: exit 0 or 2, never a traceback, errors on one line."""
    if "\x00" in value:
        return  # no process can receive a NUL in its arguments
    args = split(hostile_request(site, field, value, app=True).command_line())[2:]
    proc = run_jobgen("render", *args)
    assert proc.returncode in (0, 2), proc.stderr
    assert "Traceback" not in proc.stderr
    if proc.returncode == 2:
        assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("jobgen: error: ")
        assert proc.stdout == ""
    else:
        bash_n(proc.stdout)


# ---------------------------------------------------------------- the review's reproducers
def render_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_jobgen("render", *args)


def test_newline_in_env_value_is_data_not_code(stub_bin, tmp_path):
    """Reproducer: `--env $'FOO=x\\ntouch /tmp/pwned #'` ran `touch` when the script ran."""
    proc = render_cli("--site", "local", "--env", f"FOO=x\ntouch {CANARY} #", "--", "stubprog")
    assert proc.returncode == 0, proc.stderr
    bash_n(proc.stdout)
    assert f"export FOO=$'x\\ntouch {CANARY} #'" in proc.stdout
    plan = build_plan(load_profile("local"), Request(
        site="local", env=(f"FOO=x\ntouch {CANARY} #",), command=("stubprog",)))
    run_local(plan, proc.stdout, stub_bin, tmp_path)


@pytest.mark.parametrize("option", ["--app-args", "--python", "--checkpoint-dir", "--container",
                                    "--stage", "--stage-to", "--env"])
@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_newline_in_any_option_never_becomes_a_line(option, newline):
    site = "lumi" if option == "--container" else "local"
    value = f"x{newline}touch {CANARY} #"
    extra = {"--stage": ["--stage", f"/d/{value}.tar"],
             "--stage-to": ["--stage", "/d/a.tar", "--stage-to", f"/tmp/{value}"],
             "--env": ["--env", f"A={value}"],
             "--checkpoint-dir": ["--checkpoint-dir", value]}.get(option, [option, value])
    proc = render_cli("--site", site, "-A", "p", "--app", "ffn", *extra)
    assert proc.returncode in (0, 2), proc.stderr
    if proc.returncode == 0:
        bash_n(proc.stdout)
        assert not any(s.startswith(f"touch {CANARY}") for s in proc.stdout.splitlines())
    else:
        assert proc.stderr.count("\n") == 1


def test_program_words_with_newlines_reach_the_program_unchanged(stub_bin, tmp_path):
    """Reproducer: `-- python3 -c $'import sys\\nprint(sys.argv)'` gave a script bash -n
    rejected; now the words arrive byte for byte."""
    words = ("stubprog", "-c", "import sys\nprint(sys.argv)", f"$(touch {CANARY})", "a'b\"c")
    proc = render_cli("--site", "local", "--", *words)
    assert proc.returncode == 0, proc.stderr
    bash_n(proc.stdout)
    plan = build_plan(load_profile("local"), Request(site="local", command=words))
    assert_program_words(plan, run_local(plan, proc.stdout, stub_bin, tmp_path))


def test_newline_cannot_add_a_slurm_directive():
    """Reproducer: `--env $'A=1\\n#SBATCH --bogus #'` gave a script sbatch read an option
    from."""
    proc = render_cli("--site", "local-slurm", "--env", "A=1\n#SBATCH --bogus #", "--", "x")
    assert proc.returncode == 0
    assert not any(s.startswith("#SBATCH --bogus") for s in proc.stdout.splitlines())


@pytest.mark.parametrize("args", [
    ["--site", "summit", "-A", "p", "--app", "ffn", "--job-name", "myjob\n"],
    ["--site", "aurora", "-A", "p\n", "--app", "ffn"],
    ["--site", "aurora", "-A", "p", "--app", "ffn", "--copper", "--copper-path", "/a/b\n"],
    ["--site", "aurora", "-A", "p", "--app", "ffn", "--framework-module", "frameworks\n"],
    ["--site", "local", "--app", "ffn", "--stage", "/d/a.tar", "--stage-to", "/tmp/x\n"],
    ["--site", "local", "--env", "X\n=1", "--", "x"],
    ["--site", "aurora", "-A", "p", "--app", "ffn", "--queue", "debug\n"],
    ["--site", "aurora", "-A", "p", "--app", "ffn", "--filesystems", "flare\n"],
])
def test_a_trailing_newline_no_longer_passes_validation(args):
    """Reproducers: `$` matched before a final newline, so `--job-name $'myjob\\n'` split a
    #BSUB line; every check is a fullmatch now."""
    proc = render_cli(*args)
    assert proc.returncode == 2, proc.stdout
    assert proc.stderr.count("\n") == 1 and proc.stdout == ""


def test_aurora_env_value_with_parenthesis_parses():
    """Reproducer: `--env $'FOO=\\n)'` on Aurora exited 0 with a script bash -n rejected."""
    proc = render_cli("--site", "aurora", "-A", "proj", "--app", "resnet50", "--env", "FOO=\n)")
    assert proc.returncode == 0
    bash_n(proc.stdout)


PROFILE_FIELDS = [
    # (field path in the merged profile, hostile value) from the review's list
    (("scheduler", "why"), "x\ntouch PWNED #"),
    (("scheduler", "source"), "SRUN x\ntouch PWNED #"),
    (("scheduler", "unconfirmed"), "x\r\ntouch PWNED #"),
    (("scheduler", "shell"), "/bin/bash\ntouch PWNED"),
    (("scheduler", "directives", 0, "value"), "--output=x\n#SBATCH --bogus"),
    (("scheduler", "directives", 0, "value"), "--output=x; touch PWNED"),
    (("scheduler", "queues", 0, "name"), "debug\n#SBATCH --bogus"),
    (("scheduler", "queues", 0, "name"), "debug --bogus"),
    (("launcher", "command"), "srun; touch PWNED"),
    (("launcher", "master", "suffix"), '"; touch PWNED; "'),
    (("launcher", "rank_env", "local_rank"), "SLURM_LOCALID}$(touch PWNED)"),
    (("launcher", "rank_env", "rank"), "A\n"),
    (("gpu_affinity", "why"), "\u2028touch PWNED"),
    (("python", "executable"), "python3\ntouch PWNED"),
    (("references", "SRUN"), "x\n#SBATCH --bogus"),
    (("description",), "x\ny"),
]


@pytest.mark.parametrize("path,value", PROFILE_FIELDS, ids=lambda x: str(x)[:40])
def test_hostile_profile_value_is_refused_with_one_line(path, value, tmp_path):
    profile = json.loads(json.dumps(MERGED["local-slurm"]))
    profile.update(name="evil", extends=None)
    _set(profile, path, value)
    (tmp_path / "evil.yaml").write_text(yaml.safe_dump(profile))
    proc = run_jobgen("render", "--site", "evil", "--", "x",
                      env={"JOBGEN_PROFILE_PATH": str(tmp_path)})
    assert proc.returncode == 2, proc.stdout
    assert proc.stderr.count("\n") == 1 and proc.stdout == ""
    assert "PWNED" not in proc.stdout


@pytest.mark.parametrize("field,value", [
    (("launcher", "master", "hostfile"), "PBS_NODEFILE}\"; touch PWNED; \""),
    (("gpu_affinity", "variable"), "ZE_AFFINITY_MASK=0; touch PWNED;"),
    (("scheduler", "system_resource"), "flare\n#PBS -l bogus"),
    (("scheduler", "filesystems", "valid", 0), "home:flare\n#PBS -l bogus"),
    (("copper", "mount"), "/tmp/$(touch PWNED)"),
])
def test_hostile_aurora_profile_fields_are_refused(field, value, tmp_path):
    profile = json.loads(json.dumps(MERGED["aurora"]))
    profile.update(name="evil", extends=None)
    _set(profile, field, value)
    (tmp_path / "evil.yaml").write_text(yaml.safe_dump(profile))
    proc = run_jobgen("validate", str(tmp_path / "evil.yaml"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


@pytest.mark.parametrize("field,value", [(("launcher", "master", "port"), "30000"),
                                         (("scheduler", "account_required"), "no"),
                                         (("node", "sockets"), 10**30)])
def test_profile_numbers_and_flags_are_typed_strictly(field, value, tmp_path):
    """`port: "30000"` and `account_required: "no"` were accepted as strings; 10**30 sockets
    exhausted memory."""
    profile = json.loads(json.dumps(MERGED["aurora"]))
    profile.update(name="typed", extends=None)
    _set(profile, field, value)
    (tmp_path / "typed.yaml").write_text(yaml.safe_dump(profile))
    proc = run_jobgen("validate", str(tmp_path / "typed.yaml"))
    assert proc.returncode == 2, proc.stdout
    assert ".".join(map(str, field)) in proc.stderr


def test_a_template_value_without_a_filter_is_refused():
    """finalize: a raw string with a space or a line break cannot reach the text."""
    from jobgen.text.render import environment

    env = environment()
    assert env.from_string("{{ x }}").render(x="plain-token_1.2") == "plain-token_1.2"
    for raw in ("two words", "a\nb", "$(x)", "a'b"):
        with pytest.raises(JobgenError):
            env.from_string("{{ x }}").render(x=raw)
    assert env.from_string("{{ x | sh }}").render(x="a\nb") == "$'a\\nb'"
    assert env.from_string("# {{ x | comment }}").render(x="a\nb") == "# a\\nb"


def test_directive_added_by_a_broken_plan_is_caught():
    """Defence in depth: a directive the plan does not hold makes render refuse."""
    from jobgen.profiles.facts import Fact
    from jobgen.text.render import check_structure

    plan = build_plan(load_profile("local-slurm"), Request(site="local-slurm", command=("x",)))
    text = render(plan)
    check_structure(plan, text)
    with pytest.raises(JobgenError):
        check_structure(plan, text.replace("set -e", "#SBATCH --bogus\nset -e"))
    shorter = replace(plan, directives=plan.directives[:-1] + (Fact("#SBATCH --x", "", ""),))
    with pytest.raises(JobgenError):
        check_structure(shorter, text)
