#SBATCH --time=02:00:00
