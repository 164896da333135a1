"""TEST FIXTURE: the "training program" of an emulated job; each rank reports its environment.

Writes one JSON file per rank, `$JOBGEN_EMU_OUT/rank-<N>.json` (N: the emulated launcher's
global rank), holding torch's rank variables, the GPU mask variables, the launcher's rank
variables, the emulated node and the CPUs the launcher stand-in recorded for this rank.
An instance (JOBGEN_RESULT_FILE set) also writes a result line there, as the bundled apps do.
Every rank first opens and closes a `multiprocessing.connection.Listener()`, the AF_UNIX
socket Python's multiprocessing binds under TMPDIR (TMPDIR/pymp-XXXXXXXX/listener-XXXXXXXX)
when PyTorch DataLoader workers pass tensors: real Python, so a TMPDIR too long for a Unix
socket (107 bytes, man 7 unix) fails here with `OSError: AF_UNIX path too long` (exit 4), as
the real program would (and then hang). `JOBGEN_EMU_FAIL_RANK=N` makes rank N exit 7 after
reporting; `JOBGEN_EMU_AWAIT_SIGNAL=1`
makes every rank wait (up to 30 s) for SIGTERM/SIGINT/SIGUSR1, log it and exit 128 + signal.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time

KEYS = {
    "RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT",
    "ZE_AFFINITY_MASK", "CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES",
    "ZE_FLAT_DEVICE_HIERARCHY", "ZEX_NUMBER_OF_CCS", "PYTHONPATH",
    "JOBGEN_RANKS_PER_DEVICE", "TMPDIR", "CONDA_PREFIX", "MPIR_CVAR_ENABLE_GPU",
    "LD_LIBRARY_PATH", "ONEAPI_DEVICE_SELECTOR", "FI_PROVIDER",
}
PREFIXES = ("PALS_", "PMI_", "PMIX_", "SLURM_", "OMPI_", "JSM_", "JOBGEN_", "CUDA_MPS_",
            "CCL_", "NCCL_", "MIOPEN_", "OMP_",
            "HOROVOD_", "ITEX_", "I_MPI_", "APPTAINER")


def log_event(event: dict) -> None:
    path = os.environ.get("JOBGEN_EMU_LOG")
    if not path:
        return
    event = {"tool": "report_rank", "t": time.time(), "node": os.environ.get("JOBGEN_EMU_NODE"),
             **event}
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.write(fd, (json.dumps(event) + "\n").encode())
    os.close(fd)


def catch_signals() -> list[int]:
    got: list[int] = []
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGUSR1):
        signal.signal(sig, lambda signum, _frame: got.append(signum))
    return got


def await_signal(rank: int, got: list[int]) -> int:
    deadline = time.time() + 30
    while not got and time.time() < deadline:
        time.sleep(0.05)
    if not got:
        return 9
    log_event({"event": "signalled", "rank": rank, "signal": got[0]})
    return 128 + got[0]


def main() -> int:
    # handlers first: a test signals the job once every rank has reported
    waiting = os.environ.get("JOBGEN_EMU_AWAIT_SIGNAL") == "1"
    got = catch_signals() if waiting else []
    env = {k: v for k, v in os.environ.items() if k in KEYS or k.startswith(PREFIXES)}
    rank = env.get("JOBGEN_EMU_GLOBAL_RANK")
    if rank is None:
        sys.stderr.write("report_rank: not started by an emulated launcher\n")
        return 3
    try:  # what a DataLoader worker's queue does first (its feeder thread)
        from multiprocessing.connection import Listener
        Listener().close()
    except OSError as exc:
        sys.stderr.write(f"report_rank: rank {rank}: {exc} (TMPDIR={os.environ.get('TMPDIR')})\n")
        log_event({"event": "af-unix", "rank": int(rank), "error": str(exc)})
        return 4
    report = {"env": env, "argv": sys.argv[1:], "cwd": os.getcwd(), "pid": os.getpid()}
    with open(os.path.join(env["JOBGEN_EMU_OUT"], f"rank-{rank}.json"), "x") as fh:
        json.dump(report, fh)
    log_event({"event": "rank", "rank": int(rank)})
    if env.get("JOBGEN_RESULT_FILE"):  # an instance: a result line for the job's summary
        result = {"app": "report_rank", "instance": int(env["JOBGEN_INSTANCE"]),
                  "samples_per_sec": 1.0 + int(rank), "elapsed_s": 0.5}
        with open(env["JOBGEN_RESULT_FILE"], "x") as fh:
            fh.write(json.dumps(result) + "\n")
    if waiting:
        return await_signal(int(rank), got)
    return 7 if os.environ.get("JOBGEN_EMU_FAIL_RANK") == rank else 0


if __name__ == "__main__":
    sys.exit(main())
