#!/bin/bash

mpiexec -n 64 -ppn 64 python example_mpi4py.py 
