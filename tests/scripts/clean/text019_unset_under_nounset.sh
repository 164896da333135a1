#!/bin/bash
# clean: site: lumi -- the same job with MODEL_SIZE set (and a default for one given at submission)
#SBATCH --account=project_465000000
#SBATCH --partition=small
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=8
#SBATCH --time=00:30:00
set -euo pipefail

MODEL_SIZE=${MODEL_SIZE:-small}
OUT="/scratch/project_465000000/${USER}/eval"
mkdir -p "$OUT"
echo "evaluating the ${MODEL_SIZE} model" > "$OUT/summary.txt"
