package learn

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/stats"
)

func TestParseShaping(t *testing.T) {
	for in, want := range map[string]string{
		"":                                "",
		"none":                            "",
		"restart":                         "restart,L=10,at=0.5",
		"restart,L=100,at=0.3":            "restart,L=100,at=0.3",
		"carousel":                        "carousel,block=2048,limit=65536",
		"carousel,block=4096,limit=49152": "carousel,block=4096,limit=49152",
	} {
		t.Run(in, func(t *testing.T) {
			s, err := ParseShaping(in)
			if err != nil || s.String() != want {
				t.Errorf("%q: %q, %v; want %q", in, s, err, want)
			}
			if back, err := ParseShaping(s.String()); err != nil || back != s {
				t.Errorf("%q does not read back: %v", s, err)
			}
		})
	}
	for _, bad := range []string{"restart,L=0", "restart,at=1", "restart,at=-0.1", "restart,block=5", "carousel,L=3",
		"carousel,limit=0", "carousel,block=x", "none,L=3", "shaped", "restart,x"} {
		t.Run(bad, func(t *testing.T) {
			if _, err := ParseShaping(bad); err == nil {
				t.Errorf("%q parsed", bad)
			}
		})
	}
}

func FuzzParseShaping(f *testing.F) {
	for _, s := range []string{"restart,L=3,at=0.25", "carousel,block=1024", "none"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := ParseShaping(s)
		if err != nil {
			return
		}
		if back, err := ParseShaping(sh.String()); err != nil || back != sh {
			t.Fatalf("%q -> %q does not read back: %v", s, sh, err)
		}
	})
}

// noisyNet is a network whose random weights make games long and varied.
func noisyNet(spec string) *ntuple.Network {
	n := ntuple.MustNew(spec)
	rng := rand.New(rand.NewPCG(1, 2))
	for i, w := 0, n.Weights(); i < len(w); i++ {
		w[i] = float32(rng.NormFloat64() * 100)
	}
	return n
}

// TestShapedFirstSubEpisode: without learning, the first sub-episode of
// a shaped episode is the ordinary game of the same generator, which the
// statistics report.
func TestShapedFirstSubEpisode(t *testing.T) {
	net := noisyNet("0123,4567")
	for _, s := range []string{"restart,L=5", "carousel,block=64"} {
		sh, _ := ParseShaping(s)
		plain, shaped := NewWorker(net, AfterState, NewRand(3, 0)), NewWorker(net, AfterState, NewRand(3, 0))
		shaped.Shaping = sh
		subs := 0
		shaped.sub = func(*Trace) { subs++ }
		for i := range 30 {
			a := plain.Play(0)
			b := shaped.Play(0)
			if a.Overflow {
				continue
			}
			if b.work < b.Moves {
				t.Fatalf("%s game %d: %d moves in all, fewer than the first sub-episode's %d", s, i, b.work, b.Moves)
			}
			b.work = 0 // every sub-episode's moves; the game is the first's
			if a != b {
				t.Fatalf("%s game %d: plain %+v, first sub-episode %+v", s, i, a, b)
			}
			plain.Rand = NewRand(3, uint64(i+1))
			shaped.Rand = NewRand(3, uint64(i+1))
		}
		if subs < 60 {
			t.Errorf("%s: %d sub-episodes in 30 episodes", s, subs)
		}
	}
}

// TestRestartPoints: each online sub-episode starts (its first after-state)
// from the previous one's chosen after-state floor((moves-1) x at); every
// sub-episode but the last has at least L moves, the last fewer. The
// first starts from a board of one tile.
func TestRestartPoints(t *testing.T) {
	net := noisyNet("0123,4567")
	w := NewWorker(net, AfterState, NewRand(8, 0))
	w.trace.Mode = Mode{online: true}
	w.Shaping, _ = ParseShaping("restart,L=20,at=0.3")
	var runs [][]traceStep
	w.sub = func(tr *Trace) { runs = append(runs, append([]traceStep(nil), tr.steps...)) }
	restarts := 0
	for range 10 {
		runs = runs[:0]
		w.Play(0.01)
		if first := runs[0][0].after; first.Empty() != 15 {
			t.Fatalf("first start %x is not one tile", uint64(first))
		}
		for i, r := range runs {
			moves := len(r) - 1
			if last := i == len(runs)-1; last != (moves < 20) {
				t.Fatalf("sub-episode %d of %d: %d moves", i, len(runs), moves)
			}
			if i > 0 {
				prev := runs[i-1]
				at := int(float32(len(prev)-2) * 0.3)
				if r[0].after != prev[1+at].after {
					t.Fatalf("sub-episode %d starts from %x, want after-state %d %x", i, uint64(r[0].after), at, uint64(prev[1+at].after))
				}
				restarts++
			}
		}
	}
	if restarts == 0 {
		t.Fatal("no restart in 10 episodes")
	}
}

// TestCarouselStarts: online carousel sub-episodes start from the dummy
// board below Block, then from boards whose scale is the aim: the previous
// start's (or the last big after-state's) scale plus Block, rising to the
// limit; a staged network's stage follows the aims' thresholds.
func TestCarouselStarts(t *testing.T) {
	net := noisyNet("0123,4567@0,8192")
	w := NewWorker(net, AfterState, NewRand(4, 0))
	w.trace.Mode = Mode{online: true}
	w.Shaping, _ = ParseShaping("carousel,block=1024,limit=16384")
	w.trace.keep = true // each sub-episode's first step, read below
	var starts []traceStep
	w.sub = func(tr *Trace) { starts = append(starts, tr.steps[0]) }
	w.Play(0.001)
	if len(starts) < 8 {
		t.Fatalf("%d sub-episodes", len(starts))
	}
	if starts[0].after != dummy {
		t.Errorf("first start %x, want the dummy", uint64(starts[0].after))
	}
	prev := uint32(0)
	for i, s := range starts[1:] {
		if s.after == dummy {
			continue
		}
		sc := s.after.Scale()
		if sc < 1024 || sc >= 16384 || sc&1 == 0 || sc <= prev {
			t.Fatalf("start %d: %x, scale %#x after %#x", i+1, uint64(s.after), sc, prev)
		}
		if want := net.StageOf(s.after); int(s.stage) < want {
			t.Errorf("start %d (scale %d) in stage %d", i+1, sc, s.stage)
		}
		prev = sc
	}
	if prev < 8192 {
		t.Errorf("carousel stopped at scale %d", prev)
	}
}

// TestShapedTraining: small real runs with restart and carousel learn
// (loose bounds), and resume bit for bit.
func TestShapedTraining(t *testing.T) {
	for _, c := range []struct {
		spec, shaping string
		mode          Mode
	}{
		{"0123,4567", "restart", Mode{}},
		{"0123,4567", "restart,L=20", Mode{online: true}},
		{"0123,4567@0,512", "carousel,block=256,limit=2048", Mode{online: true}},
		{"0123,4567@0,512", "carousel,block=256,limit=2048", Mode{}},
	} {
		t.Run(c.spec+" "+c.shaping+" "+c.mode.String(), func(t *testing.T) {
			sh, _ := ParseShaping(c.shaping)
			cfg := Config{Episodes: 900, Seed: 2, Threads: 1, Every: 300, Shaping: sh, Mode: c.mode, Promote: c.spec != "0123,4567"}
			var avgs []float64
			cfg.Block = func(_ int, b *stats.Block, _ time.Duration, _ float32) { avgs = append(avgs, b.Avg()) }
			full := ntuple.MustNew(c.spec)
			if _, _, err := Train(context.Background(), full, cfg); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s %v: %.0f", c.shaping, c.mode, avgs)
			if avgs[2] < 1.3*avgs[0] || avgs[2] < 2000 {
				t.Errorf("%s %v: block averages %.0f: not learning", c.shaping, c.mode, avgs)
			}
			cfg.Block, cfg.Episodes = nil, 150
			whole := ntuple.MustNew(c.spec)
			Train(context.Background(), whole, cfg)
			part := ntuple.MustNew(c.spec)
			ctx, cancel := context.WithCancel(context.Background())
			p := cfg
			p.CheckpointEvery, p.Checkpoint = 67, func(RunState) error { cancel(); return nil }
			st, _, _ := Train(ctx, part, p)
			js, _ := json.Marshal(st)
			var back RunState
			json.Unmarshal(js, &back)
			p = cfg
			p.Resume, p.Schedule = &back, back.Schedule
			Train(context.Background(), part, p)
			a, b := whole.Weights(), part.Weights()
			for i := range a {
				if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
					t.Fatalf("%s: weight %d: %v unbroken, %v resumed", c.shaping, i, a[i], b[i])
				}
			}
		})
	}
	if _, _, err := Train(context.Background(), ntuple.MustNew("0123@2"), Config{Episodes: 1, Shaping: Shaping{restart: true, l: 10, at: 0.5}}); err == nil {
		t.Error("restart of a staged network accepted")
	}
	if _, _, err := Train(context.Background(), ntuple.MustNew("0123"), Config{Episodes: 1, Kind: State, Shaping: Shaping{restart: true, l: 10, at: 0.5}}); err == nil {
		t.Error("restart of a state learner accepted")
	}
}

// TestShapedBlocksCountEveryMove: with shaping, the blocks a run reports
// count every sub-episode's moves (stats.Block.Played) as its Result does,
// so that a block's speed and the run's agree; each game's own moves stay
// in Moves.
func TestShapedBlocksCountEveryMove(t *testing.T) {
	for _, s := range []string{"restart,L=5", "carousel,block=64"} {
		sh, _ := ParseShaping(s)
		net := ntuple.MustNew("0123,4567")
		var played, own int64
		_, r, err := Train(context.Background(), net, Config{Episodes: 200, Seed: 5, Threads: 1, Every: 50, Shaping: sh,
			Block: func(_ int, b *stats.Block, _ time.Duration, _ float32) { played, own = played+b.Played(), own+b.Moves }})
		if err != nil {
			t.Fatal(err)
		}
		if played != r.Moves || own >= played {
			t.Errorf("%s: the blocks played %d moves (their games %d), the run %d", s, played, own, r.Moves)
		}
	}
}
