"""Helpers shared by the tests: paths and a real `jobgen` process runner."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROFILE_FIXTURES = ROOT / "tests" / "profiles"

# A TensorFlow run loads Keras 2 through tf-keras: without both, the TensorFlow runs skip.
HAVE_TF = all(importlib.util.find_spec(m) is not None for m in ("tensorflow", "tf_keras"))
needs_tf = pytest.mark.skipif(not HAVE_TF, reason="tensorflow or tf-keras is not installed "
                              "(pip install tensorflow-cpu; pip install --no-deps tf-keras; "
                              "tools/test-suite.sh does) - TensorFlow runs skipped")


def python3_in(bindir: Path) -> Path:
    """A `python3` in BINDIR that is this interpreter, for a PATH where `python3` must be it.
    A wrapper that execs sys.executable, never a symlink: a venv's Python finds its pyvenv.cfg
    (and so its site-packages) beside the path it was started by, so through a link elsewhere
    it is the base interpreter without the venv's packages."""
    bindir.mkdir(parents=True, exist_ok=True)
    target = bindir / "python3"
    target.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    target.chmod(0o755)
    return target


def run_jobgen(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None,
               input: str | None = None, timeout: float = 120
               ) -> subprocess.CompletedProcess[str]:
    """Run the real CLI in a fresh interpreter, as a user would (a hang fails the test)."""
    # the output's width is the test's choice (env), never the developer's shell's $COLUMNS
    full_env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    full_env.update(env or {})
    # this checkout's jobgen, whatever the working directory (not another editable install)
    full_env["PYTHONPATH"] = os.pathsep.join(
        x for x in (str(ROOT), full_env.get("PYTHONPATH")) if x)
    return subprocess.run(
        [sys.executable, "-m", "jobgen", *args], capture_output=True, text=True,
        env=full_env, cwd=cwd or ROOT, input=input, timeout=timeout,
    )


def jobgen_here(*args: str) -> subprocess.CompletedProcess[str]:
    """The CLI in this process (quick, for many calls; a traceback fails the test), returned as
    :func:`run_jobgen` returns it. The environment is the test's (monkeypatch it)."""
    import contextlib
    import io

    from jobgen.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(args))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


# Sites that provide no PyTorch environment: a bundled app there needs --python (or a container).
SITE_PYTHON = {"jlse-mi250": "/home/me/rocm-torch/bin/python"}


def with_site_python(site: str, kw: dict) -> dict:
    """A bundled app's request names a Python where the site provides none (and no image)."""
    if kw.get("app") and not kw.get("container") and site in SITE_PYTHON:
        return {"python": SITE_PYTHON[site], **kw}
    return kw


def plan_for(site: str, **kw):
    """The plan of a render request as tests write it: a bundled app and an account by default."""
    from jobgen.plan.build import Request, build_plan
    from jobgen.profiles.load import load_profile

    if "command" not in kw:
        kw.setdefault("app", "cosmictagger")
    kw = with_site_python(site, kw)
    if not site.startswith("local"):
        kw.setdefault("account", "proj")
    return build_plan(load_profile(site), Request(site=site, **kw))


def env_of(plan) -> dict[str, str | None]:
    return {e.name: e.value for e in plan.env}


@contextlib.contextmanager
def capped(seconds: int = 10):
    """Fail (not hang) when the block runs past `seconds` (SIGALRM in the main thread): the
    hostile-input tests' cap per case; no timing is asserted below it."""
    import signal

    def over(*_):
        raise TimeoutError(f"still running after {seconds} s: a hang")

    old = signal.signal(signal.SIGALRM, over)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
