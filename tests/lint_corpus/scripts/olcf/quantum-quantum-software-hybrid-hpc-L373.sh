#!/bin/bash
#SBATCH -A ABC123
#SBATCH -J job_name
#SBATCH -N 1
#SBATCH -t 0:05:00
#SBATCH -p batch

cd $SLURM_SUBMIT_DIR
date

# Set proxy settings so compute nodes can reach internet (required when not using a simulator)
export all_proxy=socks://proxy.ccs.ornl.gov:3128/
export ftp_proxy=ftp://proxy.ccs.ornl.gov:3128/
export http_proxy=http://proxy.ccs.ornl.gov:3128/
export https_proxy=http://proxy.ccs.ornl.gov:3128/
export no_proxy='localhost,127.0.0.0/8,*.ccs.ornl.gov'

# Load python module and virtual environment
module load miniforge3/23.11.0-0
conda activate ENV_NAME

# For PennyLane Lightning Kokkos
#export MPICH_GPU_SUPPORT_ENABLED=1
#export HSA_ENABLE_PEER_SDMA=0

# For software like Qiskit,PennyLane,Pytket
#srun ... python3 script.py
