"""The `jobgen` command line: thin, it parses, asks the plan, renders, prints.

Scripts go to stdout as plain text (so `> job.sh` and pipes work); tables use Rich. A user
mistake is one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import inspect
import json
import os
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from .. import __version__
from ..errors import JobgenError
from ..request.options import RENDER_OPTIONS, Opt
from .cliopts import with_options_of
from .rendering import COMMAND as _COMMAND
from .rendering import render_command
from .study_commands import register as register_study
from .tables import print_table

app = typer.Typer(
    no_args_is_help=True,
    help="Correct, fast batch job scripts for AI training on supercomputers.",
    pretty_exceptions_enable=False,
    # click's own help layout: it wraps long option names instead of cutting them off
    # (Rich's panels cut `--instances-per-device` to `--instances-per-dev…` at 80 columns),
    # and help text is plain text, so `jobgen[report]` stays as written.
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"jobgen {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_show_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Correct, fast batch job scripts for AI training on supercomputers."""


def click_errors() -> tuple[type[Exception], type[Exception]]:
    """click's UsageError and ClickException, whether Typer vendors click or depends on it."""
    mro = typer.BadParameter.__mro__
    by_name = {c.__name__: c for c in mro}
    return by_name["UsageError"], by_name["ClickException"]


class Format(str, Enum):
    yaml = "yaml"
    json = "json"


class ListFormat(str, Enum):
    table = "table"
    json = "json"


def _console(stderr: bool = False):
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    width = None if stream.isatty() else 300  # pipes and files get whole rows
    return Console(stderr=stderr, highlight=False, width=width)


FORMAT_HELP = "table for people, json for scripts."
SITE_COLUMNS = ("site", "scheduler", "launcher", "GPUs/node", "sub-devices", "status",
                "profile source", "file")
# what a narrow terminal keeps first
SITE_PRIORITY = ("site", "scheduler", "GPUs/node", "status", "launcher", "sub-devices",
                 "profile source", "file")
APP_PRIORITY = ("app", "description", "frameworks", "configs", "batch", "model")


def _site_rows() -> list[dict[str, str]]:
    """One row per profile on the search path; a broken profile is a row saying why."""
    from ..profiles.load import bundled_dir, discover, load_profile_file

    rows = []
    bundled = bundled_dir()
    for name, pf in discover().items():
        where = pf.layer
        if pf.shadows:
            hidden = ["bundled" if p.parent == bundled else str(p) for p in pf.shadows]
            where += f" (overrides {', '.join(hidden)})"
        row = dict.fromkeys(SITE_COLUMNS, "-") | {"site": name, "profile source": where,
                                                  "file": str(pf.path)}
        try:
            p = load_profile_file(pf).profile
        except JobgenError as exc:
            rows.append(row | {"status": "invalid", "file": str(exc)})
            continue
        gpus = p.node.gpus
        rows.append(row | {
            "scheduler": p.scheduler.dialect,
            "launcher": f"{p.launcher.dialect} ({p.launcher.command})",
            "GPUs/node": f"{gpus.count} x {gpus.model}" if gpus else "none",
            "sub-devices": f"{gpus.subdevices_per_gpu} {gpus.subdevice_name}s"
            if gpus and gpus.subdevice_name else "-",
            "status": p.status,
        })
    return rows


@app.command(epilog="Examples: jobgen sites; jobgen sites --format json | jq -r '.[].site'")
def sites(
    fmt: Annotated[ListFormat, typer.Option("--format", help=FORMAT_HELP)] = ListFormat.table,
) -> None:
    """List the site profiles on the search path."""
    rows = _site_rows()
    if fmt is ListFormat.json:
        typer.echo(json.dumps(rows, indent=2))
    else:
        print_table(SITE_PRIORITY, rows, whole=("site", "scheduler", "status"),
                    order=SITE_COLUMNS)
        for row in rows:  # why a profile is invalid, whatever columns the width left out
            if row["status"] == "invalid":
                from ..shell import comment

                typer.echo(comment(f"{row['site']}: invalid: {row['file']}"))


@app.command(epilog="Examples: jobgen show sunspot; jobgen show aurora --format json")
def show(
    site: Annotated[str, typer.Argument(help="Site name.")],
    fmt: Annotated[Format, typer.Option("--format", help="Output format.")] = Format.yaml,
) -> None:
    """Print the fully merged profile of SITE (after `extends`)."""
    from dataclasses import asdict

    from ..profiles.load import load_profile

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


@app.command(epilog="Exit code 0 when every profile is valid, 2 otherwise. Examples: jobgen "
             "validate; jobgen validate lumi; jobgen validate "
             "~/.config/jobgen/profiles/aurora.yaml; jobgen validate my-profiles/ --format json")
def validate(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Profile names (as `jobgen sites` lists them), files or "
                            "directories (default: every profile on the search path)."),
    ] = None,
    fmt: Annotated[ListFormat, typer.Option("--format", help=FORMAT_HELP)] = ListFormat.table,
) -> None:
    """Check profiles: schema, then semantics (bind lists, masks, queues, extends)."""
    from ..profiles.validate import validate_paths

    problems, checked = validate_paths(paths or [])
    if fmt is ListFormat.json:
        typer.echo(json.dumps({"checked": checked, "problems": problems}, indent=2))
    else:
        for line in problems:
            typer.echo(line, err=True)
        typer.echo(f"{checked} profile(s) checked, {len(problems)} problem(s)")
    if problems:
        raise typer.Exit(2)


@app.command()
def schema() -> None:
    """Print the JSON Schema of a site profile (for editors)."""
    from ..profiles.load import json_schema

    typer.echo(json.dumps(json_schema(), indent=2, sort_keys=True))


APP_COLUMNS = ("app", "frameworks", "model", "batch", "configs", "description")


@app.command(epilog="Examples: jobgen apps; jobgen render --site polaris --app ffn -A PROJ; "
             "jobgen apps --format json")
def apps(
    fmt: Annotated[ListFormat, typer.Option("--format", help=FORMAT_HELP)] = ListFormat.table,
) -> None:
    """List the bundled workloads (`--app` names) and their named configurations
    (`--app-args "--config NAME"`; `--format json` describes each)."""
    from ..plan.apps import app_names, load_app

    found = [load_app(name) for name in app_names()]
    if fmt is ListFormat.json:
        typer.echo(json.dumps([{"app": a.name, "frameworks": list(a.frameworks),
                                "model": a.model, "batch": a.default_batch_size,
                                "configs": dict(a.sizes), "description": a.description,
                                "module": a.module} for a in found], indent=2))
        return
    print_table(APP_PRIORITY, _app_rows(found), whole=("app",), order=APP_COLUMNS)


def _app_rows(found: list[Any]) -> list[dict[str, str]]:
    """One table row per bundled app (its manifest, as `jobgen apps` shows it)."""
    return [{"app": a.name, "frameworks": ", ".join(a.frameworks), "model": a.model,
             "batch": str(a.default_batch_size), "configs": ", ".join(n for n, _ in a.sizes),
             "description": a.description} for a in found]


def _complete_data_apps(incomplete: str) -> list[str]:
    return [n for n in ("all", *_complete_apps(incomplete)) if n.startswith(incomplete)]


@app.command(name="make-data", epilog="Exit code 0 when written, 1 when the app's writer "
             "failed (nothing written), 2 on bad input (also: more samples than the free "
             "space holds, disk full), 128+N when stopped by signal N (nothing left behind). "
             "Examples: jobgen make-data --app gpt --out data/gpt, then jobgen render --site "
             "local --app gpt --app-args '--data data/gpt'; jobgen make-data --app all "
             "--config tiny --samples 64 --out data")
def make_data(
    app: Annotated[str, typer.Option(
        help="A bundled app (`jobgen apps`), or all: each app's data in DIR/APP.",
        autocompletion=_complete_data_apps)],
    out: Annotated[Path, typer.Option(help="New (or empty) directory for the files.")],
    config: Annotated[str | None, typer.Option(
        help="The app's named configuration whose shapes the data has (default: the app's "
        "default).")] = None,
    samples: Annotated[int | None, typer.Option(
        min=1, max=2**31 - 1, help="Samples to write (default: the app's, 1024; more than 256 "
        "are estimated first and refused beyond the free space).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the synthetic content.")] = 0,
    force: Annotated[bool, typer.Option(help="Write into a non-empty --out, replacing the "
                                        "entries of the same names.")] = False,
) -> None:
    """Write small files in an app's original data format (nanoGPT's .bin, CosmicTagger's
    HDF5, JPEG folders, ...) with the original's statistics, for `--app-args '--data DIR'`.
    Runs the app's own writer with this Python (needs the workloads extra: torch)."""
    from .makedata import Stopped, plan, summary, write

    jobs = plan(app, config, out, force)
    for job in jobs:
        try:
            failed = write(job, samples, seed)
        except Stopped as stop:
            typer.echo(f"jobgen: stopped by {stop.name}; nothing written to {job.target}",
                       err=True)
            raise typer.Exit(stop.code) from None
        if failed:
            typer.echo(f"jobgen: error: {failed.message}; nothing written to {job.target}",
                       err=True)
            raise typer.Exit(failed.code)
        typer.echo(f"wrote {job.target}: {summary(job.target)}", err=True)


def _complete_sites(incomplete: str) -> list[str]:
    from ..profiles.load import site_names

    return [n for n in site_names() if n.startswith(incomplete)]


def _complete_apps(incomplete: str) -> list[str]:
    from ..plan.apps import app_names

    return [n for n in app_names() if n.startswith(incomplete)]


_COMPLETIONS = {"sites": _complete_sites, "apps": _complete_apps}


def _parameter(opt: Opt) -> inspect.Parameter:
    """A Typer parameter from render's option table (request.options), so both parsers agree."""
    kinds: dict[str, Any] = {"str": str, "int": int, "bool": bool, "list": list[str]}
    if opt.kind == "choice":
        kind: Any = Enum(opt.name.title(), {c: c for c in opt.choices}, type=str)
        default = kind(opt.default) if opt.default is not None else None
    else:
        kind, default = kinds[opt.kind], opt.default
    if default is None and not opt.required:
        kind = kind | None
    info = typer.Option(*opt.flags, help=opt.help,
                        autocompletion=_COMPLETIONS[opt.complete] if opt.complete else None)
    return inspect.Parameter(opt.name, inspect.Parameter.KEYWORD_ONLY,
                             default=inspect.Parameter.empty if opt.required else default,
                             annotation=Annotated[kind, info])


def _render_options(fn: Any) -> Any:
    params = [_parameter(o) for o in RENDER_OPTIONS]
    fn.__signature__ = inspect.Signature(params)
    fn.__annotations__ = {p.name: p.annotation for p in params}
    return fn


@app.command(
    epilog="Put your own program after `--`: jobgen render --site polaris --nodes 8 -- "
    "python train.py --lr 3e-4"
)
@_render_options
def render(**options: Any) -> None:
    """Render a job script for SITE that runs --app APP or your program after `--`."""
    render_command(options)


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
    from ..plan.build import build_plan
    from ..profiles.load import load_profile
    from ..request.parse import cli_request, with_placeholders
    from ..review.explain import build_report, format_text

    req = cli_request(options, _COMMAND)
    loaded = load_profile(req.site)
    req, notes = with_placeholders(req, loaded)
    plan = build_plan(loaded, req)
    report = build_report(loaded, req, plan, notes)
    if fmt is ReportFormat.json:
        typer.echo(json.dumps(report, indent=2))
    else:
        from ..study.textable import width

        # a terminal (or $COLUMNS) gets lines wrapped at spaces; a pipe whole lines, for grep
        wrap = sys.stdout.isatty() or os.environ.get("COLUMNS", "").isdigit()
        sys.stdout.write(format_text(report, width() if wrap else None))


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
    from ..request.parse import request_from_options
    from ..review.diffing import diff_profiles, diff_scripts, diff_sites, is_profile_path
    from ..review.semantic import format_changes

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


class Severity(str, Enum):
    info = "info"
    warning = "warning"
    error = "error"


@app.command(epilog="Exit code 0 without errors, 1 with errors (with --strict, with warnings "
             "too), 2 on bad input. Examples: jobgen lint job.pbs (site from the jobgen header, "
             "a `# site: NAME` line or the directives); jobgen lint my-job.slurm --site lumi "
             "--min-severity warning; jobgen lint --explain CPU005 --site aurora")
def lint(
    ctx: typer.Context,
    script: Annotated[Path | None, typer.Argument(
        help="A job script, generated or hand-written.")] = None,
    site: Annotated[str | None, typer.Option(
        help="Site whose rules apply (default: the site the script names or its directives "
        "point to).")] = None,
    fmt: Annotated[ReportFormat, typer.Option("--format", help="Output format.")]
    = ReportFormat.text,
    min_severity: Annotated[Severity, typer.Option(
        "--min-severity", help="Report findings of this severity or worse.")] = Severity.info,
    strict: Annotated[bool, typer.Option(
        "--strict", help="Exit 1 on warnings too, not only on errors.")] = False,
    explain_rule: Annotated[str | None, typer.Option(
        "--explain", metavar="RULE", help="Print the rule's scope, source and fix, and the "
        "facts it reads from --site's profile; then exit.")] = None,
) -> None:
    """Check a job script against a site's rules; each finding with its severity, line and fix."""
    from ..profiles.load import load_profile
    from ..review.lint import explain
    from ..review.lint import lint as lint_script
    from ..review.lint.site import tell_site
    from ..review.scriptparse import parse_text
    from ..textfile import read_text

    if explain_rule is not None:
        sys.stdout.write(explain(explain_rule, load_profile(site).profile if site else None))
        return
    if script is None:
        _missing_argument(ctx, "script")
    text = read_text(Path(script), "script")
    # the site first, from the script's head (its header and directive block); the clues in
    # the rest (launchers, modules, paths) are read only for a script of ordinary size, so a
    # 4 MiB script that names no site is refused before it is parsed whole
    guess = None if site else tell_site(text, str(script))[0]
    name = site or (guess.site if guess else None)
    if not name:
        seen = f" ({'; '.join(guess.clues)})" if guess and guess.clues else ""
        raise JobgenError(f"{script}: which site's rules apply? {guess.reason if guess else ''}"
                          f"{seen}: add --site SITE (or a `# site: NAME` line)")
    told = f" (told from: {', '.join(guess.clues)})" if guess else ""
    # (read again with the files it sources beside it: their settings are the job's)
    parsed = parse_text(text, str(script), follow=True)
    findings = lint_script(parsed, load_profile(name).profile, min_severity.value)
    read = [f"{path} (sourced, line {line})" for line, path in parsed.sourced]
    counts = {s: sum(f.severity == s for f in findings) for s in ("error", "warning", "info")}
    if fmt is ReportFormat.json:
        typer.echo(json.dumps({"script": str(script), "site": name,
                               "site_clues": guess.clues if guess else ["--site"],
                               "counts": counts, "files_read": read,
                               "findings": [f.as_dict() for f in findings]}, indent=2))
    else:
        for f in findings:
            typer.echo(f.format(str(script)))
        also = f"; also read: {', '.join(read)}" if read else ""
        typer.echo(f"{script}: {len(findings)} finding(s) for site {name}{told}: {counts['error']} "
                   f"error(s), {counts['warning']} warning(s), {counts['info']} info{also}",
                   err=bool(counts["error"]))
    _exit_with(bool(counts["error"] or strict and counts["warning"]))


def _missing_argument(ctx: typer.Context, name: str) -> None:
    """The usage error click gives for a missing argument (it is optional only for --explain)."""
    import importlib

    usage_error, _ = click_errors()
    exceptions = importlib.import_module(usage_error.__module__)
    param = next(p for p in ctx.command.params if p.name == name)
    raise exceptions.MissingParameter(ctx=ctx, param=param)


@app.command(epilog="Exit code 0 when up to date, 1 when it drifted, 2 on error. Examples: "
             "jobgen verify job.pbs; jobgen verify job.pbs --format json")
def verify(
    script: Annotated[Path, typer.Argument(help="A script written by jobgen render.")],
    fmt: Annotated[ReportFormat, typer.Option("--format", help="Output format.")]
    = ReportFormat.text,
) -> None:
    """Render a generated script again from its header and report any drift."""
    from ..review.verify import verify as verify_script

    verdict = verify_script(script)
    if fmt is ReportFormat.json:
        typer.echo(json.dumps(verdict.as_dict(), indent=2))
    else:
        sys.stdout.write(verdict.format())
    _exit_with(not verdict.up_to_date)


# The study: sweep, submit, collect, report (their logic lives in jobgen/study/).
register_study(app, render, _COMMAND)

# `jobgen --help` lists each command on one line of an 80-column terminal: Click cuts a longer
# first sentence with "...", so each command's line is its own short summary.
SHORT_HELP = {
    "sites": "List the site profiles on the search path.",
    "show": "Print one site's merged profile.",
    "validate": "Check profiles (by name, file or directory).",
    "schema": "Print the JSON Schema of a site profile.",
    "apps": "List the bundled apps and their configurations.",
    "make-data": "Write small data files in an app's own format.",
    "render": "Write the job script for a site and an app.",
    "explain": "Every line of the script with its reason and source.",
    "diff": "Compare two plans, scripts or profiles by meaning.",
    "lint": "Check any job script against a site's rules.",
    "verify": "Has a generated script changed since?",
    "sweep": "Render one script per point of a study.",
    "submit": "Submit a sweep's scripts; record the job ids.",
    "chain": "Submit a script as a chain of dependent jobs.",
    "status": "A sweep's or chain's jobs as the scheduler sees them.",
    "cancel": "Cancel a sweep's or chain's queued or running jobs.",
    "collect": "Join a sweep's results into one table.",
    "report": "Draw a study's charts (PNG, SVG, HTML).",
}
for _info in app.registered_commands:
    _name = _info.name or (_info.callback.__name__.replace("_", "-") if _info.callback else "")
    if _name in SHORT_HELP and not _info.short_help:
        _info.short_help = SHORT_HELP[_name]
