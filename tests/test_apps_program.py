"""Bundled apps start from whatever Python the script uses, fast by default.

The package jobgen rendered for is copied into the job and put first on PYTHONPATH; `--python`
brings its own torchrun; the script checks once, before any rank starts, that the program can
start (exit 78, one line); `--app-args` is checked by the app's own parser at render time; the
app's measured configuration for the device class is in the command, with its evidence.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT, plan_for, run_jobgen

from jobgen.errors import JobgenError
from jobgen.plan.apps import workloads_dir
from jobgen.plan.build import Request
from jobgen.plan.program import PREFLIGHT_EXIT
from jobgen.profiles.load import load_profile
from jobgen.review.explain import build_report
from jobgen.review.scriptparse import parse_text
from jobgen.text.render import render


def _words(plan) -> list[str]:
    return [w for w in plan.command if isinstance(w, str)]


# ---------------------------------------------------------------- --app-args at render time
@pytest.mark.parametrize(("app_args", "message"), [
    ("--bogus-flag", "unrecognized arguments: --bogus-flag"),
    ("--batch-size 0", "argument --batch-size: 0 is not a positive batch size"),
    ("--steps many", "argument --steps: invalid int value: 'many'"),
    ("--help", "--help and --version print and exit"),
    ("--precision bf16", "use jobgen's --precision"),
    ("--device cuda", "--app-args sets --device cuda, but local gives its ranks cpu devices"),
])
def test_app_args_the_app_would_refuse_are_one_line_exit_2(app_args, message):
    res = run_jobgen("render", "--site", "local", "--app", "qcnn", "--app-args", app_args)
    assert res.returncode == 2 and res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in res.stderr, res.stderr
    assert message in lines[0], lines[0]


def test_tensorflow_apps_are_checked_by_their_own_parser_and_keep_their_defaults():
    """The measured configurations are PyTorch's: a TensorFlow app gets none of them, and a
    PyTorch-only option in --app-args is refused at render time."""
    res = run_jobgen("render", "--site", "polaris", "--app", "ffn", "--framework",
                     "tensorflow", "--nodes", "2", "-A", "p", "--app-args",
                     "--optimizer-impl foreach")
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert "unrecognized arguments: --optimizer-impl foreach" in res.stderr
    plan = plan_for("polaris", app="ffn", framework="tensorflow", nodes=2)
    words = _words(plan)
    assert words[words.index("-m") + 1:words.index("-m") + 4] == [
        "workloads.ffn", "--framework", "tensorflow"]
    assert not {"--compile", "--optimizer-impl", "--workers"} & set(words)
    assert plan.precision == load_profile("polaris").profile.precision.default
    assert plan.app_defaults == ()


def test_the_arguments_jobgen_writes_for_every_site_and_app_are_ones_the_app_accepts():
    """Without --app-args the app's parser is not run at render time (it costs the render its
    imports), so every argument list jobgen writes itself is parsed here."""
    from jobgen.plan.apps import app_names, check_app_args, load_app
    from jobgen.profiles.load import site_names

    checked = 0
    for site_name in site_names():
        for name in app_names():
            app = load_app(name)
            for framework in app.frameworks:
                try:
                    plan = plan_for(site_name, app=name, framework=framework,
                                    nodes=1 if site_name.startswith("local") else 2)
                except JobgenError:
                    continue  # a site that refuses the framework (LUMI and TensorFlow)
                words = list(plan.command)
                argv = words[words.index(app.module) + 1:]
                ns = check_app_args(app, [w if isinstance(w, str) else "X" for w in argv],
                                    framework)
                assert ns.device == plan.device_kind and ns.precision == plan.precision
                checked += 1
    assert checked >= 60


def test_app_args_are_checked_without_importing_torch():
    code = ("import sys\n"
            "from helpers import plan_for\n"
            "plan_for('aurora', app='gpt', app_args='--batch-size auto --no-compile --steps 9')\n"
            "print(sorted(m for m in ('torch', 'numpy') if m in sys.modules))\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT / "tests", env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert res.returncode == 0 and res.stdout.strip() == "[]", res.stderr


# ---------------------------------------------------------------- python, launcher, package
def test_python_option_starts_the_ranks_with_its_own_torchrun():
    plan = plan_for("local", app="qcnn", python="/opt/venv/bin/python")
    assert plan.launcher[:3] == ("/opt/venv/bin/python", "-m", "torch.distributed.run")
    assert _words(plan)[:3] == ["/opt/venv/bin/python", "-m", "workloads.qcnn"]
    assert plan.launcher_name == "torchrun"
    assert plan_for("local", app="qcnn").launcher[0] == "torchrun"  # the profile's otherwise
    # an MPI launcher does not depend on the Python
    assert plan_for("local-mpich", app="qcnn", python="/v/bin/python").launcher[0] == \
        "mpiexec.mpich"


def test_python_torchrun_script_is_read_back_as_a_torchrun_launch():
    text = render(plan_for("local", app="qcnn", python="/opt/venv/bin/python"))
    script = parse_text(text)
    assert script.launch_argv[0] == "torchrun"
    assert "--nproc-per-node=2" in script.launch_argv


def test_script_copies_the_package_it_rendered_for_first_on_pythonpath():
    text = render(plan_for("polaris", app="ffn", nodes=2))
    package = str(workloads_dir())
    copy = f"cp -R {package} \"$JOBGEN_DIR/python/\""
    export = 'export PYTHONPATH="$JOBGEN_DIR/python${PYTHONPATH:+:$PYTHONPATH}"'
    check = text.index("-m workloads.ffn --check")
    launch = text.rindex("\"$JOBGEN_WRAPPER\"")
    assert text.index(copy) < text.index(export) < check < launch


def test_open_mpi_forwards_the_package_path_to_remote_ranks():
    plan = plan_for("jlse-mi250", app="ffn", nodes=2)
    forwarded = [a.words[1] for a in plan.launch_args if a.words[0] == "-x"]
    assert "PYTHONPATH" in forwarded
    own = plan_for("jlse-mi250", command=("python3", "t.py"), nodes=2)
    assert "PYTHONPATH" not in [a.words[1] for a in own.launch_args if a.words[0] == "-x"]


def test_preflight_checks_are_in_the_plan():
    plan = plan_for("local", app="qcnn", python="/v/bin/python", app_args="--steps 7")
    setup = plan.program
    assert [c.words[:2] for c in setup.checks] == [("test", "-x"), ("test", "-f")]
    assert setup.app_check.words[:5] == ("/v/bin/python", "-m", "workloads.qcnn", "--check",
                                         "--device")
    assert setup.app_check.words[-2:] == ("--steps", "7")
    lumi = plan_for("lumi", app="ffn", nodes=2)  # through the container: it must start too
    assert lumi.program.app_check.words[:2] == ("singularity", "exec")
    own = plan_for("local", command=("my-trainer", "--fast"))
    assert [c.words for c in own.program.checks] == [("command", "-v", "my-trainer")]


# ---------------------------------------------------------------- the script, for real
def _run(script: str, cwd: Path, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    path = cwd / "job.sh"
    path.write_text(script)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    env["OMP_NUM_THREADS"] = "1"
    return subprocess.run(["bash", str(path)], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=env)


def test_missing_python_fails_in_the_batch_shell_in_seconds_with_one_line(tmp_path):
    text = render(plan_for("local", app="qcnn", python=str(tmp_path / "nope" / "python"),
                           app_args="--tiny"))
    start = time.monotonic()
    res = _run(text, tmp_path)
    assert res.returncode == PREFLIGHT_EXIT, res.stderr
    assert time.monotonic() - start < 10
    assert res.stderr.strip().splitlines() == [
        f"jobgen: cannot start the program: --python {tmp_path}/nope/python is not an "
        "executable file"]
    assert res.stdout == ""


def test_app_that_does_not_import_fails_in_the_batch_shell_in_seconds_with_one_line(tmp_path):
    bare = tmp_path / "bare"  # a Python without torch
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True)
    python = str(bare / "bin" / "python")
    text = render(plan_for("local", app="qcnn", python=python, app_args="--tiny"))
    start = time.monotonic()
    res = _run(text, tmp_path)
    assert res.returncode == PREFLIGHT_EXIT, res.stderr
    assert time.monotonic() - start < 15
    assert res.stderr.strip().splitlines() == [
        f"jobgen: cannot start the program: workloads.qcnn cannot start under {python} "
        "(ModuleNotFoundError: No module named 'torch')"]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("mpiexec.mpich") is None, reason="MPICH is not installed")
def test_result_line_under_mpiexec_names_it_apart_from_the_variables_read(tmp_path):
    """The wrapper gives every rank torch's RANK...: the variables read; mpiexec started them."""
    text = render(plan_for("local-mpich", app="qcnn", app_args="--tiny --steps 3 --warmup 1"))
    res = _run(text, tmp_path)
    assert res.returncode == 0, res.stderr[-3000:]
    result = json.loads(res.stdout.strip().splitlines()[-1])
    assert result["launcher"] == "mpich"
    assert result["rank_variables"] == ["RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE"]


def _project_copy(dest: Path) -> Path:
    """The files a wheel is built from (a copy: building writes build/ and *.egg-info)."""
    for name in ("jobgen", "site_profiles", "templates", "workloads"):
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    return dest


@pytest.fixture(scope="module")
def two_venvs(tmp_path_factory):
    """jobgen installed from a wheel in one venv; torch in another, without jobgen."""
    root = tmp_path_factory.mktemp("venvs")
    src = _project_copy(root / "src")
    run = dict(check=True, capture_output=True, text=True, timeout=300)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(root / "dist"), str(src)], **run)
    wheel = next((root / "dist").glob("jobgen-*.whl"))
    # jinja2, pydantic, typer, rich, PyYAML come from the system site-packages
    tool = root / "jobgen-venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(tool)], **run)
    subprocess.run([str(tool / "bin" / "python"), "-m", "pip", "install", "-q", "--no-deps",
                    str(wheel)], **run)
    # The framework's venv: torch and numpy through a path entry to the system site-packages,
    # whose .pth files (the editable jobgen/workloads of the development install) are not run.
    fw = root / "framework-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(fw)], **run)
    fw_python = fw / "bin" / "python"
    fw_site = subprocess.run([str(fw_python), "-c", "import site; print(site.getsitepackages()"
                              "[0])"], **run).stdout.strip()
    Path(fw_site, "framework.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return tool, fw_python


@pytest.mark.slow
def test_two_venvs_precondition_the_framework_python_lacks_workloads(two_venvs):
    _, fw_python = two_venvs
    probe = subprocess.run([str(fw_python), "-c", "import torch, numpy; import workloads"],
                           capture_output=True, text=True, cwd="/")
    assert "No module named 'workloads'" in probe.stderr


@pytest.mark.slow
def test_script_from_a_wheel_trains_under_another_venvs_python(two_venvs, tmp_path):
    """The issue's done-when: render with --python from outside the checkout; it trains."""
    tool, fw_python = two_venvs
    outside = tmp_path / "project"
    outside.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    res = subprocess.run([str(tool / "bin" / "jobgen"), "render", "--site", "local", "--app",
                          "qcnn", "--python", str(fw_python), "--app-args",
                          "--tiny --steps 4 --warmup 1"], cwd=outside, capture_output=True,
                         text=True, env=env, timeout=120)
    assert res.returncode == 0, res.stderr
    script = res.stdout
    installed = tool / "lib"
    package = next(installed.glob("python3*/site-packages/workloads"))
    assert f"cp -R {package} " in script  # the wheel's package, not the checkout's
    assert f"{fw_python} -m torch.distributed.run " in script
    run = _run(script, outside, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["world_size"] == 2 and result["steps"] == 4
    assert result["launcher"] == "torchrun"
    assert result["rank_variables"] == ["RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE"]


# ---------------------------------------------------------------- tuned defaults
def _measured() -> dict[str, tuple[str, bool, bool]]:
    """app -> (precision, channels_last, compile) its manifest says was measured best on the
    H100; apps whose network changed since those say "not measured" instead."""
    from jobgen.plan.apps import app_names, load_app

    found = {}
    for name in app_names():
        entry = load_app(name).tuned.get("cuda")
        if isinstance(entry, dict):
            found[name] = (entry["precision"], bool(entry["channels_last"]),
                           bool(entry["compile"]))
    return found


def _remeasure() -> dict[str, str]:
    """app -> why its manifest has no H100 configuration (measured on the earlier network)."""
    from jobgen.plan.apps import app_names, load_app

    found = {}
    for name in app_names():
        entry = load_app(name).tuned.get("cuda")
        if isinstance(entry, str) and "since the 2026-11-23 H100 measurements" in entry:
            found[name] = entry
    return found


NVIDIA = _measured()
REMEASURE = _remeasure()
MEASURED = "resnet50"  # an app with an H100 configuration (bf16 + channels_last, no compile)


def test_resnet50_keeps_its_measured_configuration():
    """The plumbing tests below lean on it; its network did not change since."""
    assert NVIDIA[MEASURED] == ("bf16", True, False)


@pytest.mark.parametrize("app", sorted(NVIDIA))
def test_nvidia_sites_get_each_apps_measured_configuration(app):
    precision, channels_last, compiled = NVIDIA[app]
    plan = plan_for("polaris", app=app, nodes=2)
    words = _words(plan)
    assert plan.precision == precision
    assert words[words.index("--precision") + 1] == precision
    assert ("--channels-last" in words) == channels_last
    assert ("--compile" in words) == compiled
    assert words[words.index("--optimizer-impl") + 1] == "foreach"
    assert words[words.index("--workers") + 1] == "7"  # 8 cores per rank on Polaris
    facts = {f.text: f for f in plan.app_defaults}
    assert f"--precision {precision}" in facts
    assert all(f.source.startswith("jobgen H100 measurements") for f in plan.app_defaults
               if f.text.startswith(("--precision", "--channels", "--compile")))


def test_an_app_whose_network_changed_says_it_was_not_measured():
    from jobgen.plan.apps import load_app

    changed = "not measured (network changed since the 2026-11-23 H100 measurements)"
    assert load_app("gpt").tuned["cuda"].startswith(changed)
    plan = plan_for("polaris", app="gpt", nodes=2)
    words = _words(plan)
    assert "--compile" not in words and "--channels-last" not in words
    assert plan.precision == load_profile("polaris").profile.precision.default
    assert any(changed[len("not measured ("):-1] in f.why for f in plan.app_defaults)


def test_explain_shows_the_measurement_behind_each_default():
    loaded = load_profile("polaris")
    req = Request(site="polaris", app=MEASURED, nodes=2, account="p")
    from jobgen.plan.build import build_plan

    report = build_report(loaded, req, build_plan(loaded, req))
    program = {f["text"]: f for f in report["program"]}
    assert "2925 vs bf16 1957" in program["--channels-last"]["why"]
    assert "2785 vs 2925" in program["--compile not used"]["why"]
    assert "NVIDIA H100" in program["--channels-last"]["source"]
    res = run_jobgen("explain", "--site", "polaris", "--app", MEASURED, "--nodes", "2",
                     "-A", "p")
    assert "--compile not used" in res.stdout and "2785 vs 2925" in res.stdout


@pytest.mark.parametrize(("site", "app", "reason"), [
    ("lumi", MEASURED, "not measured on amd devices"),
    ("jlse-mi250", MEASURED, "not measured on amd devices"),
    ("aurora", MEASURED, "not measured: no Intel GPU run yet"),
    ("summit", MEASURED, "runs bf16, which summit does not support"),
    *(("polaris", app, reason) for app, reason in REMEASURE.items()),
    ("local", "qcnn", "not measured"),
])
def test_configurations_apply_only_where_they_were_measured(site, app, reason):
    plan = plan_for(site, app=app, nodes=1 if site == "local" else 2)
    words = _words(plan)
    assert "--compile" not in words and "--channels-last" not in words
    assert plan.precision == load_profile(site).profile.precision.default
    assert any(reason in f.why for f in plan.app_defaults), [f.why for f in plan.app_defaults]


def test_a_precision_the_user_asks_for_drops_the_configuration_measured_with_another():
    plan = plan_for("polaris", app=MEASURED, nodes=2, precision="tf32")
    assert plan.precision == "tf32" and "--channels-last" not in _words(plan)
    assert any("--precision tf32 differs from the measured bf16" in f.why
               for f in plan.app_defaults)
    same = plan_for("polaris", app=MEASURED, nodes=2, precision="bf16")
    assert "--channels-last" in _words(same)


def test_app_args_come_last_so_the_user_can_turn_a_default_off():
    plan = plan_for("polaris", app=MEASURED, nodes=2, app_args="--no-channels-last")
    words = _words(plan)
    assert words.index("--channels-last") < words.index("--no-channels-last") == len(words) - 1


def test_app_args_may_pick_a_named_configuration():
    plan = plan_for("polaris", app="gpt", nodes=2, app_args="--config gpt2")
    assert _words(plan)[-2:] == ["--config", "gpt2"]
    res = run_jobgen("render", "--site", "local", "--app", "gpt", "--app-args", "--config gpt9")
    assert res.returncode == 2 and "invalid choice: 'gpt9'" in res.stderr
    assert "'default', 'gpt2', 'tiny'" in res.stderr


# ---------------------------------------------------------------- local-gpu
def test_local_gpu_profile_gives_one_rank_its_nvidia_gpu():
    plan = plan_for("local-gpu", app="cosmictagger")
    assert (plan.world_size, plan.device_kind, plan.mask_variable) == (1, "cuda",
                                                                       "CUDA_VISIBLE_DEVICES")
    assert [s.mask for s in plan.slots] == ["0"]
    assert plan.launcher[0] == "torchrun" and "--nproc-per-node=1" in plan.launch_line
    words = _words(plan)
    assert words[words.index("--device") + 1] == "cuda"
    assert "--precision" in words  # an NVIDIA GPU: the app's H100 configuration, if any
    res = plan_for("local-gpu", app=MEASURED)
    assert "--channels-last" in _words(res)
    text = render(plan)
    assert "export CUDA_VISIBLE_DEVICES=0" in text
    subprocess.run(["bash", "-n"], input=text, text=True, check=True)
