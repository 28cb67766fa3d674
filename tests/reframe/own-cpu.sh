#!/bin/sh
# Start a rank on a CPU of its own: its global rank (SLURM_PROCID) modulo the machine's CPUs.
# The emulated cluster's nodes share one machine's CPUs and Slurm binds nothing there
# (task/none): unbound, the ranks of two nodes were seen to sit on one CPU together in batch jobs
# and to run a hundred times slower. The run header's `binding` records where each rank ran.
exec taskset -c "$((SLURM_PROCID % $(nproc)))" "$@"
