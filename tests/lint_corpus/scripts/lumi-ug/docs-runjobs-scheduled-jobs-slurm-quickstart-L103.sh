#SBATCH --account=myAmazingProject
