#!/usr/bin/env bash
# fidelity.sh: train td2048 and TDL2048+ with the same recipes and compare
# their learning results (docs/explanation/fidelity.md).
#
#   scripts/fidelity.sh TDL2048_BINARY [OUTDIR]
#
# For each method below and each seed, both programs train the 4x6 network
# from zero on one thread for $EPISODES episodes (statistics every 1000),
# under `nice -n 19`, at most $JOBS runs at a time. Raw outputs, logs and
# figures go to OUTDIR (default /tmp/fid); a run whose output is complete is
# not run again, so the script can be stopped and restarted. At the end it
# draws one figure per method (both programs, every seed) with
# `td2048 plot --tdl` and prints the table: per seed the mean of the block
# averages (and 2048-rates) of the last $LAST blocks; per program the mean
# and sample standard deviation over the seeds; the verdict "agree" when the
# two means differ by at most twice the standard error of their difference
# (sqrt(sd1^2/n + sd2^2/n)), else "DIFFER". Training moves/s are the
# programs' own counts over each whole run (contended: indicative only).
#
# Environment: EPISODES (30000), SEEDS ("1 2 3"), JOBS (2), LAST (5),
# METHODS (all of them, names as below), TD2048 (a td2048 binary; default:
# built from this checkout into OUTDIR).
set -euo pipefail

tdl=${1:?usage: scripts/fidelity.sh TDL2048_BINARY [OUTDIR]}
out=${2:-/tmp/fid}
episodes=${EPISODES:-30000}
seeds=${SEEDS:-1 2 3}
jobs=${JOBS:-2}
last=${LAST:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/recipes.sh
. "$here/scripts/recipes.sh"
prepare fidelity.sh

# done_td FILE / done_tdl FILE: the run's output is complete.
done_td() { [ -f "$1.out" ] && grep -q "^$episodes episodes in " "$1.out"; }
done_tdl() { [ -f "$1.out" ] && grep -Eq "^0*$((episodes / 1000))/0*$((episodes / 1000)) " "$1.out"; }

run() { # PROGRAM METHOD SEED
	local prog=$1 m=$2 s=$3 tdm=$2
	local base=$out/$m-$prog-s$s
	if [ "$prog" = td2048 ]; then
		done_td "$base" && return 0
		# shellcheck disable=SC2046
		/usr/bin/time -f '%e %U %S' -o "$base.time" nice -n 19 "$td" train --threads 1 --seed "$s" \
			--episodes "$episodes" --every 1000 --checkpoint-every 0 $(field "$tdm" 2) \
			--save "$base.td2048" --log "$base.jsonl" --force >"$base.out" 2>&1
		rm -f "$base.td2048"
	else
		done_tdl "$base" && return 0
		# shellcheck disable=SC2046
		(cd "$out" && /usr/bin/time -f '%e %U %S' -o "$base.time" nice -n 19 "$tdl" $(tdl_args "$m") \
			-t $((episodes / 1000)) -s "$s" >"$base.out" 2>&1)
	fi
}

todo=()
for m in $methods; do
	[ -n "$(field "$m" 1)" ] || { echo "fidelity.sh: unknown method $m" >&2; exit 2; }
	for s in $seeds; do
		todo+=("td2048 $m $s" "tdl $m $s")
	done
done
for j in "${todo[@]}"; do
	while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
	# shellcheck disable=SC2086
	run $j &
done
wait

# One run: "AVG RATE2048 MOVES TRAIN_S CPU_S WALL_S": the mean block average
# and 2048-rate (%) of the last $last blocks, the moves of the whole run and
# the seconds its blocks took (the program's own clock, so MOVES/TRAIN_S is
# the moves/s it reports), and the process's CPU (user+sys) and wall time.
summ_td() {
	awk -v n="$last" '
		/^\{/ { a = $0; sub(/.*"avg":/, "", a); sub(/,.*/, "", a)
			r = $0; sub(/.*"reach":\{/, "", r); sub(/\}.*/, "", r)
			w = 0; if (r ~ /"2048":/) { sub(/.*"2048":/, "", r); sub(/[,}].*/, "", r); w = r * 100 }
			m = $0; sub(/.*"moves_per_sec":/, "", m); sub(/,.*/, "", m)
			e = $0; sub(/.*"elapsed_s":/, "", e); sub(/,.*/, "", e)
			mv += m * (e - pe); pe = e
			A[++k] = a; W[k] = w }
		END { if (n > k) n = k
			for (i = k - n + 1; i <= k; i++) { sa += A[i]; sw += W[i] }
			printf "%.1f %.2f %.0f %.3f", sa / n, sw / n, mv, pe }' "$1.jsonl"
	awk '{ printf " %.2f %.2f\n", $2 + $3, $1 }' "$1.time"
}
summ_tdl() {
	awk -v n="$last" '
		/^[0-9]+\/[0-9]+ [0-9]+ms / { ms = $2; sub(/ms/, "", ms); op = $3; sub(/ops/, "", op)
			mv += op * ms / 1000; t += ms }
		/^local:/ { a = $2; sub(/avg=/, "", a); w = $5; sub(/win=/, "", w); sub(/%/, "", w)
			A[++k] = a; W[k] = w }
		END { if (n > k) n = k
			for (i = k - n + 1; i <= k; i++) { sa += A[i]; sw += W[i] }
			printf "%.1f %.2f %.0f %.3f", sa / n, sw / n, mv, t / 1000 }' "$1.out"
	awk '{ printf " %.2f %.2f\n", $2 + $3, $1 }' "$1.time"
}

echo
echo "Fidelity: 4x6, $episodes episodes, 1 thread, seeds $seeds; mean of the last $last blocks (avg score, 2048-rate)"
printf '%-13s %-17s %-17s %-7s %-7s %-7s %-28s %-28s %s\n' method td2048 TDL2048+ verdict "2048%" "2048%" \
	"M moves/s td2048/TDL (ratio)" "moves/CPU-s td2048/TDL" "wall s td2048/TDL"
for m in $methods; do
	tdm=$m
	a=() b=()
	for s in $seeds; do
		a+=("$(summ_td "$out/$tdm-td2048-s$s")")
		b+=("$(summ_tdl "$out/$m-tdl-s$s")")
	done
	labels=$(for s in $seeds; do printf 'td2048 s%s,' "$s"; done; for s in $seeds; do printf 'TDL2048+ s%s,' "$s"; done)
	tdfiles=() tdlfiles=()
	for s in $seeds; do tdfiles+=("$out/$tdm-td2048-s$s.jsonl"); tdlfiles+=("$out/$m-tdl-s$s.out"); done
	"$td" plot "${tdfiles[@]}" "${tdlfiles[@]}" --label "${labels%,}" \
		--title "Fidelity: $m, 4x6, td2048 vs TDL2048+ (seeds ${seeds// /, })" -o "$out/$m.png" >/dev/null
	printf '%s\n' "${a[@]}" >"$out/$m.td.sum"
	printf '%s\n' "${b[@]}" >"$out/$m.tdl.sum"
	paste -d' ' "$out/$m.td.sum" "$out/$m.tdl.sum" | awk -v m="$m" '
		function sd(s, q, n) { return n > 1 ? sqrt((q - s * s / n) / (n - 1)) : 0 }
		{ n++; a += $1; aq += $1 * $1; b += $7; bq += $7 * $7; ra += $2; rb += $8
		  ma += $3; ta += $4; ca += $5; wa += $6; mb += $9; tb += $10; cb += $11; wb += $12 }
		END { sa = sd(a, aq, n); sb = sd(b, bq, n); d = a / n - b / n; se = sqrt(sa * sa / n + sb * sb / n)
			v = (d < 0 ? -d : d) <= 2 * se ? "agree" : "DIFFER"
			printf "%-13s %-17s %-17s %-7s %-7s %-7s %-28s %-28s %s\n", m,
				sprintf("%.0f ± %.0f", a / n, sa), sprintf("%.0f ± %.0f", b / n, sb), v,
				sprintf("%.1f%%", ra / n), sprintf("%.1f%%", rb / n),
				sprintf("%.2f / %.2f (%.2f)", ma / ta / 1e6, mb / tb / 1e6, (ma / ta) / (mb / tb)),
				sprintf("%.2fM / %.2fM (%.2f)", ma / ca / 1e6, mb / cb / 1e6, (ma / ca) / (mb / cb)),
				sprintf("%.0f / %.0f", wa / n, wb / n) }'
done
echo "(td2048 and TDL2048+ columns: mean ± sample standard deviation over the seeds of each run's last-$last-block mean;"
echo " verdict: agree when the means differ by at most 2 standard errors of the difference; 2048%: the same blocks' 2048-rate;"
echo " moves/s: each program's own count over its blocks' time, moves/CPU-s: over its process's user+sys time, both over"
echo " all seeds; wall s: mean per run. The machine is shared and contended: speeds are indicative only.)"
echo "figures: $out/<method>.png"
