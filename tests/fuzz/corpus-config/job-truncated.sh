#!/bin/bash
#SBATCH -N 4
lfs setstripe -c 8 -S 4M out
mpirun -n 64 ./app
export ROMIO_HINTS=./romio-hints
