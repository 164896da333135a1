#!/usr/bin/env bash
# The whole test suite on a fresh machine, in one command (README "Run the tests"; .ci/run
# calls exactly this). Installs what the tests need, then runs ruff, the docs build and pytest.
#
#   tools/test-suite.sh            everything (CI)
#   tools/test-suite.sh --fast     the fast tier: pytest -m "not slow" (README gives its time)
#   tools/test-suite.sh --slow     the slow tier alone: pytest -m slow (fast + slow = everything)
#   tools/test-suite.sh --no-install [--fast|--slow] [PYTEST ARGS...]   skip the installs
#
# Installs, each skipped with the reason when it cannot be done (the tests that need it then
# skip with their reason; nothing is failed for a missing component):
#   Debian (as root, or with sudo): mpich (MPICH mpiexec), slurm-wlm (a real single-host Slurm),
#     slurm-wlm-torque (Slurm's qsub wrapper, which `jobgen submit` must not take for PBS),
#     chromium (headless: the docs site's layout test at 1280 px)
#   Python: jobgen with its dev, workloads, report and docs extras; torch 2.13.0 (set
#     TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu on a machine without a GPU to get
#     the CPU wheel instead of the CUDA one); tensorflow-cpu 2.21 with tf-keras (Keras 2)
set -uo pipefail
cd "$(dirname "$0")/.."

install=1 fast=0 slow=0
while [ $# -gt 0 ]; do
    case "$1" in
        --no-install) install=0; shift ;;
        --fast) fast=1; shift ;;
        --slow) slow=1; shift ;;
        *) break ;;
    esac
done
py=${PYTHON:-python3}
note() { printf '[test-suite] %s\n' "$*" >&2; }

if [ "$install" = 1 ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || { command -v sudo >/dev/null && sudo="sudo -n"; }
    if ! command -v apt-get >/dev/null; then
        note "no apt-get: MPICH and Slurm not installed (their tests skip with the reason)"
    elif [ "$(id -u)" != 0 ] && ! $sudo true 2>/dev/null; then
        note "not root and no sudo: MPICH and Slurm not installed (their tests skip)"
    else
        export DEBIAN_FRONTEND=noninteractive
        if ! { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends \
                mpich slurm-wlm slurm-client slurm-wlm-torque >/dev/null; }; then
            note "apt-get could not install mpich slurm-wlm slurm-wlm-torque: their tests skip"
        fi
        if ! $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null; then
            note "apt-get could not install chromium: the docs layout test skips"
        fi
    fi
    torch_index=()
    [ -n "${TORCH_INDEX_URL:-}" ] && torch_index=(--extra-index-url "$TORCH_INDEX_URL")
    "$py" -m pip install -q "${torch_index[@]}" -e '.[dev,workloads,report,docs]' 'torch==2.13.0' \
        || { note "pip could not install jobgen with its test extras"; exit 1; }
    # tf-keras is Keras 2, which MultiWorkerMirroredStrategy needs; --no-deps, or it pulls the
    # GPU `tensorflow` wheel. Optional: without it the TensorFlow tests skip.
    if ! { "$py" -m pip install -q 'tensorflow-cpu==2.21.0' \
            && "$py" -m pip install -q --no-deps 'tf-keras==2.21.0'; }; then
        note "TensorFlow not installed: the TensorFlow tests skip"
    fi
fi

"$py" -m ruff check . || exit 1
NO_MKDOCS_2_WARNING=1 "$py" -m mkdocs build --strict --quiet --site-dir "${TMPDIR:-/tmp}/jobgen-docs-site" || exit 1
if [ "$fast" = 1 ]; then
    exec "$py" -m pytest -q -m "not slow" "$@"
fi
if [ "$slow" = 1 ]; then
    exec "$py" -m pytest -q -m slow "$@"
fi
exec "$py" -m pytest -q "$@"
