"""The program the ranks run, made to start: which Python and launcher, where the bundled apps
come from, and what the script checks once, on the batch node, before it launches any rank.

A job waits in the queue before it runs, so a program that cannot start must fail in seconds
with one line, not after the launcher has started every rank on every node:

* the job's Python need not have jobgen installed (the site's frameworks module, a conda
  environment, a container, `--python`): the script copies the `workloads` package jobgen
  rendered for (found without importing it) next to the wrapper and puts it first on
  PYTHONPATH; only that package, so the job's own torch and numpy are never shadowed by
  jobgen's environment, and the arguments jobgen checked are the ones that package parses;
* `--python P` on a torchrun site starts the ranks with `P -m torch.distributed.run`, the
  launcher of that Python, not the `torchrun` first on PATH;
* the checks: `--python` is executable, the bundled package is still there, and the app
  imports with its framework and accepts its arguments (`python -m workloads.APP --check`,
  run through the container when there is one, which also fails when the image is missing);
  for a program of the user's, that its command is found, or that its container starts.
"""

from __future__ import annotations

from ..frozen import Frozen
from ..profiles.facts import Fact
from ..shell import Word
from .apps import App, workloads_dir
from .launchers import SPAWN_MODULE, TORCHRUN_MODULE

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:  # the render path reads profiles as records (jobgen.profiles.records)
    from ..profiles.model import Profile

#: The script's exit status when the program cannot start (sysexits EX_CONFIG).
PREFLIGHT_EXIT = 78


class Check(Frozen):
    """A command that succeeds when the program can start, and the line printed when not."""

    words: tuple[Word, ...]
    failure: str
    why: str


class ProgramSetup(Frozen):
    package: str | None  # the bundled `workloads` directory copied into the job
    checks: tuple[Check, ...]  # those before the package copy
    app_check: Check | None  # after it: the app imports and takes its arguments
    facts: tuple[Fact, ...]
    # --stage: the staged data read by the app's own reader on one node, after the staging
    data_check: Check | None = None


def launcher_words(profile: Profile, python: str | None) -> tuple[tuple[str, ...], Fact]:
    """The launcher command: the profile's, or on torchrun sites `--python`'s own torchrun."""
    launcher = profile.launcher
    if python and launcher.dialect == "torchrun":
        words = (python, "-m", TORCHRUN_MODULE)
        return words, Fact(" ".join(words), f"torchrun of --python {python}, not the "
                           f"`{launcher.command}` on PATH: the ranks run under the same Python "
                           "and torch as the program", "PT torchrun (python -m "
                           "torch.distributed.run)", "command line (--python)")
    if launcher.dialect == "spawn":
        words = (python or launcher.command, "-m", SPAWN_MODULE)
        return words, Fact(" ".join(words), launcher.why, launcher.source, "profile",
                           launcher.unconfirmed)
    return (launcher.command,), Fact(launcher.command, launcher.why, launcher.source, "profile",
                                     launcher.unconfirmed)


def _python_check(python: str) -> Check:
    if "/" in python:
        return Check(("test", "-x", python), f"--python {python} is not an executable file",
                     "the Python given with --python exists on the batch node")
    return Check(("command", "-v", python), f"--python {python} is not on PATH",
                 "the Python given with --python is on PATH after the module loads")


def _package_facts(package: str) -> tuple[Check, Fact]:
    check = Check(("test", "-f", f"{package}/__init__.py"),
                  f"the workloads package jobgen rendered for is gone ({package}): "
                  "reinstall jobgen or render the script again",
                  "the package jobgen read the app's manifest and parser from")
    fact = Fact(f"package {package} copied to $JOBGEN_DIR/python, first on PYTHONPATH",
                "the job's Python need not have jobgen installed; only this package is put on "
                "the path, so the job's torch and numpy stay its own, and it is the version "
                "whose argument parser checked --app-args",
                "installed workloads package (found without importing it)", "computed by jobgen")
    return check, fact


DATA_WHY = ("and --data opens with the app's own reader and fits the configuration (format, "
            "shapes, one sample: workloads/runtime/data.py check_data), so a wrong path or data "
            "written for another --config stops here in seconds, not on every rank after the "
            "queue wait")


def program_setup(app: App | None, python: str, explicit_python: bool,
                  prefix: tuple[Word, ...], program: tuple[Word, ...],
                  spawner: bool = False,
                  launcher_check: tuple[str, str] | None = None,
                  staged_on: tuple[Word, ...] | None = None) -> ProgramSetup:
    """Package, checks and facts for the request's program.

    ``prefix`` runs the program (the container's exec, or nothing); ``program`` is what it
    runs: the user's command, or for a bundled app its arguments after ``-m MODULE``.
    ``spawner``: the ranks start with ``python -m workloads.spawn``, which needs the package
    on PYTHONPATH for a program of the user's too. ``launcher_check``: (command, hint) for a
    launcher that no documented module provides, checked on PATH first. ``staged_on``: with
    --stage, the launch that runs one task on one node: the data exists only once staged, so
    the first check leaves it out (`--data synthetic`) and a second one reads it there.
    """
    checks: list[Check] = []
    if launcher_check is not None:
        command, hint = launcher_check
        checks.append(Check(("command", "-v", command), f"the launcher {command} is not on "
                            f"PATH: {hint}", f"the launcher {command} exists after the module "
                            "loads (no documented module provides it)"))
    if explicit_python and not prefix:
        checks.append(_python_check(python))
    if app is None:
        first = program[0] if program else ""
        if prefix:
            checks.append(Check((*prefix, "true"), "the container does not start",
                                "the container image exists and starts (the runtime names "
                                "what is wrong)"))
        elif isinstance(first, str) and first:
            checks.append(Check(("command", "-v", first), f"{first} is not found",
                                "the program's command exists on the batch node"))
        found = workloads_dir() if spawner else None
        extra: list[Fact] = []
        if found is not None:
            check, fact = _package_facts(str(found))
            checks.insert(0, check)
            extra.append(Fact(fact.text, f"{SPAWN_MODULE} starts the ranks: " + fact.why,
                              fact.source, fact.layer))
        facts = tuple(Fact(c.failure, c.why, "request", "computed by jobgen") for c in checks)
        return ProgramSetup(str(found) if found else None, tuple(checks), None,
                            (*extra, *facts))
    package = str(app.package_dir)
    check, package_fact = _package_facts(package)
    checks.append(check)
    where = " in the container" if prefix else ""
    has_data = any(w == "--data" or (isinstance(w, str) and w.startswith("--data="))
                   for w in program)
    why = ("the app imports with its framework and accepts its arguments, in the job's "
           "environment (and container), before any rank starts")
    later = ("--data", "synthetic") if staged_on is not None else ()
    app_check = Check((*prefix, python, "-m", app.module, "--check", *program, *later),
                      f"{app.module} cannot start under {python}{where}",
                      why + (", " + DATA_WHY if has_data and not later else "")
                      + ("; the staged data is read after the staging" if later else ""))
    facts = [
        package_fact,
        *(Fact(c.failure, c.why, "request", "computed by jobgen") for c in checks),
        Fact(f"{app.module} --check", app_check.why, "workloads/runtime/cli.py (--check)",
             "computed by jobgen"),
    ]
    data_check = None
    if staged_on is not None:
        data_check = Check((*staged_on, *prefix, python, "-m", app.module, "--check",
                            *program), f"the staged data does not fit {app.module}",
                           "on one node, once the data is unpacked: the app imports "
                           + DATA_WHY)
        facts.append(Fact(f"{app.module} --check on one node after the staging",
                          data_check.why, "workloads/runtime/cli.py (--check); "
                          "workloads/runtime/data.py (check_data)", "computed by jobgen"))
    return ProgramSetup(package, tuple(checks), app_check, tuple(facts), data_check)
