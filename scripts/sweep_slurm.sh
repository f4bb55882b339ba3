#!/usr/bin/env bash
# Slurm job-array task of `make sweep SWEEP_ENGINE=slurm` (scripts/sweep.py):
# runs line $SLURM_ARRAY_TASK_ID of the round's jobs file, one self-contained
# command that checks the host has this sweep's spinsim, runs one point and
# leaves its result under build/sweep/runs/.  Submit a round as the sweep
# prints it, from the repository root:
#   sbatch --array=1-N scripts/sweep_slurm.sh build/sweep/jobs.txt
# then, once the array has finished, run the sweep again: it collects the
# results into points.csv and writes the next round (exit status 3 while
# rounds remain, 0 when the sweep is complete).
#SBATCH --job-name=spin-noc-sweep
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output=build/sweep/runs/slurm-%A_%a.log
set -euo pipefail
jobs=${1:?usage: sbatch --array=1-N scripts/sweep_slurm.sh JOBS_FILE}
task=${SLURM_ARRAY_TASK_ID:?not a Slurm array task: SLURM_ARRAY_TASK_ID is not set}
case $task in ''|*[!0-9]*) echo "sweep_slurm.sh: SLURM_ARRAY_TASK_ID=$task is not a number" >&2; exit 2;; esac
[ -r "$jobs" ] || { echo "sweep_slurm.sh: cannot read $jobs" >&2; exit 2; }
line=$(sed -n "${task}p" "$jobs")
[ -n "$line" ] || { echo "sweep_slurm.sh: $jobs has no line $task" >&2; exit 2; }
exec bash -c "$line"
