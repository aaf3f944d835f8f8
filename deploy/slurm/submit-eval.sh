#!/bin/bash
# Submit a sharded evaluation and its merge:
#   SHARDS=16 WEIGHTS=8x6.td2048 GAMES=1000 DEPTH=6 OUT=eval-8x6 deploy/slurm/submit-eval.sh [sbatch options]
# Settings: eval-array.sbatch's (SHARDS, WEIGHTS, OUT, GAMES, DEPTH, SEED,
# STATS, EVAL_ARGS, TD2048) and the merge's MERGE_ARGS. OUT must be a new
# (or empty) folder; the settings, the binary's absolute path among them,
# are kept in OUT/submit.env, for resubmit.sh OUT to submit the shards
# that failed and the merge again with the same binary. TD2048, WEIGHTS
# and OUT must be on a file system every node mounts.
# Options given go to the shards' array only; the merge gets MERGE_SBATCH;
# options every job needs go in SBATCH_ACCOUNT, SBATCH_PARTITION,
# SBATCH_QOS (resubmit.sh says more). Prints the array's and the merge's
# job ids. Results: OUT/part-K.json, then OUT/merged.json and
# OUT/merged.txt; logs in LOGS (default logs).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "submit-eval.sh: $*" >&2; exit 1; }
: "${WEIGHTS:?set WEIGHTS to the weights to evaluate}"
SHARDS=${SHARDS:-4}
OUT=${OUT:-eval-out}
[[ $SHARDS =~ ^[1-9][0-9]*$ ]] || die "SHARDS=$SHARDS: want a count of shards"
[ -f "$WEIGHTS" ] || die "WEIGHTS=$WEIGHTS: no such file"
case ${STATS:-no} in yes | no) ;; *) die "STATS=$STATS: want yes or no" ;; esac
[ ! -e "$OUT" ] || [ -d "$OUT" ] || die "OUT=$OUT is not a folder"
if [ -e "$OUT" ] && [ -n "$(ls -A "$OUT")" ]; then
  die "$OUT holds files already: give a new OUT for a new evaluation; to finish the one submitted there, deploy/slurm/resubmit.sh $OUT"
fi
bin=${TD2048:-td2048}
TD2048=$(type -P -- "$bin") || die "TD2048=$bin: no such executable (set TD2048 to the td2048 binary, on a file system every node mounts)"
[[ $TD2048 == /* ]] || TD2048=$(cd "$(dirname "$TD2048")" && pwd)/$(basename "$TD2048")
[ -f "$TD2048" ] && [ -x "$TD2048" ] || die "TD2048=$bin: $TD2048 is not an executable file"
v=$("$TD2048" version 2>&1) || die "TD2048=$TD2048 does not run here: ${v:-exit status $?}"
[[ $v == "td2048 "* ]] || die "TD2048=$TD2048 is not td2048: its version says ${v%%$'\n'*}"
logs=${LOGS:-logs}
mkdir -p "$logs" 2>/dev/null && [ -w "$logs" ] || die "LOGS=$logs: cannot make or write that folder (Slurm fails a job whose log it cannot write)"
mkdir -p "$OUT" || die "OUT=$OUT: cannot make that folder"
[ -w "$OUT" ] || die "OUT=$OUT: not writable"
WEIGHTS=$(cd "$(dirname "$WEIGHTS")" && pwd)/$(basename "$WEIGHTS")
GAMES=${GAMES:-1000} DEPTH=${DEPTH:-1} SEED=${SEED:-1} STATS=${STATS:-no}
EVAL_ARGS=${EVAL_ARGS:-} MERGE_ARGS=${MERGE_ARGS:-}
for v in SHARDS WEIGHTS GAMES DEPTH SEED STATS EVAL_ARGS MERGE_ARGS TD2048; do
  printf '%s=%q\n' "$v" "${!v}"
done >"$OUT/submit.env"
exec "$here/resubmit.sh" "$OUT" "$@"
