# recipes.sh: the recipes td2048 and TDL2048+ are compared on, and the
# setup both comparing scripts share; sourced by fidelity.sh and
# methodspeed.sh.
#
# method | td2048 train flags | TDL2048+ flags (the network is added: 4x6patt,
# with the first word appended when it starts with = or @)
recipes='
td0-backward|--update backward|-tt backward
td0-online|--update online|
otd|--init 320000 --update online|=320000/norm
tc|--coherence --update online|-a 1.0
nstep5|--update online,nstep=5|-N 5
lambda5|--update online,lambda=0.5,nstep=5|-l 0.5 -N 5
ms|--network 4x6@0,16384 --alpha 0.05 --update online --shaping carousel|@2 -@ 0,16384
tc-fast|--coherence --update fast|-a 1.0 -tt fast
'
# tc is both programs' default TC, forward: s'_t valued again just before
# its online update; tc-fast values it as it was when chosen (TDL2048+'s
# -tt fast, its fastest TC).

# all_methods: every method's name, in order.
all_methods() { echo "$recipes" | awk -F'|' 'NF {print $1}'; }

# field METHOD N: field N of METHOD's recipe (2: td2048's flags, 3: TDL2048+'s).
field() { echo "$recipes" | awk -F'|' -v m="$1" -v f="$2" '$1 == m {print $f}'; }

# tdl_args METHOD: TDL2048+'s -n network and flags for METHOD.
tdl_args() {
	local flags net=4x6patt
	flags=$(field "$1" 3)
	case $flags in [=@]*) net=4x6patt${flags%% *}; flags=${flags#"${flags%% *}"} ;; esac
	echo "-n $net $flags"
}

# prepare NAME: checks the comparing script's settings (tdl, episodes),
# makes tdl an absolute path (the runs change directory), creates out,
# builds td2048 into it unless TD2048 names one, and sets td and methods.
prepare() {
	[ -x "$tdl" ] || { echo "$1: $tdl is not an executable TDL2048+ binary" >&2; exit 2; }
	tdl=$(cd "$(dirname "$tdl")" && pwd)/$(basename "$tdl")
	(( episodes % 1000 == 0 && episodes > 0 )) || { echo "$1: EPISODES $episodes: want a multiple of 1000" >&2; exit 2; }
	mkdir -p "$out"
	td=${TD2048:-}
	if [ -z "$td" ]; then
		td=$out/td2048
		(cd "$here" && go build -o "$td" ./cmd/td2048)
	fi
	methods=${METHODS:-$(all_methods)}
}
