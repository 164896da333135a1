#SBATCH --nodes=4
#SBATCH --tasks-per-node=1
