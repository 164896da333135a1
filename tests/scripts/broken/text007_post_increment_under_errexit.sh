#!/bin/bash
# expect: TEXT007 site: lumi -- ((DONE++)) with DONE=0 under set -e: the statement returns 1 and the script exits before the srun
#SBATCH --account=project_465000000
#SBATCH --partition=small
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --time=00:30:00
set -e

DONE=0
for f in input*.dat; do
    srun ./analyse "$f"
    ((DONE++))
done
echo "analysed $DONE files"
