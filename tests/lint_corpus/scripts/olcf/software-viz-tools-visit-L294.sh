#!/bin/bash
#SBATCH -A XXXYYY
#SBATCH -J visit_test
#SBATCH -N 1
#SBATCH -p batch
#SBATCH -t 0:05:00

cd $SLURM_SUBMIT_DIR
date

# For VisIt 3.3.3
module load PrgEnv-gnu/8.6.0
module load visit/3.3.3-mpi

# For VisIt 3.4.1
#module load PrgEnv-gnu/8.7.0
#module load cpe/26.03
#module load visit/3.4.1-mpi

visit -nowin -cli -v 3.3.3 -l srun -np 28 -nn 1 -s visit_example.py
