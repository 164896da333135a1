#!/bin/bash
#SBATCH -A <project_id>
#SBATCH -J <job_name>
#SBATCH -o %x-%j.out
#SBATCH -t 00:05:00
#SBATCH -p <partition> 
#SBATCH -N 2

srun -n4 --ntasks-per-node=2 ./a.out 
