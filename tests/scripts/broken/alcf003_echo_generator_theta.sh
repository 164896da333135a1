#!/bin/bash
# expect: ALCF003 site: polaris -- a generator that writes its job script one echo at a time asks for theta-fs0, a filesystem Polaris does not have
PROJ_ID=MyProject
nodes=2
SFILE=run.pbs
echo "#!/bin/bash" > $SFILE
echo "#PBS -A $PROJ_ID" >>$SFILE
echo "#PBS -q debug" >>$SFILE
echo "#PBS -l walltime=00:30:00" >>$SFILE
echo "#PBS -l filesystems=home:eagle:theta-fs0" >>$SFILE
echo "#PBS -l select=$nodes:system=polaris" >>$SFILE
echo "cd \$PBS_O_WORKDIR" >>$SFILE
echo "mpiexec -n $((nodes * 4)) -ppn 4 --cpu-bind depth -d 8 ./app" >>$SFILE
qsub $SFILE
