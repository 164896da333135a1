"""Scheduler commands (qsub, qstat, squeue, qdel...) run with bounded output: whatever a
command prints, jobgen keeps at most `MAX_ANSWER` bytes of each stream (the rest is read and
dropped, so the command is never blocked on a full pipe) and notes that it was cut. A qstat
answering 3 GB is then a one-line refusal, not a MemoryError; a hang is bounded by `timeout`.
"""

from __future__ import annotations

import subprocess
import threading
import time
from dataclasses import dataclass
from typing import IO, Any

MAX_ANSWER = 16 << 20  # 16 MiB per stream: qstat -f of 100 jobs is well under 1 MiB


@dataclass(frozen=True)
class Answer:
    returncode: int
    stdout: bytes
    stderr: bytes
    cut: bool  # a stream was longer than MAX_ANSWER: only its first MAX_ANSWER bytes are here


def _drain(stream: IO[bytes], keep: list[bytes], cut: list[bool], limit: int) -> None:
    total = 0
    try:
        while True:
            chunk = stream.read1(1 << 16)  # type: ignore[attr-defined]
            if not chunk:
                return
            if total < limit:
                keep.append(chunk[:limit - total])
            if total + len(chunk) > limit:
                cut[0] = True
            total += len(chunk)
    except (OSError, ValueError):  # closed under it (a grandchild kept the pipe open)
        return


def _feed(stream: IO[bytes], data: bytes) -> None:
    try:
        stream.write(data)
        stream.close()
    except (OSError, ValueError):  # the command exited without reading it all
        return


def run(argv: list[str], timeout: float, input: bytes | None = None, limit: int = MAX_ANSWER,
        **popen: Any) -> Answer:
    """`argv`'s exit status and (bounded) output. FileNotFoundError when the command is
    missing; subprocess.TimeoutExpired (the command killed) when it runs past `timeout`."""
    started = time.monotonic()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE if input is not None
                            else subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, **popen)
    out: list[bytes] = []
    err: list[bytes] = []
    cut = [False]
    threads = [threading.Thread(target=_drain, args=(s, keep, cut, limit), daemon=True)
               for s, keep in ((proc.stdout, out), (proc.stderr, err))]
    if input is not None:
        threads.append(threading.Thread(target=_feed, args=(proc.stdin, input), daemon=True))
    for t in threads:
        t.start()
    readers = threads[:2]
    try:
        proc.wait(timeout=timeout)
        deadline = time.monotonic() + max(1.0, timeout - (time.monotonic() - started))
        for t in readers:  # a grandchild may hold a pipe open: not past the deadline
            t.join(timeout=max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise
    finally:
        # a stream a reader still blocks on (a grandchild holds the pipe open) is left to the
        # daemon thread: closing it would wait for that read
        for s, t in ((proc.stdin, threads[2] if len(threads) > 2 else None),
                     (proc.stdout, threads[0]), (proc.stderr, threads[1])):
            if s is not None and (t is None or not t.is_alive()):
                s.close()
    return Answer(proc.returncode, b"".join(out), b"".join(err), cut[0])
