#!/bin/bash
# Submit what is left of an evaluation or a sweep, then its merge or
# report:
#   deploy/slurm/resubmit.sh OUT [sbatch options]         an evaluation submit-eval.sh submitted
#   deploy/slurm/resubmit.sh PLAN.toml [sbatch options]   a sweep
# An evaluation's shards are those with no part file in OUT, played with
# the settings submit-eval.sh kept in OUT/submit.env (a shard stopped
# half-way continues from its part-K.json.progress); a sweep's tasks are
# those with no eval.json in their folder (a task stopped half-way
# resumes from its checkpoint). They go as one array of their own indexes
# (--array=2,5-7), and the merge or report after it with
# --dependency=afterok; with none left, the merge or report alone.
# submit-eval.sh and submit-sweep.sh submit through this script too.
#
# Options given go to the array only (--time, --mem, --cpus-per-task ...);
# the merge gets MERGE_SBATCH, the report REPORT_SBATCH (sbatch options,
# split at spaces). Options every job needs (account, partition, QOS) go
# in the variables sbatch reads for every job: SBATCH_ACCOUNT,
# SBATCH_PARTITION, SBATCH_QOS. MAX_RUNNING=N runs at most N array tasks
# at once. LOGS (default logs) is the folder of the jobs' logs.
# It refuses while jobs it submitted for the same OUT or plan are queued
# or running. Before submitting anything it checks the td2048 binary
# (TD2048, default td2048 on PATH: it must run "version"), OUT and the
# logs folder. The binary of the first submission is kept, for an
# evaluation in OUT/submit.env, for a sweep in submit.env in the plan's
# out folder, and every resubmission runs that one, whatever TD2048 says
# then (edit submit.env to change it). The jobs get its absolute path: it
# must be on a file system every node mounts, as must OUT, the weights
# and the plan. Prints the array's job id (none when nothing is left) and
# the merge's or report's.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "resubmit.sh: $*" >&2; exit 1; }
# td2048_binary sets TD2048 to the absolute path of the td2048 binary it
# names (default td2048 on PATH), once it has checked that it runs.
td2048_binary() {
  local bin=${TD2048:-td2048} path v
  path=$(type -P -- "$bin") || die "TD2048=$bin: no such executable (set TD2048 to the td2048 binary, on a file system every node mounts)"
  [[ $path == /* ]] || path=$(cd "$(dirname "$path")" && pwd)/$(basename "$path")
  [ -f "$path" ] && [ -x "$path" ] || die "TD2048=$bin: $path is not an executable file"
  v=$("$path" version 2>&1) || die "TD2048=$path does not run here: ${v:-exit status $?}"
  [[ $v == "td2048 "* ]] || die "TD2048=$path is not td2048: its version says ${v%%$'\n'*}"
  TD2048=$path
  export TD2048
}
[ $# -ge 1 ] || die "usage: resubmit.sh OUT|PLAN.toml [sbatch options]"
target=$1
shift
missing=()
if [ -d "$target" ]; then
  OUT=$(cd "$target" && pwd)
  [ -f "$OUT/submit.env" ] || die "$target has no submit.env: not an evaluation submit-eval.sh submitted"
  set -a
  # shellcheck disable=SC1091
  . "$OUT/submit.env"
  set +a
  td2048_binary
  [ -w "$OUT" ] || die "$OUT: not writable"
  export OUT
  for ((k = 0; k < SHARDS; k++)); do
    [ -e "$OUT/part-$k.json" ] || missing+=("$k")
  done
  tag="td2048 eval $OUT"
  array_job=eval-array.sbatch final_job=merge.sbatch final_opts=${MERGE_SBATCH:-}
elif [ -f "$target" ]; then
  PLAN=$(cd "$(dirname "$target")" && pwd)/$(basename "$target")
  export PLAN
  td2048_binary
  list=$("$TD2048" sweep list "$PLAN") || die "$TD2048 sweep list $PLAN failed"
  sweep_out=
  while IFS=$'\t' read -r k dir _; do
    [[ $k =~ ^[0-9]+$ ]] || continue
    sweep_out=$(dirname "$dir")
    [ -e "$dir/eval.json" ] || missing+=("$k")
  done <<<"$list"
  # The binary of the first submission, kept in the sweep's folder, runs
  # every resubmission: a task's evaluation under way refuses another
  # build's record.
  mkdir -p "$sweep_out" && [ -w "$sweep_out" ] || die "$sweep_out (the plan's out): cannot make or write that folder"
  if [ -f "$sweep_out/submit.env" ]; then
    # shellcheck disable=SC1091
    . "$sweep_out/submit.env"
    td2048_binary
  else
    printf 'TD2048=%q\n' "$TD2048" >"$sweep_out/submit.env"
  fi
  tag="td2048 sweep $PLAN"
  array_job=sweep-array.sbatch final_job=sweep-report.sbatch final_opts=${REPORT_SBATCH:-}
else
  die "$target: no such folder (an evaluation's OUT) or file (a sweep's plan)"
fi
if squeue -h -u "$(id -un)" -o '%k' | grep -qxF -- "$tag"; then
  die "jobs for $target are still queued or running (squeue -u $(id -un)): resubmit once they have ended"
fi

# compact prints its increasing numbers as Slurm's ranges: 0-2,5,7-8.
compact() {
  local spec="" start=$1 prev=$1 k
  shift
  for k in "$@" ""; do
    if [ -n "$k" ] && [ "$k" -eq $((prev + 1)) ]; then
      prev=$k
      continue
    fi
    spec+=${spec:+,}$start
    if [ "$prev" != "$start" ]; then
      spec+=-$prev
    fi
    start=$k prev=$k
  done
  echo "$spec"
}

logs=${LOGS:-logs}
LOGS=$(mkdir -p "$logs" 2>/dev/null && cd "$logs" && pwd) && [ -w "$LOGS" ] ||
  die "LOGS=$logs: cannot make or write that folder (Slurm fails a job whose log it cannot write)"
export LOGS
array=none
dep=()
if [ ${#missing[@]} -gt 0 ]; then
  spec=$(compact "${missing[@]}")${MAX_RUNNING:+%$MAX_RUNNING}
  array=$(sbatch --parsable --export=ALL --comment="$tag" --output="$LOGS/%x-%A_%a.out" "$@" --array="$spec" "$here/$array_job")
  array=${array%%;*}
  dep=(--dependency="afterok:$array" --kill-on-invalid-dep=yes)
fi
# shellcheck disable=SC2086 # final_opts are options, split at spaces
final=$(sbatch --parsable --export=ALL --comment="$tag" --output="$LOGS/%x-%j.out" "${dep[@]}" $final_opts "$here/$final_job")
echo "$array ${final%%;*}"
