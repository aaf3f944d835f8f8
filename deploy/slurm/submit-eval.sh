#!/bin/bash
# Submit a sharded evaluation and its merge:
#   SHARDS=16 WEIGHTS=8x6.td2048 GAMES=1000 DEPTH=6 OUT=eval-8x6 deploy/slurm/submit-eval.sh [sbatch options]
# Prints the array's and the merge's job ids. Results: $OUT/part-K.json,
# then $OUT/merged.json and $OUT/merged.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
n=${SHARDS:-4}
: "${WEIGHTS:?set WEIGHTS to the weights to evaluate}"
export OUT=${OUT:-eval-out}
array=$(sbatch --parsable --export=ALL --array="0-$((n - 1))" "$@" "$here/eval-array.sbatch")
merge=$(sbatch --parsable --export=ALL --dependency="afterok:${array%%;*}" --kill-on-invalid-dep=yes "$@" "$here/merge.sbatch")
echo "$array $merge"
