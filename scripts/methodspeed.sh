#!/usr/bin/env bash
# methodspeed.sh: training speed of each learning method, td2048 beside
# TDL2048+ (docs/explanation/fidelity.md, "Speed of each method").
#
#   scripts/methodspeed.sh TDL2048_BINARY [OUTDIR]
#
# For each method (the recipes of scripts/recipes.sh, as fidelity.sh's)
# and each round, both programs train the 4x6 network from zero on one
# thread for $EPISODES episodes, seed 1, one run at a time, td2048 first
# in odd rounds and TDL2048+ first in even ones. Per run it records the training time
# (td2048's "N episodes in T" line; TDL2048+'s blocks' ms summed) and the
# speed: td2048's own moves/s, TDL2048+'s blocks' moves (ops x ms) over
# their ms. It prints one line per run, then per method the medians of
# the rounds and the ratios td2048 / TDL2048+ of speed and of time to
# the same episodes. With shaping (ms) only the time compares: td2048
# counts every sub-episode's moves, TDL2048+'s ops far fewer. Run it on
# an otherwise idle machine.
#
# Environment: EPISODES (20000), ROUNDS (3), METHODS (all, names as in
# recipes.sh), TD2048 (a td2048 binary; default: built from this checkout).
set -euo pipefail

tdl=${1:?usage: scripts/methodspeed.sh TDL2048_BINARY [OUTDIR]}
out=${2:-/tmp/methodspeed}
episodes=${EPISODES:-20000}
rounds=${ROUNDS:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/recipes.sh
. "$here/scripts/recipes.sh"
prepare methodspeed.sh

speed_td() { # METHOD: prints moves/s and training seconds
	rm -f "$out/w.td2048" "$out/w.jsonl"
	# shellcheck disable=SC2046
	"$td" train --threads 1 --seed 1 --episodes "$episodes" --checkpoint-every 0 \
		$(field "$1" 2) --save "$out/w.td2048" >"$out/last.out" 2>&1
	rm -f "$out/w.td2048" "$out/w.jsonl"
	# "20000 episodes in 1m39.775s, 2.57M moves/s; ..."
	sed -n "s/^$episodes episodes in \([0-9hms.]*\), \([0-9.]*\)\([Mk]*\) moves\/s.*/\2 \1 \3/p" "$out/last.out" |
		awk '{ d = $2; s = 0; r = $1 * ($3 == "M" ? 1e6 : $3 == "k" ? 1e3 : 1)
			if (d ~ /h/) { split(d, a, "h"); s += a[1] * 3600; d = a[2] }
			if (d ~ /m[0-9]/) { split(d, a, "m"); s += a[1] * 60; d = a[2] }
			if (d ~ /ms$/) { sub(/ms$/, "", d); d /= 1000 } else sub(/s$/, "", d)
			printf "%.0f %.3f\n", r, s + d }'
}

speed_tdl() { # METHOD: prints moves/s and training seconds
	# shellcheck disable=SC2046
	(cd "$out" && "$tdl" $(tdl_args "$1") -t "$((episodes / 1000))" -s 1 >"$out/last.out" 2>&1)
	# block lines: "001/020 123ms 4567890.12ops"
	awk '$1 ~ /^[0-9]+\/[0-9]+$/ && $2 ~ /ms$/ && $3 ~ /ops$/ {
		t = $2 + 0; o = $3 + 0; ms += t; mv += o * t } END { if (ms > 0) printf "%.0f %.3f\n", mv / ms, ms / 1000 }' "$out/last.out"
}

results=$out/results.txt
: >"$results"
for r in $(seq "$rounds"); do
	for m in $methods; do
		if (( r % 2 )); then order="td2048 tdl"; else order="tdl td2048"; fi
		for p in $order; do
			if [ "$p" = td2048 ]; then v=$(speed_td "$m"); else v=$(speed_tdl "$m"); fi
			[ -n "$v" ] || { echo "methodspeed.sh: $p $m gave no speed (see $out/last.out)" >&2; exit 1; }
			echo "round $r $m $p $v" | tee -a "$results"
		done
	done
done

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
col() { awk -v m="$1" -v p="$2" -v c="$3" '$3 == m && $4 == p {print $c}' "$results" | median; }
echo
printf '%-14s %10s %10s %6s   %9s %9s %6s\n' method td2048 TDL2048+ speed "td2048 s" "TDL s" time
for m in $methods; do
	echo "$m $(col "$m" td2048 5) $(col "$m" tdl 5) $(col "$m" td2048 6) $(col "$m" tdl 6)" |
		awk '{ printf "%-14s %9.2fM %9.2fM %5.2fx   %9.2f %9.2f %5.2fx\n", $1, $2 / 1e6, $3 / 1e6, $2 / $3, $4, $5, $5 / $4 }'
done
