#!/bin/bash
# expect: TEXT019 site: lumi -- MODEL_SIZE's assignment is commented out and set -u stops the batch shell at its first read
#SBATCH --account=project_465000000
#SBATCH --partition=small
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=8
#SBATCH --time=00:30:00
set -euo pipefail

# MODEL_SIZE=small
OUT="/scratch/project_465000000/${USER}/eval"
mkdir -p "$OUT"
echo "evaluating the ${MODEL_SIZE} model" > "$OUT/summary.txt"
