#SBATCH --array=0-15%4
