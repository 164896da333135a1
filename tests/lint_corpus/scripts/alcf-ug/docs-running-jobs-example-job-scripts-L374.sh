#PBS -J <start_index>-<end_index>:<skip_index>%<num_concurrent>
