#!/bin/bash
#SBATCH -A XXXYYY
#SBATCH -J para_test
#SBATCH -N 1
#SBATCH -p batch
#SBATCH -t 0:05:00

cd $SLURM_SUBMIT_DIR
date

module load paraview/5.12.1-osmesa

srun -n 28 pvbatch para_example.py
