#!/bin/bash
#SBATCH -A <project_id>
#SBATCH -J <job_name>
#SBATCH -o %x-%j.out
#SBATCH -t 00:05:00
#SBATCH -p batch-gpu
#SBATCH -N 1
#SBATCH --gpus=4

srun -n 4 --gpus-per-task=1 --gpu-bind=closest ./a.out 
