// Command tdlreplay trains td2048's 4x6 network on the random tiles
// TDL2048+ would draw for the same seed, to check episode by episode that
// both programs learn the same thing (docs/explanation/fidelity.md, "Replays").
//
//	go run ./scripts/tdlreplay --update backward --episodes 3 --seed 1
//	./2048 -n 4x6patt -tt backward -t 3x1 -s 1        # TDL2048+: the same scores, one per block
//	./2048 -n 4x6patt -tt backward -t 1x1 -s 1 -o e1.w
//	go run ./scripts/tdlreplay --update backward --episodes 1 --seed 1 --compare e1.w
//
// TDL2048+ draws every random number from std::mt19937 seeded with the
// Java-style string hash of its -s word (so "1" is 49): a new game takes one
// number u, whose low 16 bits place the two first tiles (cell k%16, then
// (k%16 + 1 + (k>>4)%15) % 16) and whose high 16 bits mod 100 make them
// 4s (below 1, below 19); each random tile takes one number u, the
// ((u>>16) mod empty)-th empty cell in cell order, a 4 when u mod 10 is 0.
// This command draws the same numbers and plays and learns with td2048's
// learn.Trace, so while no float rounding tips a near-tie between two moves
// the games are the same move for move. It prints one score per episode;
// with --compare it also compares the weights with a TDL2048+ .w file
// written after the same episodes.
package main

import (
	"fmt"
	"math"
	"math/bits"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/game2048"
	"github.com/td2048/td2048/scripts/internal/bench"
)

// mt19937 is the 32-bit Mersenne Twister (MT19937, Matsumoto and
// Nishimura 1998), as C++'s std::mt19937.
type mt19937 struct {
	s [624]uint32
	i int
}

func newMT(seed uint32) *mt19937 {
	m := &mt19937{i: 624}
	m.s[0] = seed
	for i := 1; i < 624; i++ {
		m.s[i] = 1812433253*(m.s[i-1]^(m.s[i-1]>>30)) + uint32(i)
	}
	return m
}

func (m *mt19937) next() uint32 {
	if m.i >= 624 {
		for k := range 624 {
			y := m.s[k]&0x80000000 | m.s[(k+1)%624]&0x7fffffff
			v := m.s[(k+397)%624] ^ y>>1
			if y&1 != 0 {
				v ^= 0x9908b0df
			}
			m.s[k] = v
		}
		m.i = 0
	}
	y := m.s[m.i]
	m.i++
	y ^= y >> 11
	y ^= y << 7 & 0x9d2c5680
	y ^= y << 15 & 0xefc60000
	return y ^ y>>18
}

// start is TDL2048+'s new game.
func start(r *mt19937) board.Board {
	u := r.next()
	k := u & 0xffff
	i := k % 16
	j := (i + 1 + (k>>4)%15) % 16
	a, b := uint64(1), uint64(1)
	if (u>>16)%100 < 1 {
		a = 2
	}
	if (u>>16)%100 < 19 {
		b = 2
	}
	return board.Board(a<<(4*i) | b<<(4*j))
}

// spawn is TDL2048+'s random tile.
func spawn(b board.Board, r *mt19937) board.Board {
	x := b.EmptyMask()
	u := r.next()
	for k := (u >> 16) % uint32(bits.OnesCount64(x)); k > 0; k-- {
		x &= x - 1
	}
	t := x & -x
	if u%10 == 0 {
		t <<= 1
	}
	return b | board.Board(t)
}

func main() {
	update := flag.String("update", "backward", "td2048's --update: backward, online, online,nstep=N, ...")
	episodes := flag.Int("episodes", 1, "episodes to play and learn")
	seed := flag.String("seed", "1", "TDL2048+'s -s word")
	alpha := flag.Float64("alpha", 0.1, "learning rate for the whole value (TDL2048+'s -a)")
	coherence := flag.Bool("coherence", false, "temporal coherence (TDL2048+'s -a 1.0 with -tt fast for online)")
	v0 := flag.Float64("init", 0, "optimistic initialisation (TDL2048+'s -n 4x6patt=V/norm)")
	compare := flag.String("compare", "", "a TDL2048+ .w file to compare the weights with at the end")
	flag.Parse()
	if err := run(*update, *episodes, *seed, float32(*alpha), *coherence, *v0, *compare); err != nil {
		bench.Fail(1, "tdlreplay", err)
	}
}

func run(update string, episodes int, seed string, alpha float32, coherence bool, v0 float64, compare string) error {
	mode, err := learn.ParseMode(update)
	if err != nil {
		return err
	}
	var h uint32
	for _, c := range []byte(seed) {
		h = h*31 + uint32(int8(c)) // TDL2048+'s to_hash over C chars
	}
	net := ntuple.MustNew("4x6")
	if coherence {
		net.EnableCoherence()
	}
	if v0 != 0 {
		net.Optimistic(v0)
	}
	rng := newMT(h)
	tr := learn.NewTrace(net)
	tr.Mode = mode
	var m learn.Moves
	for range episodes {
		tr.Reset(alpha)
		b := start(rng)
		score := 0
		for {
			after, reward := game2048.Moves(b)
			m.Legal, m.Final = 0, 0
			for d := range 4 {
				m.After[d] = after[d]
				m.Reward[d] = float32(game2048.Reward(reward[d]))
				if after[d] != b {
					m.Legal |= 1 << d
				}
			}
			d := tr.Choose(&m)
			if d < 0 {
				break
			}
			score += game2048.Reward(reward[d])
			tr.Push(&m, d)
			b = spawn(after[d], rng)
		}
		tr.Learn(alpha, 0)
		fmt.Println(score)
	}
	if compare == "" {
		return nil
	}
	ref, _, err := netfile.LoadAny(compare)
	if err != nil {
		return err
	}
	w, rw := net.Weights(), ref.Weights()
	if len(w) != len(rw) {
		return fmt.Errorf("%s has %d weights, the 4x6 network %d", compare, len(rw), len(w))
	}
	differ, touched := 0, 0
	var worst, scale float64
	for i := range w {
		if w[i] != rw[i] {
			differ++
			worst = max(worst, math.Abs(float64(w[i]-rw[i])))
		}
		if w[i] != 0 || rw[i] != 0 {
			touched++
			scale = max(scale, math.Abs(float64(rw[i])))
		}
	}
	fmt.Printf("weights: %d of %d nonzero differ, by at most %g (largest weight %g)\n", differ, touched, worst, scale)
	return nil
}
