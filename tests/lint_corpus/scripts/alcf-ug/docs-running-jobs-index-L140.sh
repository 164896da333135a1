#PBS -A <project>
#PBS -k doe
#PBS -l walltime=HH:MM:SS
#PBS -l filesystems=fs1:fs2
