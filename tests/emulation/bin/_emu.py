"""Shared code of the site stand-ins in this directory (TEST FIXTURES, not site software).

The stand-ins play a site's launcher (`mpiexec`, `srun`, `jsrun`, `mpirun`) and tools
(`module`, `conda`, `scontrol`, `singularity`, ...) on one machine: every rank is a local
process that gets the rank variables the real launcher would set, plus `JOBGEN_EMU_*`
variables saying which emulated node it is on and which CPUs the launcher was asked to bind it
to. Nothing is bound for real. Every call is appended to `$JOBGEN_EMU_LOG` (one JSON object a
line) so a test can check what ran, where and in which order.

Knobs (environment): `JOBGEN_EMU_EXTRA_RANK=1` makes a launcher start one rank more than asked
on the last node when it starts the jobgen rank wrapper (to reach the wrapper's `*)` branch).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field

TOOL = os.path.basename(sys.argv[0])
# what the real launchers pass on to their ranks
FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGUSR1, signal.SIGUSR2, signal.SIGHUP)


def fail(message: str, code: int = 2) -> None:
    """A launcher error, as the real tool would report a bad command line."""
    sys.stderr.write(f"emu-{TOOL}: {message}\n")
    sys.exit(code)


def log(event: dict) -> None:
    """Append one event to the run's log (O_APPEND: lines of parallel writers stay whole)."""
    path = os.environ.get("JOBGEN_EMU_LOG")
    if not path:
        return
    event = {"tool": TOOL, "t": time.time(), "node": os.environ.get("JOBGEN_EMU_NODE"), **event}
    line = (json.dumps(event, sort_keys=True) + "\n").encode()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


def parse_cpu_list(text: str) -> list[int]:
    """'1-8,104-111' -> [1, ..., 8, 104, ..., 111]."""
    out: list[int] = []
    for part in text.split(","):
        if not part:
            continue
        lo, sep, hi = part.partition("-")
        if not lo.isdigit() or (sep and not hi.isdigit()):
            fail(f"bad CPU list {text!r}")
        out += range(int(lo), int(hi) + 1) if sep else [int(lo)]
    return out


def decode_mask(mask: str) -> list[int]:
    """Slurm mask_cpu entry '0x00fe' -> [1, ..., 7]."""
    try:
        value = int(mask, 16)
    except ValueError:
        fail(f"bad CPU mask {mask!r}")
    return [bit for bit in range(value.bit_length()) if value >> bit & 1]


def expand_hostlist(text: str) -> list[str]:
    """Slurm host list 'nid[001000-001001,001005],login1' -> host names."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch == "["
        depth -= ch == "]"
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    hosts: list[str] = []
    for part in filter(None, parts):
        m = re.fullmatch(r"([^\[\]]*)\[([^\]]+)\]([^\[\]]*)", part)
        if not m:
            hosts.append(part)
            continue
        prefix, ranges, suffix = m.groups()
        for rng in ranges.split(","):
            lo, sep, hi = rng.partition("-")
            for n in range(int(lo), int(hi or lo) + 1):
                hosts.append(f"{prefix}{n:0{len(lo)}d}{suffix}")
    return hosts


def unique(seq: list[str]) -> list[str]:
    return list(dict.fromkeys(seq))


def read_hostfile(path: str | None, what: str) -> list[str]:
    if not path or not os.path.isfile(path):
        fail(f"no host file ({what} is {path!r})")
    with open(path) as fh:
        return [line.split()[0] for line in fh if line.strip()]


@dataclass
class Task:
    """One process a launcher starts."""

    rank: int
    node: int
    local: int
    cpus: list[int] | None  # what the launcher was asked to bind it to (None: no binding)
    env: dict[str, str] = field(default_factory=dict)


def starts_wrapper(command: list[str]) -> bool:
    return bool(command) and os.path.basename(command[0]) == "rank-wrapper.sh"


def want_extra_rank(command: list[str]) -> bool:
    return os.environ.get("JOBGEN_EMU_EXTRA_RANK") == "1" and starts_wrapper(command)


def step_file() -> str | None:
    """Where a running launch lists its tasks' pids (for `jskill`); None outside a test run."""
    state = os.environ.get("JOBGEN_EMU_STATE")
    return os.path.join(state, f"step-{os.getpid()}.json") if state else None


def run_tasks(tasks: list[Task], command: list[str], hosts: list[str],
              env_for=None, forwarded=FORWARDED) -> int:
    """Start every task in parallel, wait for all, return the first non-zero exit status
    in rank order (0 when all succeed). The `forwarded` signals the launcher gets are passed on
    to the ranks; other signals of FORWARDED are ignored (a launcher that does not pass them on).
    While the tasks run, their pids are listed in step_file() for `jskill`."""
    if not command:
        fail("no program to launch")
    log({"event": "launch", "argv": sys.argv[1:], "ntasks": len(tasks)})
    procs = []
    for task in tasks:
        env = dict(env_for(task) if env_for else os.environ)
        env.update(task.env)
        env["JOBGEN_EMU_LAUNCHER"] = TOOL
        env["JOBGEN_EMU_NODE"] = hosts[task.node]
        env["JOBGEN_EMU_NODE_INDEX"] = str(task.node)
        env["JOBGEN_EMU_GLOBAL_RANK"] = str(task.rank)
        env["JOBGEN_EMU_CPUS"] = "" if task.cpus is None else ",".join(map(str, task.cpus))
        env["JOBGEN_EMU_BOUND"] = "0" if task.cpus is None else "1"
        try:
            procs.append(subprocess.Popen(command, env=env))
        except OSError as exc:
            fail(f"cannot start {command[0]!r}: {exc}", 127)
    def forward(signum, _frame):
        log({"event": "signal", "signal": signum})
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signum)

    for sig in FORWARDED:
        signal.signal(sig, forward if sig in forwarded else signal.SIG_IGN)
    step = step_file()
    if step:
        with open(step, "w") as fh:
            json.dump([p.pid for p in procs], fh)
    status = 0
    for task, proc in zip(tasks, procs, strict=True):
        rc = proc.wait()
        if rc < 0:
            rc = 128 + (-rc if -rc in signal.Signals._value2member_map_ else 1)
        log({"event": "task-exit", "node": hosts[task.node], "rank": task.rank, "rc": rc,
             "program": os.path.basename(command[0])})
        if rc and not status:
            status = rc
    if step:
        os.unlink(step)
    return status


def counts(tasks: list[Task]) -> dict[int, int]:
    per_node: dict[int, int] = {}
    for t in tasks:
        per_node[t.node] = per_node.get(t.node, 0) + 1
    return per_node


class Args:
    """A tiny option reader: `--opt value`, `--opt=value`, `-o value`; stops at the program."""

    def __init__(self, argv: list[str]):
        self.argv = argv
        self.i = 0

    def next(self) -> tuple[str, str | None] | None:
        """(option, inline value) or None at the program."""
        if self.i >= len(self.argv) or not self.argv[self.i].startswith("-"):
            return None
        word = self.argv[self.i]
        self.i += 1
        if word.startswith("--") and "=" in word:
            name, _, value = word.partition("=")
            return name, value
        return word, None

    def value(self, name: str, inline: str | None) -> str:
        if inline is not None:
            return inline
        if self.i >= len(self.argv):
            fail(f"{name} needs a value")
        self.i += 1
        return self.argv[self.i - 1]

    def integer(self, name: str, inline: str | None) -> int:
        text = self.value(name, inline)
        if not text.isdigit() or int(text) < 1:
            fail(f"{name} needs a positive integer, not {text!r}")
        return int(text)

    def rest(self) -> list[str]:
        return self.argv[self.i:]
