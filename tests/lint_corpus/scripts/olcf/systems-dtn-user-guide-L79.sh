#SBATCH --threads-per-core=1
