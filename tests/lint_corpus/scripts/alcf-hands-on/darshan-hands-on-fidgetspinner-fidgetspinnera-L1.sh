#!/bin/bash
#PBS -l select=4:system=polaris
#PBS -l filesystems=home:eagle
#PBS -l walltime=0:15:00
#PBS -A fallwkshp23
#PBS -q fallws23scaling

cd ${PBS_O_WORKDIR}

# make sure scratch dir exists
SCRATCHDIR=/eagle/projects/fallwkshp23/$USER
mkdir -p $SCRATCHDIR

# delete old file if present
rm -rf $SCRATCHDIR/fidgetspinnerA*

# submit job
aprun -n 128 -N 32 ./fidgetspinnerA $SCRATCHDIR
