#!/bin/bash
# clean: site: lumi -- the parentheses quoted
#SBATCH --account=project_465000000
#SBATCH --partition=small
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --time=00:30:00

echo "run (B) starting"
srun ./analyse input.dat
