#!/usr/bin/env bash
# tdlbuild.sh: TDL2048+'s fastest builds, to compare td2048 against
# (docs/speed.md, "Beside TDL2048+").
#
#   scripts/tdlbuild.sh TDL2048_SOURCE OUTDIR [WEIGHTS.w]
#
# TDL2048_SOURCE is a checkout of moporgic/TDL2048 (2048.cpp and its
# makefile); nothing is copied into this repository. Each build is made in
# a directory of its own under OUTDIR by TDL2048+'s own makefile:
#
#   OUTDIR/default/2048   `make` (-O3 -mtune=native, AVX2, BMI2)
#   OUTDIR/train4x6/2048  `make profile` (GCC profile-guided), profiled on
#                         30k episodes of 4x6 training from zero
#   OUTDIR/train8x6/2048  the same, profiled on 5k episodes of 8x6
#   OUTDIR/tc8x6/2048     profiled on 8x6 TC (-a 1.0) on two threads, 4k
#                         episodes, for the equal-compute duel's 8x6 TC
#                         (the 8x6 TD(0) build ran TC at 0.28M moves/s on
#                         one thread); measured, it was no faster than
#                         the default build (docs/explanation/experiments.md)
#   OUTDIR/methods4x6/2048  profiled on 4x6 training by each learning
#                         method of scripts/recipes.sh (a few thousand
#                         episodes each), for scripts/methodspeed.sh: the
#                         4x6 TD(0) build runs TC 2-3x slower than the
#                         default build (cold code)
#   OUTDIR/play4x6/2048   profiled on greedy, 2-ply and 3-ply play of
#                         WEIGHTS.w (a 4x6 .w, such as one 100k-episode
#                         run's `-o`); only when WEIGHTS.w is given
#
# Use the build profiled on the work measured: profile-guided code is
# fast only where the profile ran (measured, the 4x6 training build
# ran 30k episodes in 26.6 s against the default's 27.9-33.0 s, and 8x6
# 2.5 times slower than the default, its 8x6 code compiled as cold).
# TDL2048+'s README advises against `make native`, and it was slower
# here too.
set -euo pipefail
src=${1:?usage: tdlbuild.sh TDL2048_SOURCE OUTDIR [WEIGHTS.w]}
out=${2:?usage: tdlbuild.sh TDL2048_SOURCE OUTDIR [WEIGHTS.w]}
weights=${3:-}
[ -f "$src/2048.cpp" ] && [ -f "$src/makefile" ] || { echo "tdlbuild.sh: $src has no 2048.cpp and makefile" >&2; exit 2; }
[ -z "$weights" ] || [ -f "$weights" ] || { echo "tdlbuild.sh: no weights file $weights" >&2; exit 2; }
[ -z "$weights" ] || weights=$(cd "$(dirname "$weights")" && pwd)/$(basename "$weights")
mkdir -p "$out"

# prepare DIR: a fresh copy of the sources in OUTDIR/DIR
prepare() {
	rm -rf "${out:?}/$1"
	mkdir -p "$out/$1"
	(cd "$src" && tar cf - --exclude=.git .) | (cd "$out/$1" && tar xf -)
}

# profiled DIR COMMAND...: `make profile` in OUTDIR/DIR, the profile run
# being TDL2048+'s binary with COMMAND's arguments ($(OUTPUT) is the
# makefile's name for the binary)
profiled() {
	local dir=$1
	shift
	prepare "$dir"
	printf '%s\n' "$@" >"$out/$dir/make-profile.sh"
	(cd "$out/$dir" && make profile >build.log 2>&1) || { echo "tdlbuild.sh: $dir failed, see $out/$dir/build.log" >&2; exit 1; }
	echo "$out/$dir/2048"
}

prepare default
(cd "$out/default" && make >build.log 2>&1) || { echo "tdlbuild.sh: default failed, see $out/default/build.log" >&2; exit 1; }
echo "$out/default/2048"
profiled train4x6 '$(OUTPUT) -n 4x6patt -t 30 -e 0 -% none -s 7'
profiled train8x6 '$(OUTPUT) -n 8x6patt -t 5 -e 0 -% none -s 7'
profiled tc8x6 '$(OUTPUT) -n 8x6patt -a 1.0 -p 2 -t 4 -e 0 -% none -s 7'
profiled methods4x6 \
	'$(OUTPUT) -n 4x6patt -t 5 -e 0 -% none -s 7 -tt backward' \
	'$(OUTPUT) -n 4x6patt -t 5 -e 0 -% none -s 7' \
	'$(OUTPUT) -n 4x6patt=320000/norm -t 5 -e 0 -% none -s 7' \
	'$(OUTPUT) -n 4x6patt -t 3 -e 0 -% none -s 7 -a 1.0 -tt fast' \
	'$(OUTPUT) -n 4x6patt -t 3 -e 0 -% none -s 7 -a 1.0' \
	'$(OUTPUT) -n 4x6patt -t 5 -e 0 -% none -s 7 -N 5' \
	'$(OUTPUT) -n 4x6patt -t 3 -e 0 -% none -s 7 -l 0.5 -N 5' \
	'$(OUTPUT) -n 4x6patt@2 -@ 0,16384 -t 1 -e 0 -% none -s 7'
if [ -n "$weights" ]; then
	profiled play4x6 \
		"\$(OUTPUT) -n 4x6patt -i $weights -t 0 -e 1x2000 -% none -s 7" \
		"\$(OUTPUT) -n 4x6patt -i $weights -t 0 -e 1x20 -d 2p -% none -s 7" \
		"\$(OUTPUT) -n 4x6patt -i $weights -t 0 -e 1x1 -d 3p -% none -s 7"
fi
