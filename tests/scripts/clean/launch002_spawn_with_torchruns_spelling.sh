#!/bin/bash
# clean: site: local -- the spawner line of a local TensorFlow script (jobgen render --site local --framework tensorflow)
set -euo pipefail
# a TensorFlow-only environment has no torchrun: jobgen's spawner starts the ranks instead
export MASTER_ADDR=127.0.0.1
export MASTER_PORT=29500
python3 -m workloads.spawn --nproc-per-node=2 \
    python3 -m workloads.ffn --framework tensorflow --device cpu --precision fp32
