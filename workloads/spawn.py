"""``python -m workloads.spawn --nproc-per-node N COMMAND [ARGS...]``: start N ranks of COMMAND
on this machine, the way torchrun --standalone does, without torch.

A TensorFlow-only environment has no torchrun; jobgen's local scripts start its ranks with this
instead. Standard library only. Each rank gets torch's rank variables (RANK, LOCAL_RANK,
WORLD_SIZE, LOCAL_WORLD_SIZE, GROUP_RANK=0), MASTER_ADDR and MASTER_PORT (the caller's, else
127.0.0.1 and 29500) and JOBGEN_SPAWN_ID (which tells the apps who started them). The spawner

* passes TERM, INT, HUP, USR1 and USR2 on to every rank still running (the job script sends its
  signals to the launcher, so that the ranks checkpoint and stop);
* stops the other ranks (TERM, then KILL after --grace seconds) as soon as one fails, since the
  survivors would wait in a collective for a peer that is gone;
* exits with the first failing rank's status (128 + N for a rank killed by signal N), 0 when
  every rank succeeded.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence

FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2)
POLL_S = 0.05


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m workloads.spawn",
        description="Start N ranks of a command on this machine with torch's rank variables.")
    p.add_argument("--nproc-per-node", type=int, required=True, metavar="N",
                   help="ranks to start (1 to 4096)")
    p.add_argument("--grace", type=float, default=30.0, metavar="S",
                   help="seconds the other ranks get to stop after one failed (default 30)")
    p.add_argument("command", nargs=argparse.REMAINDER, help="the program and its arguments")
    return p


def rank_env(base: dict[str, str], rank: int, world: int, run_id: str) -> dict[str, str]:
    """The environment of local rank ``rank`` of ``world`` (one machine: local rank = rank)."""
    env = dict(base)
    env.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(world),
               LOCAL_WORLD_SIZE=str(world), GROUP_RANK="0", JOBGEN_SPAWN_ID=run_id)
    env["MASTER_ADDR"] = env.get("MASTER_ADDR") or "127.0.0.1"
    env["MASTER_PORT"] = env.get("MASTER_PORT") or "29500"
    return env


def _status(code: int) -> int:
    """A child's exit status as a shell reports it (Popen gives -N for signal N)."""
    return 128 - code if code < 0 else code


class Ranks:
    """The running ranks: start, forward signals, reap, stop the rest after a failure."""

    def __init__(self, command: Sequence[str], world: int) -> None:
        self.command = list(command)
        self.world = world
        self.procs: dict[int, subprocess.Popen[bytes]] = {}
        self.first_failure: tuple[int, int] | None = None  # (rank, status)
        self.signalled = False  # a signal was passed on: every rank is stopping already

    def start(self) -> None:
        run_id = str(os.getpid())
        for rank in range(self.world):
            self.procs[rank] = subprocess.Popen(
                self.command, env=rank_env(dict(os.environ), rank, self.world, run_id))

    def on_signal(self, signum: int, _frame: object = None) -> None:
        self.signalled = True
        self.forward(signum)

    def forward(self, signum: int) -> None:
        for proc in self.procs.values():
            if proc.returncode is None:
                try:
                    proc.send_signal(signum)
                except ProcessLookupError:
                    pass

    def _reap(self) -> bool:
        """Collect ranks that ended; True while any is running."""
        running = False
        for rank, proc in self.procs.items():
            if proc.returncode is not None:
                continue
            code = proc.poll()
            if code is None:
                running = True
            elif code != 0 and self.first_failure is None:
                self.first_failure = (rank, _status(code))
        return running

    def wait(self, grace: float) -> int:
        stop_at: float | None = None
        while self._reap():
            if self.first_failure is not None and stop_at is None:
                if not self.signalled:
                    rank, status = self.first_failure
                    print(f"[spawn] rank {rank} exited with status {status}; stopping the "
                          "other ranks", file=sys.stderr, flush=True)
                    self.forward(signal.SIGTERM)
                stop_at = time.monotonic() + grace
            elif stop_at is not None and time.monotonic() > stop_at:
                self.forward(signal.SIGKILL)
                stop_at = float("inf")
            time.sleep(POLL_S)
        return self.first_failure[1] if self.first_failure else 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        _parser().error("give the command to run after the options")
    if not 1 <= args.nproc_per_node <= 4096:
        _parser().error(f"--nproc-per-node {args.nproc_per_node}: give 1 to 4096")
    ranks = Ranks(command, args.nproc_per_node)
    for signum in FORWARDED:
        signal.signal(signum, ranks.on_signal)
    try:
        ranks.start()
    except OSError as exc:
        ranks.forward(signal.SIGKILL)
        print(f"[spawn] cannot start {command[0]!r}: {exc}", file=sys.stderr)
        return 127
    return ranks.wait(args.grace)


if __name__ == "__main__":
    sys.exit(main())
