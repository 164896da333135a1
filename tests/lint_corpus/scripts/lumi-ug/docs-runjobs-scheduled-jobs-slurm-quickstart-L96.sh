#SBATCH --job-name=exampleJob
