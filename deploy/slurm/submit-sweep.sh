#!/bin/bash
# Submit a sweep and its report:
#   PLAN=rates.toml deploy/slurm/submit-sweep.sh [sbatch options]
# Prints the array's and the report's job ids.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${PLAN:?set PLAN to the sweep plan}"
export PLAN
n=$("${TD2048:-td2048}" sweep list "$PLAN" | tail -n 1 | cut -d' ' -f1)
array=$(sbatch --parsable --export=ALL --array="0-$((n - 1))" "$@" "$here/sweep-array.sbatch")
report=$(sbatch --parsable --export=ALL --dependency="afterok:${array%%;*}" --kill-on-invalid-dep=yes "$@" "$here/sweep-report.sbatch")
echo "$array $report"
