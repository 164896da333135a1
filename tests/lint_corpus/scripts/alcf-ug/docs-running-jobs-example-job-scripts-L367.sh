#PBS -r y
