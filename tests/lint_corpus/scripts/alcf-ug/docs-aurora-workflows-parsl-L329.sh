#!/bin/bash -l
#PBS -l select=1
#PBS -l place=scatter
#PBS -l walltime=0:30:00
#PBS -q debug
#PBS -A <ProjectName>

cd ${PBS_O_WORKDIR}

source $HOME/_env/bin/activate
python my_workflow_script.py
