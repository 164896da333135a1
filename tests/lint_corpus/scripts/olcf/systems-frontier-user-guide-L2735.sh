#SBATCH -A <proj>
#SBATCH -t <timelimit>
#SBATCH -N 8

module load rocm
module load hwloc/2.9.1-gpu # Flux requires a GPU-enabled hwloc to see the GPUs
module load flux

# A few Flux commands to note:
#   flux start -- starts the Flux server daemons
#   flux resource list -- lists the resources available to Flux
#   flux submit -- submits & detaches from a Flux job. Returns a hash string identifying the submitted job
#   flux jobs -- synonymous to `squeue`, displays the Flux queue
#   flux run -- submits & runs a Flux job (does not return prompt until command is complete)
#   flux queue drain -- similar to `wait`, blocks until Flux queue is empty

# Flux flags:
#   -N 1 -- 1 node
#   -n 8 -- 8 tasks
#   -c 7 -- 7 cores per task
#   --gpus-per-task=1 -- binds 1 GPU per task (DOES NOT WORK currently)
# We launch one Flux process per node, with all available CPUs and GPUs allocated to it
# Flux understands that it was launched in a Slurm allocation, and only the Flux daemon on the first node is listening to commands
srun -N $SLURM_NNODES -n $SLURM_NNODES -c 56 --gpus-per-node=8 flux start \
    "flux resource list;
    for i in \$(seq 1 $SLURM_NNODES); do
        flux submit -N 1 -n 8 -c 7 -x --gpus-per-task=1 --output=output.\$i.txt bash -c 'hostname; env | grep VISIBLE; /usr/bin/time ./vadd';
    done;
    flux queue drain;"
