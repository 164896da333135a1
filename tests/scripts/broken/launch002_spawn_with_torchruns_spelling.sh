#!/bin/bash
# expect: LAUNCH002 site: local -- torchrun's --nproc_per_node spelling given to jobgen's spawner, the local TensorFlow launcher
set -euo pipefail
# a TensorFlow-only environment has no torchrun: jobgen's spawner starts the ranks instead
export MASTER_ADDR=127.0.0.1
export MASTER_PORT=29500
python3 -m workloads.spawn --nproc_per_node=2 \
    python3 -m workloads.ffn --framework tensorflow --device cpu --precision fp32
