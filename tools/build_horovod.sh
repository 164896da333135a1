#!/usr/bin/env bash
# Opt-in: build Horovod 0.28.1 (its last release) from the source release against the torch and
# TensorFlow installed in this Python, with Gloo and MPI, so the workloads' Horovod path can be
# tested on the CPU (tests/workloads/test_tf_workloads.py runs it when `import horovod` works).
#
# The release does not build as published against torch 2.x / TensorFlow 2.21: its CMake files ask
# for C++14 (torch and TF headers need C++17) and it compiles an XLA op whose headers the TF wheel
# lacks. This script applies exactly those two fixes and nothing else.
#   usage: tools/build_horovod.sh [PYTHON]        (default python3; ~5 min on 2 cores)
# Needs: cmake, a C++17 compiler, MPI with its headers (Debian: mpich libmpich-dev), torch,
# tensorflow.
set -euo pipefail

python=${1:-python3}
version=0.28.1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for tool in cmake g++ mpicxx; do
    command -v "$tool" >/dev/null || { echo "build_horovod: $tool not found" >&2; exit 2; }
done
echo '#include <mpi.h>' | mpicxx -x c++ -E - >/dev/null 2>&1 \
    || { echo "build_horovod: mpicxx finds no mpi.h (Debian: apt-get install libmpich-dev)" >&2; exit 2; }
"$python" -c 'import torch, tensorflow' 2>/dev/null \
    || { echo "build_horovod: $python cannot import torch and tensorflow" >&2; exit 2; }

"$python" -m pip download -q --no-binary :all: --no-deps -d "$work" "horovod==$version"
tar -xzf "$work/horovod-$version.tar.gz" -C "$work"
src=$work/horovod-$version

# patch FILE OLD NEW: replace a line exactly, and fail when the release no longer has it.
patch_line() {
    grep -qxF "$2" "$1" || { echo "build_horovod: '$2' not in $1" >&2; exit 1; }
    OLD=$2 NEW=$3 "$python" - "$1" <<'PY'
import os, sys
path = sys.argv[1]
lines = open(path).read().split("\n")
lines = [os.environ["NEW"] if line == os.environ["OLD"] else line for line in lines]
open(path, "w").write("\n".join(lines))
PY
}
patch_line "$src/CMakeLists.txt" 'set(CMAKE_CXX_STANDARD 14)' 'set(CMAKE_CXX_STANDARD 17)'
patch_line "$src/horovod/torch/CMakeLists.txt" '    set(CMAKE_CXX_STANDARD 14)' \
    '    set(CMAKE_CXX_STANDARD 17)'
# shellcheck disable=SC2016  # a CMake line, not a shell expansion
patch_line "$src/horovod/tensorflow/CMakeLists.txt" \
    'list(APPEND TF_SOURCES "${PROJECT_SOURCE_DIR}/horovod/tensorflow/xla_mpi_ops.cc")' ''

HOROVOD_WITH_TENSORFLOW=1 HOROVOD_WITH_PYTORCH=1 HOROVOD_WITH_GLOO=1 HOROVOD_WITH_MPI=1 \
    HOROVOD_WITHOUT_MXNET=1 MAKEFLAGS="-j$(nproc)" \
    "$python" -m pip install -q --no-build-isolation --no-cache-dir "$src"
"$python" - <<'PY'
import horovod
import horovod.tensorflow as hvd
import horovod.torch  # noqa: F401

print(f"build_horovod: horovod {horovod.__version__} (tensorflow, torch; gloo {hvd.gloo_built()}, "
      f"mpi {hvd.mpi_built()})")
PY
