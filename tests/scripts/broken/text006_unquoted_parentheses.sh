#!/bin/bash
# expect: TEXT006 site: lumi -- unquoted parentheses in an echo: bash stops at the syntax error, the srun never runs
#SBATCH --account=project_465000000
#SBATCH --partition=small
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --time=00:30:00

echo run (B) starting
srun ./analyse input.dat
