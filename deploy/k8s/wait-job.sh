#!/bin/sh
# Wait for a Job to end, for at most TIMEOUT (kubectl's form: 90s, 30m,
# 24h; default 24h):
#   deploy/k8s/wait-job.sh td2048-eval 24h
# Exit status 0 once the Job is complete; 1 as soon as it has failed (an
# index out of retries, or the Job's own limits), naming its failed
# indexes; 2 at the timeout, or when kubectl cannot read the Job.
# (kubectl wait for the complete condition alone would wait out the whole
# timeout after a failure.)
set -u
job=${1:?usage: wait-job.sh JOB [TIMEOUT]}
timeout=${2:-24h}
kubectl wait --for=condition=complete --timeout="$timeout" "job/$job" >/dev/null &
complete=$!
kubectl wait --for=condition=failed --timeout="$timeout" "job/$job" >/dev/null &
failed=$!
trap 'kill $complete $failed 2>/dev/null' EXIT
trap 'exit 130' INT TERM
while kill -0 "$complete" 2>/dev/null && kill -0 "$failed" 2>/dev/null; do
  sleep 1
done
if ! kill -0 "$complete" 2>/dev/null && wait "$complete"; then
  echo "job/$job is complete"
  exit 0
fi
if ! kill -0 "$failed" 2>/dev/null && wait "$failed"; then
  indexes=$(kubectl get "job/$job" -o jsonpath='{.status.failedIndexes}' 2>/dev/null)
  echo "job/$job failed${indexes:+: failed indexes $indexes}; kubectl describe job/$job and the Pods' logs say why" >&2
  exit 1
fi
echo "job/$job: neither complete nor failed after $timeout, or kubectl could not read it" >&2
exit 2
