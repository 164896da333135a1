#PBS -J 0-99%10                    # at submission
qalter -J 0-99%10 <job_array_id>[] # on an existing array
