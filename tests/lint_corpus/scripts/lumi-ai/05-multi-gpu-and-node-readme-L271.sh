#SBATCH --nodes=4
