"""TEST FIXTURE: the "training program" of an emulated job; each rank reports its environment.

Writes one JSON file per rank, `$JOBGEN_EMU_OUT/rank-<N>.json` (N: the emulated launcher's
global rank), holding torch's rank variables, the GPU mask variables, the launcher's rank
variables, the emulated node and the CPUs the launcher stand-in recorded for this rank.
`JOBGEN_EMU_FAIL_RANK=N` makes rank N exit 7 after reporting.
"""

from __future__ import annotations

import json
import os
import sys
import time

KEYS = {
    "RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT",
    "ZE_AFFINITY_MASK", "CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES",
    "ZE_FLAT_DEVICE_HIERARCHY", "ZEX_NUMBER_OF_CCS", "PYTHONPATH", "WITH_CONDA",
}
PREFIXES = ("PALS_", "PMI_", "PMIX_", "SLURM_", "OMPI_", "JSM_", "JOBGEN_EMU_", "CUDA_MPS_",
            "CCL_", "NCCL_", "MIOPEN_")


def main() -> int:
    env = {k: v for k, v in os.environ.items() if k in KEYS or k.startswith(PREFIXES)}
    rank = env.get("JOBGEN_EMU_GLOBAL_RANK")
    if rank is None:
        sys.stderr.write("report_rank: not started by an emulated launcher\n")
        return 3
    report = {"env": env, "argv": sys.argv[1:], "cwd": os.getcwd(), "pid": os.getpid()}
    with open(os.path.join(env["JOBGEN_EMU_OUT"], f"rank-{rank}.json"), "x") as fh:
        json.dump(report, fh)
    log = env.get("JOBGEN_EMU_LOG")
    if log:
        line = json.dumps({"tool": "report_rank", "event": "rank", "rank": int(rank),
                           "node": env.get("JOBGEN_EMU_NODE"), "t": time.time()}) + "\n"
        fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        os.write(fd, line.encode())
        os.close(fd)
    return 7 if os.environ.get("JOBGEN_EMU_FAIL_RANK") == rank else 0


if __name__ == "__main__":
    sys.exit(main())
