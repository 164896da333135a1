#!/bin/bash
#SBATCH -t00:10:00
#SBATCH -A stf007
#SBATCH -N2
#BATCH -P batch
#SBATCH -J logs/simple_container_job
#SBATCH -o %x_%j.out
#SBATCH -e %x_%j.out

srun  -N2 --tasks-per-node=1 apptainer exec  simple.sif hostname
