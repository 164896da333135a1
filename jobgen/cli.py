"""The `jobgen` command line: thin, it parses, asks the plan, renders, prints.

Scripts go to stdout as plain text (so `> job.sh` and pipes work); tables use Rich. A user
mistake is one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from .cliopts import with_options_of
from .errors import JobgenError
from .study.commands import register as register_study

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Correct, fast batch job scripts for AI training on supercomputers.",
    pretty_exceptions_enable=False,
)

# Arguments after a bare `--` are the user's own program; main() takes them off argv before
# Typer parses, so a mistyped option is still an error instead of part of the command.
_COMMAND: list[str] = []


class Format(str, Enum):
    yaml = "yaml"
    json = "json"


class FrameworkChoice(str, Enum):
    pytorch = "pytorch"
    tensorflow = "tensorflow"


class BackendChoice(str, Enum):
    nccl = "nccl"
    gloo = "gloo"
    xccl = "xccl"
    ccl = "ccl"


class PrecisionChoice(str, Enum):
    fp32 = "fp32"
    tf32 = "tf32"
    bf16 = "bf16"
    fp16 = "fp16"


def _console(stderr: bool = False):
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    width = None if stream.isatty() else 300  # pipes and files get whole rows
    return Console(stderr=stderr, highlight=False, width=width)


@app.command()
def sites() -> None:
    """List the site profiles on the search path."""
    from rich.table import Table
    from rich.text import Text

    from .profiles import bundled_dir, discover, load_profile_file
    from .shell import comment

    def row(*cells: str, style: str = "") -> None:
        # Text, not markup: names and profile values are input and may hold '[' or controls
        table.add_row(*(Text(comment(c), style=style if i == 5 else "")
                        for i, c in enumerate(cells)))

    table = Table("site", "scheduler", "launcher", "GPUs/node", "sub-devices", "status",
                  "profile source", "file")
    bundled = bundled_dir()
    for name, pf in discover().items():
        where = pf.layer
        if pf.shadows:
            hidden = ["bundled" if p.parent == bundled else str(p) for p in pf.shadows]
            where += f" (overrides {', '.join(hidden)})"
        try:
            p = load_profile_file(pf).profile
        except JobgenError as exc:
            row(name, "-", "-", "-", "-", "invalid", where, str(exc), style="red")
            continue
        gpus = p.node.gpus
        row(
            name, p.scheduler.dialect, f"{p.launcher.dialect} ({p.launcher.command})",
            f"{gpus.count} x {gpus.model}" if gpus else "none",
            f"{gpus.subdevices_per_gpu} {gpus.subdevice_name}s" if gpus and gpus.subdevice_name
            else "-",
            p.status, where, str(pf.path),
        )
    _console().print(table)


@app.command()
def show(
    site: Annotated[str, typer.Argument(help="Site name.")],
    fmt: Annotated[Format, typer.Option("--format", help="Output format.")] = Format.yaml,
) -> None:
    """Print the fully merged profile of SITE (after `extends`)."""
    from dataclasses import asdict

    from .profiles import load_profile

    loaded = load_profile(site)
    data = asdict(loaded.profile)
    if fmt is Format.json:
        typer.echo(json.dumps(data, indent=2))
        return
    import yaml

    chain = " <- ".join(str(pf.path) for pf in loaded.chain)
    typer.echo(f"# {site}: merged from {chain}")
    typer.echo(f"# sha256:{loaded.digest}")
    typer.echo(yaml.safe_dump(data, sort_keys=False, width=100), nl=False)


@app.command()
def validate(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Profile files or directories (default: every profile on the "
                            "search path)."),
    ] = None,
) -> None:
    """Check profiles: schema, then semantics (bind lists, masks, queues, extends)."""
    from .validate import validate_paths

    problems, checked = validate_paths(paths or [])
    for line in problems:
        typer.echo(line, err=True)
    typer.echo(f"{checked} profile(s) checked, {len(problems)} problem(s)")
    if problems:
        raise typer.Exit(2)


@app.command()
def schema() -> None:
    """Print the JSON Schema of a site profile (for editors)."""
    from .profiles import json_schema

    typer.echo(json.dumps(json_schema(), indent=2, sort_keys=True))


@app.command()
def apps() -> None:
    """List the bundled workloads (`--app` names)."""
    from rich.table import Table

    from .apps import app_names, load_app

    table = Table("app", "frameworks", "model", "batch", "description")
    for name in app_names():
        a = load_app(name)
        table.add_row(a.name, ", ".join(a.frameworks), a.model, str(a.default_batch_size),
                      a.description)
    _console().print(table)


@app.command(
    epilog="Put your own program after `--`: jobgen render --site polaris --nodes 8 -- "
    "python train.py --lr 3e-4"
)
def render(
    site: Annotated[str, typer.Option(help="Site profile name (jobgen sites).")],
    app_name: Annotated[str | None, typer.Option("--app", help="Bundled workload "
                                                 "(jobgen apps).")] = None,
    nodes: Annotated[int | None, typer.Option(help="Nodes (default 1).")] = None,
    ranks_per_node: Annotated[int | None, typer.Option(help="Ranks per node (default: one "
                                                       "per GPU device).")] = None,
    ranks_per_device: Annotated[int | None, typer.Option(
        help="Ranks of one data-parallel job per GPU device (NVIDIA/AMD: over gloo).")] = None,
    instances_per_device: Annotated[int | None, typer.Option(
        help="Independent trainings per GPU device (per node without GPUs), each world "
             "size 1; the job sums their throughput.")] = None,
    dist_backend: Annotated[BackendChoice | None, typer.Option(
        help="torch.distributed backend (default: the site's; gloo where ranks share a "
             "GPU). For your own program, a promise exported as JOBGEN_DIST_BACKEND.")]
    = None,
    queue: Annotated[str | None, typer.Option(help="Queue / partition (default: chosen "
                                              "from nodes and walltime).")] = None,
    walltime: Annotated[str | None, typer.Option(help="HH:MM:SS")] = None,
    account: Annotated[str | None, typer.Option("--account", "-A",
                                                help="Project to charge.")] = None,
    job_name: Annotated[str | None, typer.Option(help="Job name.")] = None,
    filesystems: Annotated[str | None, typer.Option(help="PBS filesystems, e.g. "
                                                    "home:flare.")] = None,
    precision: Annotated[PrecisionChoice | None, typer.Option(help="Default: the site's.")]
    = None,
    env: Annotated[list[str] | None, typer.Option("--env", help="KEY=VALUE, repeatable.")]
    = None,
    app_args: Annotated[str, typer.Option(help="Arguments passed to the app.")] = "",
    python: Annotated[str | None, typer.Option(help="Python executable on the compute "
                                               "nodes.")] = None,
    framework: Annotated[FrameworkChoice, typer.Option(help="Framework of the program "
                                                       "(bundled apps: pytorch).")]
    = FrameworkChoice.pytorch,
    framework_module: Annotated[str | None, typer.Option(help="Framework module release, "
                                                         "e.g. frameworks/2024.2.1_u1.")] = None,
    copper: Annotated[bool, typer.Option(help="Serve your Python packages through Copper "
                                         "(Aurora).")] = False,
    copper_path: Annotated[list[str] | None, typer.Option(help="Directory to read through "
                                                          "Copper, repeatable.")] = None,
    container: Annotated[str | None, typer.Option(help="Run the program in this container "
                                                  "image.")] = None,
    stage: Annotated[str | None, typer.Option(help="Tar archive to unpack on every node "
                                              "before the launch.")] = None,
    stage_to: Annotated[str | None, typer.Option(help="Where --stage unpacks (default: the "
                                                 "node-local disk).")] = None,
    requeue: Annotated[int, typer.Option(help="Requeue after preemption or the walltime "
                                         "warning, at most this many times.")] = 0,
    checkpoint_dir: Annotated[str | None, typer.Option(help="Where the app checkpoints "
                                                       "(needed with --requeue).")] = None,
    out: Annotated[str | None, typer.Option(help="Write the script here instead of "
                                            "stdout.")] = None,
    force: Annotated[bool, typer.Option(help="Overwrite --out if it exists.")] = False,
) -> None:
    """Render a job script for SITE that runs --app APP or your program after `--`."""
    options = {k: v for k, v in locals().items() if k not in ("out", "force")}
    from .output import check_target, write_script
    from .plan import build_plan
    from .profiles import load_profile
    from .render import render as render_text
    from .requestopts import request_from_options

    req = request_from_options(options, _COMMAND)
    if out is not None:
        check_target(out, force)
    plan = build_plan(load_profile(site), req)
    text = render_text(plan)
    for note in plan.notes:
        typer.echo(f"jobgen: note: {note}", err=True)
    for warning in plan.warnings:
        typer.echo(f"jobgen: warning: {warning}", err=True)
    if out is None:
        sys.stdout.write(text)
        return
    write_script(out, text, force)


# ---------------------------------------------------------------- review: explain, diff, lint,
# verify (their logic lives in explain.py, diffing.py, lint.py, verify.py)
class ReportFormat(str, Enum):
    text = "text"
    json = "json"


def _exit_with(differs: bool) -> None:
    raise typer.Exit(1 if differs else 0)


@app.command(epilog="Takes render's options; without -A or a program it uses placeholders.")
@with_options_of(render, drop=("out", "force"))
def explain(
    fmt: Annotated[ReportFormat, typer.Option("--format", help="Output format.")]
    = ReportFormat.text,
    **options: object,
) -> None:
    """Per-rank placement, a drawing of one node, and every line's reason, source and layer."""
    from .explain import build_report, format_text
    from .plan import build_plan
    from .profiles import load_profile
    from .requestopts import request_from_options, with_placeholders

    req = request_from_options(options, _COMMAND)
    loaded = load_profile(req.site)
    req, notes = with_placeholders(req, loaded)
    plan = build_plan(loaded, req)
    report = build_report(loaded, req, plan, notes)
    if fmt is ReportFormat.json:
        typer.echo(json.dumps(report, indent=2))
    else:
        sys.stdout.write(format_text(report))


@app.command(
    epilog="Exit code 0 when equal, 1 when different, 2 on error. Examples: jobgen diff --site "
    "aurora --site sunspot; jobgen diff old/aurora.yaml new/aurora.yaml; jobgen diff job.pbs "
    "job-edited.pbs"
)
@with_options_of(render, drop=("site", "out", "force"))
def diff(
    paths: Annotated[list[Path] | None, typer.Argument(
        help="Two profile files, two profile directories, or two job scripts.")] = None,
    site: Annotated[list[str] | None, typer.Option(
        "--site", help="Two sites to compare (the same request on each); with profile "
        "directories, the one profile to compare.")] = None,
    fmt: Annotated[ReportFormat, typer.Option("--format", help="Output format.")]
    = ReportFormat.text,
    **options: object,
) -> None:
    """Compare two plans by meaning: directives, modules, environment, launcher, placement."""
    from .diffing import diff_profiles, diff_scripts, diff_sites, is_profile_path
    from .requestopts import request_from_options
    from .semantic import format_changes

    sites, files = site or [], paths or []
    req = request_from_options({**options, "site": sites[0] if sites else "-"}, _COMMAND)
    if not files:
        comparisons = diff_sites(sites, req)
    elif len(files) != 2:
        raise JobgenError(f"give two paths to compare, not {len(files)}")
    elif all(is_profile_path(p) for p in files):
        if len(sites) > 1:
            raise JobgenError("with profile paths, --site picks one profile: give it once")
        comparisons = diff_profiles(files[0], files[1], req, sites[0] if sites else None)
    elif not any(is_profile_path(p) for p in files):
        comparisons = diff_scripts(files[0], files[1])
    else:
        raise JobgenError("compare two profiles or two scripts, not one of each")
    if fmt is ReportFormat.json:
        typer.echo(json.dumps([c.as_dict() for c in comparisons], indent=2))
    else:
        for c in comparisons:
            sys.stdout.write(format_changes(c.changes, c.old_label, c.new_label))
    _exit_with(any(c.changes for c in comparisons))


@app.command(epilog="Exit code 0 when clean, 1 with findings, 2 on error.")
def lint(
    script: Annotated[Path, typer.Argument(help="A job script, generated or hand-written.")],
    site: Annotated[str | None, typer.Option(
        help="Site whose rules apply (default: the site a jobgen script names).")] = None,
    fmt: Annotated[ReportFormat, typer.Option("--format", help="Output format.")]
    = ReportFormat.text,
) -> None:
    """Check a job script against a site's rules; each finding with its line and fix."""
    from .lint import lint as lint_script
    from .profiles import load_profile
    from .scriptparse import parse_file

    parsed = parse_file(script)
    name = site or parsed.header.site
    if not name:
        raise JobgenError(f"{script}: which site's rules apply? add --site SITE")
    findings = lint_script(parsed, load_profile(name).profile)
    if fmt is ReportFormat.json:
        typer.echo(json.dumps({"script": str(script), "site": name,
                               "findings": [f.as_dict() for f in findings]}, indent=2))
    else:
        for f in findings:
            typer.echo(f.format(str(script)))
        typer.echo(f"{script}: {len(findings)} problem(s) for site {name}",
                   err=bool(findings))
    _exit_with(bool(findings))


@app.command(epilog="Exit code 0 when up to date, 1 when it drifted, 2 on error.")
def verify(
    script: Annotated[Path, typer.Argument(help="A script written by jobgen render.")],
    fmt: Annotated[ReportFormat, typer.Option("--format", help="Output format.")]
    = ReportFormat.text,
) -> None:
    """Render a generated script again from its header and report any drift."""
    from .verify import verify as verify_script

    verdict = verify_script(script)
    if fmt is ReportFormat.json:
        typer.echo(json.dumps(verdict.as_dict(), indent=2))
    else:
        sys.stdout.write(verdict.format())
    _exit_with(not verdict.up_to_date)


# The study: sweep, submit, collect, report (their logic lives in jobgen/study/).
register_study(app, render, _COMMAND)


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if "--" in args:
        cut = args.index("--")
        _COMMAND[:] = args[cut + 1 :]
        args = args[:cut]
        if not _COMMAND:
            typer.echo("jobgen: error: nothing after `--`: give the program to launch", err=True)
            sys.exit(2)
    try:
        app(args=args, prog_name="jobgen", standalone_mode=True)
    except JobgenError as exc:
        typer.echo(f"jobgen: error: {exc}", err=True)
        sys.exit(exc.exit_code)


if __name__ == "__main__":
    main()
