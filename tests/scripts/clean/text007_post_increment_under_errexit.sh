#!/bin/bash
# clean: site: lumi -- ((DONE += 1)) from 0 gives 1, so its status is 0
#SBATCH --account=project_465000000
#SBATCH --partition=small
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --time=00:30:00
set -e

DONE=0
for f in input*.dat; do
    srun ./analyse "$f"
    ((DONE += 1))
done
echo "analysed $DONE files"
