#SBATCH --network=disable_rdzv_get

export FI_CXI_RDZV_PROTO=alt_read
