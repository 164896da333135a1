#!/bin/bash -l
#PBS -l select=1
#PBS -l walltime=0:30:00
#PBS -l filesystems=<fs1:fs2>
#PBS -q <queue> 
#PBS -A <ProjectName>

cd ${PBS_O_WORKDIR}
mpiexec -n 1 ./executable
