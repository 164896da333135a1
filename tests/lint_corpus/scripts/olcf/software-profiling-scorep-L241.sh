#!/bin/bash
#SBATCH -A ABC123       # Project account
#SBATCH -t 1:00:00      # Walltime
#SBATCH -p batch        # Queue
#SBATCH -N 1            # Number of nodes
#SBATCH -J MyJobName    # Job Name
#SBATCH -o %x-%j.out    # Job output file

cd <path to my ScoreP instrumented executable>

export SCOREP_ENABLE_PROFILING=true
export SCOREP_ENABLE_TRACING=false
export SCOREP_EXPERIMENT_DIRECTORY=executable_scorep_outdir

srun -n 1 ./<executable>
