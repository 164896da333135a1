#BSUB -alloc_flags maximizegpfs
