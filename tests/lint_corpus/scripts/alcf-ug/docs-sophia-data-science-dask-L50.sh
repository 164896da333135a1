#!/bin/bash
# $1 : number of ranks per node (dafault: 8)

TMP_EXE=dask_start_worker.sh
cat > ${TMP_EXE} << EOF
#!/bin/bash
CUDA_VISIBLE_DEVICES=\${OMPI_COMM_WORLD_LOCAL_RANK} dask cuda worker \
  --device-memory-limit 40GB \
  --scheduler-file ~/scheduler.json \
  --protocol tcp \
  >/tmp/dask_worker_\${OMPI_COMM_WORLD_RANK}_\${OMPI_COMM_WORLD_LOCAL_RANK}_\${HOSTNAME}.log 2>&1
EOF
chmod 755 ${TMP_EXE}

# start the scheduler
rm -f ~/scheduler.json
echo "starting the scheduler"
nohup dask scheduler --scheduler-file ~/scheduler.json  >/tmp/dask_scheduler.log 2>&1 &
sleep 10

# start the workers
NUM_NODES=$(cat $PBS_NODEFILE | wc -l)
NRANKS_PER_NODE=${1:-8}
echo "starting" ${NRANKS_PER_NODE} "workers per node on" ${NUM_NODES} "nodes"
mpiexec  -np $((NRANKS_PER_NODE*NUM_NODES)) ./${TMP_EXE}

rm ./${TMP_EXE}
