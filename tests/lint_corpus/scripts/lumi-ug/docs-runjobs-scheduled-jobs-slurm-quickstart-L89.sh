#SBATCH option_name=argument
