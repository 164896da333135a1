#!/bin/bash
#SBATCH -t00:20:00
#SBATCH -Astf007
#SBATCH -N2
#SBATCH -J andes_tests
#SBATCH -o logs/%x_%j.out
#SBATCH -e logs/%x_%j.out


srun  -N1 -n1 --tasks-per-node 1 apptainer exec opensusebase.sif ./vector_addition
