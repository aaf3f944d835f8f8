#!/bin/bash
# Submit a sweep and its report:
#   PLAN=rates.toml deploy/slurm/submit-sweep.sh [sbatch options]
# Submits the tasks not done yet (all of them, the first time) and the
# report after them; run again, or as deploy/slurm/resubmit.sh PLAN, it
# submits those that failed. Options given go to the tasks' array only;
# the report gets REPORT_SBATCH; options every job needs go in
# SBATCH_ACCOUNT, SBATCH_PARTITION, SBATCH_QOS (resubmit.sh says more).
# Prints the array's and the report's job ids.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${PLAN:?set PLAN to the sweep plan}"
[ -f "$PLAN" ] || { echo "submit-sweep.sh: PLAN=$PLAN: no such file" >&2; exit 1; }
exec "$here/resubmit.sh" "$PLAN" "$@"
