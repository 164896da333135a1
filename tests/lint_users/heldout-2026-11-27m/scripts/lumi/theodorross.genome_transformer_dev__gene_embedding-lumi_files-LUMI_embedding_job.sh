#!/bin/bash
#SBATCH --job-name=GeneAE
#SBATCH --output=lumi_files/logs/save_embeddings.o%j # Name of stdout output file
#SBATCH --error=lumi_files/logs/save_embeddings.e%j  # Name of stderr error file
#SBATCH --account=project_465001915
#SBATCH --time=01:00:00
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --gpus-per-task=1
#SBATCH --cpus-per-task=7
#SBATCH --mem=60G
#SBATCH --partition=small-g

## Load the needed LUMI bindings
module use /appl/local/containers/ai-modules
module load singularity-AI-bindings


## Define directories of interest
GITDIR=/scratch/project_465001915/rosstheo/genome_transformer_dev
export SIF=/scratch/project_465001915/rosstheo/genome_transformer_dev/container/lumi-tensorflow-rocm-6.2.0-python-3.10-tensorflow-2.16.1-horovod-0.28.1.sif

## Run the training script
srun singularity exec \
    -B /scratch/project_465001915/rosstheo \
    $SIF /bin/bash \
    lumi_files/lumi_files/login_and_compute_embeddings.sh

    