"""The study's commands (sweep, submit, status, cancel, collect, report) as Typer commands.

Kept out of commands.py so the CLI only registers them; importing this module costs only its own
definitions: the work (plan, render, Rich, matplotlib) is imported when a command runs.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from .cliopts import with_options_of

AXIS_HELP = "comma-separated or repeated"


class TableFormat(str, Enum):
    table = "table"
    json = "json"


def register(app: typer.Typer, render: Callable[..., Any], command: list[str]) -> None:
    """Add the commands to `app`; sweep takes render's options (`command`: after `--`)."""

    @app.command(epilog="Example: jobgen sweep --site local --app qcnn --precision fp32,bf16 "
                 "--ranks-per-node 1,2 --repeat 3 --app-args '--tiny' --out study --submit. "
                 "Exit code 0 when at least one point is valid, 2 otherwise.")
    @with_options_of(render, drop=("out", "force"))
    def sweep(
        out: Annotated[Path, typer.Option(help="New (or empty) directory for the scripts "
                                          "and manifest.json.")],
        precision: Annotated[list[str] | None, typer.Option(
            help=f"Precisions to sweep, {AXIS_HELP}: fp32,tf32,bf16.")] = None,
        nodes: Annotated[list[str] | None, typer.Option(
            help=f"Node counts, {AXIS_HELP}: 1,2,8.")] = None,
        ranks_per_node: Annotated[list[str] | None, typer.Option(
            help=f"Ranks per node, {AXIS_HELP}.")] = None,
        ranks_per_device: Annotated[list[str] | None, typer.Option(
            help=f"Ranks per GPU device, {AXIS_HELP}.")] = None,
        instances_per_device: Annotated[list[str] | None, typer.Option(
            help=f"Independent instances per GPU device, {AXIS_HELP}.")] = None,
        repeat: Annotated[int, typer.Option(help="Scripts per point (best-of-N; 3 or more "
                                            "for a verdict against fp32), at most 100.")] = 1,
        submit: Annotated[bool, typer.Option(help="Submit them (run them, on a site "
                                             "without scheduler) once written.")] = False,
        force: Annotated[bool, typer.Option(help="Write into a non-empty --out (its run "
                                            "directories are replaced).")] = False,
        **options: Any,
    ) -> None:
        """Render one script per point of the axes' product and repeat, and a manifest."""
        from ..request.parse import request_from_options
        from ..study.submit import submit_sweep
        from ..study.sweep import parse_axes
        from ..study.sweep import sweep as make_sweep

        axes = parse_axes({"precision": precision, "nodes": nodes,
                           "ranks_per_node": ranks_per_node,
                           "ranks_per_device": ranks_per_device,
                           "instances_per_device": instances_per_device})
        manifest = make_sweep(request_from_options(options, command), axes, repeat, out, force)
        runs = sum(len(p.runs) for p in manifest.valid_points)
        typer.echo(f"{out}: {runs} script(s) for {len(manifest.valid_points)} point(s), "
                   f"{len(manifest.points) - len(manifest.valid_points)} invalid point(s) "
                   "skipped", err=True)
        if submit and submit_sweep(out):
            raise typer.Exit(1)

    _submit_commands(app)
    _chain_command(app)
    _result_commands(app)


def _submit_commands(app: typer.Typer) -> None:
    """submit, status and cancel: the sweep's jobs at the scheduler."""
    @app.command(name="submit", epilog="Exit code 0 when every run sent was submitted (ran "
                 "cleanly, without a scheduler), 1 otherwise, 2 on error (nothing sent).")
    def submit_cmd(
        directory: Annotated[Path, typer.Argument(help="A directory made by jobgen sweep.")],
        again: Annotated[bool, typer.Option(help="Submit runs that were submitted "
                                            "before, too.")] = False,
        keep_going: Annotated[bool, typer.Option(help="Go on after a failed submission "
                                                 "(default: stop at the first).")] = False,
        max_in_flight: Annotated[int | None, typer.Option(
            help="Jobs of this sweep queued or running at once (default: what each queue's "
                 "per-user limit allows).")] = None,
        wait: Annotated[bool, typer.Option(help="Stay and submit held-back runs as earlier "
                                           "jobs finish.")] = False,
        poll: Annotated[float, typer.Option(help="Seconds between checks with --wait.",
                                            min=1, max=3600)] = 60.0,
    ) -> None:
        """Submit a sweep's scripts with the site's command and record the job ids."""
        from ..study.submit import submit_sweep

        if submit_sweep(directory, again, keep_going, max_in_flight, wait, poll):
            raise typer.Exit(1)

    @app.command(epilog="States: queued, held, running, done, failed (with the scheduler's "
                 "own word), not submitted, unknown. Exit code 0, 2 on error.")
    def status(
        directory: Annotated[Path, typer.Argument(help="A directory made by jobgen sweep "
                                                  "or jobgen chain.")],
        fmt: Annotated[TableFormat, typer.Option("--format", help="table for people, json "
                                                 "for scripts.")] = TableFormat.table,
    ) -> None:
        """Each run's job as the scheduler sees it (squeue, qstat, bjobs)."""
        import json

        from ..study.chain import is_chain
        from ..study.jobs import status as states_of
        from ..study.present import status_table
        from ..study.textable import width

        if is_chain(directory):
            _chain_status(directory, fmt)
            return
        manifest, states = states_of(directory)
        rows = [{k: v for k, v in s.items() if k not in ("key", "foreign")} for s in states]
        if fmt is TableFormat.json:
            typer.echo(json.dumps(rows, indent=2, sort_keys=True))
            return
        title = f"jobgen status: {directory} ({manifest.site}, {len(rows)} run(s))"
        typer.echo(status_table(title, rows, width()), nl=False)

    @app.command(epilog="Exit code 0 when every queued or running job was cancelled (or "
                 "none was left), 2 on error.")
    def cancel(
        directory: Annotated[Path, typer.Argument(help="A directory made by jobgen sweep or "
                                                  "jobgen chain.")],
    ) -> None:
        """Cancel the sweep's jobs still queued, held or running (scancel, qdel, bkill)."""
        from ..study.chain import cancel as cancel_chain
        from ..study.chain import is_chain
        from ..study.jobs import cancel as cancel_jobs

        if is_chain(directory):
            ids = cancel_chain(directory)
            typer.echo(f"cancelled {len(ids)} link(s): {' '.join(ids)}" if ids else
                       "nothing to cancel: no link of this chain is queued or running; the "
                       "chain is stopped", err=True)
            return
        cancelled, _ = cancel_jobs(directory)
        if cancelled:
            typer.echo(f"cancelled {len(cancelled)} job(s): {' '.join(cancelled)}", err=True)
        else:
            typer.echo("nothing to cancel: no job of this sweep is queued or running",
                       err=True)


def _chain_status(directory: Path, fmt: TableFormat) -> None:
    """A chain's links: job id, state, exit code, output file, and why it stopped."""
    import json

    from ..study.chain import status as chain_states
    from ..study.textable import Column, render, width

    chain, rows, stopped = chain_states(directory)
    rows = [{k: v for k, v in r.items() if k != "foreign"} for r in rows]
    if fmt is TableFormat.json:
        typer.echo(json.dumps({"links": rows, "stopped": stopped, "site": chain.site,
                               "max_stalled": chain.max_stalled}, indent=2, sort_keys=True))
        return
    columns = [Column("link", 9), Column("job id", 8), Column("state", 10), Column("exit", 7),
               Column("scheduler says", 5)]
    table = [[str(r["link"]), r["job_id"] or "-", r["state"],
              "-" if r["exit_code"] is None else str(r["exit_code"]), r["word"] or "-"]
             for r in rows]
    notes = ["; ".join(x for x in (r["note"], r["output"] and f"output {r['output']}") if x)
             or None for r in rows]
    title = (f"jobgen status: chain {directory} ({chain.site}, {len(rows)} link(s); it "
             f"stops after {chain.max_stalled} in a row without progress)")
    footer = f"stopped: {stopped}" if stopped else "not stopped"
    typer.echo(render(title, columns, table, notes, width(), footer), nl=False)


def _seconds(value: float | None) -> str:
    if value is None:
        return "?"
    return f"{value:.1f} s" if value < 10 else f"{value:.0f} s"


def _chain_collect(directory: Path, fmt: TableFormat) -> None:
    """collect on a chain directory: the links as trained (steps, time, restarts,
    checkpoints); unknown fields as ?."""
    import json

    from ..study.chain import collect as chain_collect
    from ..study.textable import Column, render, width

    found = chain_collect(directory)
    if fmt is TableFormat.json:
        typer.echo(json.dumps(found, indent=2, sort_keys=True))
        return
    columns = [Column("link", 9), Column("state", 8), Column("exit", 7), Column("steps", 8),
               Column("wall", 6), Column("not training", 5), Column("waited", 4),
               Column("slowest checkpoint", 3)]
    rows = [[str(x["link"]), x["state"], "-" if x["exit_code"] is None else str(x["exit_code"]),
             "?" if x["steps"] is None else f"{x['step_before']}->{x['step_after']}",
             _seconds(x["wall_s"]), _seconds(x["not_training_s"]), _seconds(x["wait_s"]),
             _seconds(x["checkpoint_seconds_max"])] for x in found["links"]]
    title = (f"jobgen collect: chain {directory} ({found['site']}, {found['links_run']} of "
             f"{len(rows)} link(s) ran)")
    footer = (f"{found['steps']} step(s) in all, last step {found['last_step']}; lost to "
              f"restarts (links 2+ not training): {_seconds(found['restart_lost_s'])}; "
              f"slowest checkpoint: {_seconds(found['checkpoint_seconds_max'])}; "
              + (f"stopped: {found['stopped']}" if found["stopped"] else "not stopped"))
    typer.echo(render(title, columns, rows, [None] * len(rows), width(), footer), nl=False)


def _chain_command(app: typer.Typer) -> None:
    @app.command(epilog="Example: jobgen render --site polaris --app gpt -A PROJ "
                 "--checkpoint-dir ckpt > job.pbs; jobgen chain job.pbs --links 4; jobgen "
                 "status job.pbs.chain. Exit code 0 when every link was submitted, 1 when a "
                 "later link was refused (the earlier ones stay queued), 2 on error (nothing "
                 "submitted).")
    def chain(
        script: Annotated[Path, typer.Argument(help="A script made by jobgen render.")],
        links: Annotated[int, typer.Option(help="Jobs in the chain, each one walltime "
                                           "(1 to 100).")],
        dir: Annotated[Path | None, typer.Option(help="The chain directory (default: "
                                                 "SCRIPT.chain beside the script).")] = None,
        max_stalled: Annotated[int, typer.Option(help="Links in a row without progress (no "
                                                 "new checkpoint, or a failure) that stop "
                                                 "the chain.")] = 2,
        checkpoint_dir: Annotated[Path | None, typer.Option(
            help="For a program of your own: the directory of step_N/COMPLETE checkpoints "
                 "that shows progress (relative to the script's directory, where the links "
                 "run; without it only failures count).")] = None,
        after: Annotated[str | None, typer.Option(help="Start the first link after this "
                                                  "job ends.")] = None,
        force: Annotated[bool, typer.Option(help="Replace an old chain directory whose "
                                            "links have all ended.")] = False,
        dry_run: Annotated[bool, typer.Option(help="Print the submit commands, submit "
                                              "nothing.")] = False,
    ) -> None:
        """Submit a script N times as a chain of dependent jobs that resume from checkpoints."""
        import shlex
        import sys

        from ..review.scriptparse import parse_file
        from ..study.chain import submit_chain

        record, lines, problem = submit_chain(
            script, parse_file(script), links, dir, max_stalled, checkpoint_dir, after, force,
            dry_run, command=shlex.join(["jobgen", *sys.argv[1:]]))
        for text in lines:
            typer.echo(text)
        if record is not None:
            where = dir or script.parent / f"{script.name}.chain"
            typer.echo(f"chain: {where} (jobgen status {where}; jobgen cancel {where})",
                       err=True)
        if problem:
            typer.echo(f"jobgen: {problem}", err=True)
            raise typer.Exit(1)


def _result_commands(app: typer.Typer) -> None:
    """collect and report: the results, as a table and as a chart."""

    @app.command(epilog="Exit code 0 when every valid point has a result, 1 when some "
                 "failed or are missing, 2 on error.")
    def collect(
        directories: Annotated[list[Path], typer.Argument(help="Sweep directories (several "
                                                          "sites land in one table).")],
        results: Annotated[Path | None, typer.Option(help="Where results.csv and results."
                                                     "json go (default: the sweep directory "
                                                     "when there is one, else here).")] = None,
        fmt: Annotated[TableFormat, typer.Option("--format", help="table for people, json "
                                                 "for scripts.")] = TableFormat.table,
        force: Annotated[bool, typer.Option(help="Replace results files jobgen did not "
                                            "write there.")] = False,
    ) -> None:
        """Join the runs' JSON results with the manifests: best-of-N, spread, scaling."""
        import json

        from ..study import manifest as mf
        from ..study.chain import is_chain
        from ..study.collect import collect as gather
        from ..study.collect import write_files
        from ..study.files import SweepDir
        from ..study.jobs import LOCK_WAIT
        from ..study.present import results_table
        from ..study.textable import width

        if len(directories) == 1 and results is None and is_chain(directories[0]):
            _chain_collect(directories[0], fmt)
            return
        found = gather(directories)
        in_sweep = results is None and len(directories) == 1
        where_to = results or (directories[0] if in_sweep else Path("."))
        with SweepDir.open(where_to, lock=True, create=results is not None,
                           wait=LOCK_WAIT) as where:
            paths = write_files(found, where, mf.read(where) if in_sweep else None, force)
        if fmt is TableFormat.json:
            typer.echo(json.dumps(found.as_dict()["rows"], indent=2, sort_keys=True))
        else:
            typer.echo(results_table(found, width()), nl=False)
        typer.echo(f"wrote {' and '.join(map(str, paths))}", err=True)
        if found.incomplete:
            typer.echo(f"jobgen: {len(found.incomplete)} point(s) failed or have no result "
                       "yet", err=True)
            raise typer.Exit(1)

    @app.command(epilog="Example: jobgen report study-polaris study-aurora --out chart.png")
    def report(
        directories: Annotated[list[Path], typer.Argument(help="Sweep directories.")],
        out: Annotated[Path, typer.Option(help="chart.png, chart.svg or chart.html (the "
                                          "SVG inline with the table).")],
        title: Annotated[str, typer.Option(help="Chart title.")] = "jobgen study",
        force: Annotated[bool, typer.Option(help="Overwrite an existing --out.")] = False,
    ) -> None:
        """Draw the study's chart and a scaling chart (needs matplotlib: the report extra)."""
        from ..study.collect import collect as gather
        from ..study.report import check_kind, check_title
        from ..study.report import report as draw
        from .output import check_target, write_file

        kind = check_kind(out.name)
        check_title(title)
        check_target(str(out), force)
        data, blob = draw(gather(directories), kind, title)
        write_file(str(out), blob, force)
        typer.echo(f"wrote {out}: {len(data.bars)} bar(s), {len(data.lines)} scaling "
                   "line(s)", err=True)
