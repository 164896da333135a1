#SBATCH --partition=small
