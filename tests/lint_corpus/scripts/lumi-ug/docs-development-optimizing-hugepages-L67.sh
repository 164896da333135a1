#!/bin/bash
#SBATCH ...

module load craype-hugepages2M

srun ./myprogram
