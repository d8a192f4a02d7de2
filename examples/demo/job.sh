#!/bin/bash
# The job script of `make demo` (what a user would pass with --config):
# four ranks write one shared file in 4 KiB pieces, then read it back.
#SBATCH --job-name=ior-small
#SBATCH --nodes=1
#SBATCH --ntasks=4
#SBATCH --time=00:05:00

export ROMIO_HINTS=$PWD/romio-hints
lfs setstripe -c 1 -S 1m "$SCRATCH/ior"
mpirun -np 4 ./ior_like --api posix --transfer 4k --block 16m --dir "$SCRATCH/ior"
