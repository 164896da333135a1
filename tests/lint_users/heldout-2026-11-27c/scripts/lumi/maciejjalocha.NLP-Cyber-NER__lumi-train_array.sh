#!/bin/bash -l
#SBATCH --job-name=ner_retrain
#SBATCH --account=project_465002928
#SBATCH --partition=small-g
#SBATCH --array=0-19
#SBATCH --nodes=1
#SBATCH --gpus-per-node=1
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=7
#SBATCH --mem=60G
#SBATCH --time=03:00:00
#SBATCH --output=lumi/logs/retrain_%A_%a.log
#SBATCH --error=lumi/logs/retrain_%A_%a.err
#
# One SLURM array task = one (arch, dataset) leakage-clean fine-tune on a single GCD.
# --array=0-19 covers all 20 models (row-major over ARCHES x DATASETS in train_hf_ner.py).
# Submit from the repo root:  sbatch lumi/train_array.sh
set -euo pipefail

module --force purge
module use /appl/local/laifs/modules
module load lumi-aif-singularity-bindings

export SIF="${SIF:-/appl/local/laifs/containers/lumi-multitorch-u24r64f21m43t29-20260319_153422/lumi-multitorch-full-u24r64f21m43t29-20260319_153422.sif}"
VENV="${VENV:-$HOME/venvs/nlp-cyber-ner}"
PROJ_ROOT="${PROJ_ROOT:-$SLURM_SUBMIT_DIR}"
HF_SCRATCH="${HF_SCRATCH:-/scratch/project_465002928/$(whoami)/hf}"
RETRAINED_DIR="${RETRAINED_DIR:-/scratch/project_465002928/$(whoami)/retrained}"

mkdir -p lumi/logs "$RETRAINED_DIR"

# MIOPEN kernel cache on node-local /tmp (per LUMI guidance).
export MIOPEN_USER_DB_PATH="/tmp/$(whoami)-miopen-${SLURM_ARRAY_TASK_ID:-0}"
export MIOPEN_CUSTOM_CACHE_DIR="$MIOPEN_USER_DB_PATH"
rm -rf "$MIOPEN_USER_DB_PATH"; mkdir -p "$MIOPEN_USER_DB_PATH"

srun singularity exec "$SIF" bash -c "
    set -euo pipefail
    # SLURM exposes the GCD via ROCR_VISIBLE_DEVICES; torch wants HIP_VISIBLE_DEVICES.
    if [ -n \"\${ROCR_VISIBLE_DEVICES:-}\" ] && [ -z \"\${HIP_VISIBLE_DEVICES:-}\" ]; then
        export HIP_VISIBLE_DEVICES=\"\$ROCR_VISIBLE_DEVICES\"
    fi
    unset ROCR_VISIBLE_DEVICES

    export HF_HOME='$HF_SCRATCH'
    export HF_HUB_OFFLINE=1
    export TRANSFORMERS_OFFLINE=1

    source '$VENV/bin/activate'
    cd '$PROJ_ROOT'
    python -m nlp_cyber_ner.modeling.train_hf_ner \
        --index \$SLURM_ARRAY_TASK_ID \
        --output-root '$RETRAINED_DIR' \
        --batch-size 2 --lr 2e-5 --epochs 10 --seed 42 --max-length 512 --bf16
"
