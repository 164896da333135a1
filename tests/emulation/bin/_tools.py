"""Shared code of the profiler and GPU-sampler stand-ins (TEST FIXTURES, not vendor software).

The profiler stand-ins (`nsys`, `rocprof`, `rocprofv3`, `unitrace`, `vtune`) read the options
jobgen's site profiles use, in the tool's own syntax, refuse any other (so a changed flag shows
up), record their argv and the rank they wrap in `$JOBGEN_EMU_LOG`, run the wrapped command as
the real tool does, and write an output file where the real tool would. The GPU samplers
(`nvidia-smi`, `xpu-smi`, `rocm-smi`) print samples in the real tool's CSV layout, log when they
start and stop, and stop on SIGTERM.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _emu  # noqa: E402


def parse(argv: list[str], flags: set[str], valued: set[str], stop_at_dashes: bool = False,
          need_dashes: bool = False) -> tuple[dict[str, str | bool], list[str]]:
    """Options (known flags and `--opt value`/`--opt=value`) up to the program."""
    opts: dict[str, str | bool] = {}
    i = 0
    while i < len(argv):
        word = argv[i]
        if word == "--" and stop_at_dashes:
            return opts, argv[i + 1:]
        if not word.startswith("-"):
            if need_dashes:
                _emu.fail(f"the program must follow `--`, not {word!r}")
            return opts, argv[i:]
        name, eq, value = word.partition("=")
        if name in flags and not eq:
            opts[name] = True
        elif name in valued:
            if not eq:
                i += 1
                if i >= len(argv):
                    _emu.fail(f"{name} needs a value")
                value = argv[i]
            opts[name] = value
        else:
            _emu.fail(f"unknown option {word}")
        i += 1
    _emu.fail("no program to run")
    return opts, []


def open_or_exit(path: str, message: str, code: int) -> None:
    """Open `path` for writing as the tool does before the program runs; on failure print the
    tool's own message and exit with its status (no directory is made for it)."""
    try:
        with open(path, "w"):
            pass
    except OSError:
        sys.stderr.write(message.format(path=path) + "\n")
        sys.exit(code)


def run_wrapped(command: list[str], outputs: list[str], argv: list[str],
                check_after: bool = False) -> int:
    """Log the wrapping, run the program (signals passed on), write the outputs.

    No stand-in makes a directory the real tool would not: an output `DIR/` (vtune -r,
    rocprofv3 -d) is made by the tool itself, but not its parents; an output file needs its
    directory to exist. A missing one fails before the program starts, or after it where the
    real tool only opens its outputs when it writes its results (`check_after`: rocprof)."""
    if not command:
        _emu.fail("no program to run")
    for path in outputs if not check_after else ():
        parent = os.path.dirname(path.rstrip("/")) or "."
        if not os.path.isdir(parent):
            _emu.fail(f"cannot create {path}: {parent} does not exist", code=1)
    _emu.log({"event": "profile", "argv": argv, "rank": os.environ.get("RANK"),
              "command": command, "outputs": outputs, "tmpdir": os.environ.get("TMPDIR")})
    proc = subprocess.Popen(command)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGUSR1):
        signal.signal(sig, lambda s, _f: proc.send_signal(s))
    rc = proc.wait()
    for path in outputs:
        if check_after and not os.path.isdir(os.path.dirname(path) or "."):
            _emu.fail(f"cannot write {path}: No such file or directory (the tool does not "
                      "create its output directory)", 1)
        if path.endswith("/"):
            os.makedirs(path, exist_ok=True)  # the tool's own directory; its parent exists
            path = os.path.join(path, f"{os.path.basename(command[0])}.{proc.pid}.json")
        with open(path, "w") as fh:
            json.dump({"tool": _emu.TOOL, "argv": argv, "rank": os.environ.get("RANK")}, fh)
    return rc if rc >= 0 else 128 - rc


def sample_until_stopped(lines, interval: float, header: str | None = None) -> int:
    """A streaming sampler: print `lines()` every `interval` s until SIGTERM/SIGINT."""
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    _emu.log({"event": "sampler-start", "argv": sys.argv[1:]})
    if header:
        print(header, flush=True)
    while not stop:
        for line in lines():
            print(line, flush=True)
        deadline = time.time() + interval
        while not stop and time.time() < deadline:
            time.sleep(0.02)
    _emu.log({"event": "sampler-stop"})
    return 0


def gpus() -> int:
    return int(os.environ.get("JOBGEN_EMU_SMI_GPUS", "4"))
