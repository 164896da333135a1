#!/bin/bash
#SBATCH -A <PROJECT_ID>
#SBATCH -J h5py
#SBATCH -N 1
#SBATCH -p gpu
#SBATCH -t 0:05:00

cd $SLURM_SUBMIT_DIR
date

module load gcc/9.3.0
module load hdf5/1.10.7
module load miniforge3/24.11.3-2

conda activate h5pympi-andes

srun -n42 python3 hdf5_parallel.py
