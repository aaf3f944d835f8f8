package learn

import (
	"context"
	"math"
	"testing"

	"github.com/td2048/td2048/ntuple"
)

// An online update waits for the next move's fetch (Trace.flush): the
// weights learnt must be those of updating at each push, bit for bit, in
// every online mode, with TC, stages and shaping.
func TestDeferredUpdateIsExact(t *testing.T) {
	cases := []struct {
		name, spec string
		cfg        Config
		tc         bool
		episodes   int
	}{
		{"online", "0123,4567,0145,1256", Config{Mode: Mode{online: true}}, false, 300},
		{"4x6 online", "4x6", Config{Mode: Mode{online: true}}, false, 150},
		{"tc", "0123,4567,0145,1256", Config{Mode: Mode{online: true}}, true, 300},
		{"fast tc", "0123,4567,0145", Config{Mode: Mode{online: true, value: valueChoice}}, true, 300},
		{"online 3-step", "0123,4567,0145", Config{Mode: Mode{online: true, steps: 3}}, true, 300},
		{"lambda", "0123,4567,0145", Config{Mode: Mode{online: true, lambda: 0.5, steps: 4}}, false, 300},
		{"restart", "0123,4567,0145", Config{Mode: Mode{online: true}, Shaping: Shaping{restart: true, l: 10, at: 0.5}}, true, 200},
		{"stages", "0123,4567,0145@0,256", Config{Mode: Mode{online: true}, Promote: true, Shaping: Shaping{carousel: true, block: 2048, limit: 65536}}, false, 200},
		// a game rises while the move before waits to learn: the promotion
		// copies the tables after that update
		{"promotion in a game", "0123,4567,0145@0,256", Config{Mode: Mode{online: true}, Promote: true}, true, 50},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run := func(eager bool) []float32 {
				eagerUpdates = eager
				defer func() { eagerUpdates = false }()
				net := ntuple.MustNew(c.spec)
				if c.tc {
					net.EnableCoherence()
				}
				cfg := c.cfg
				cfg.Episodes, cfg.Seed, cfg.Threads, cfg.Interleave, cfg.Every = c.episodes, 5, 1, 1, 100
				cfg.Schedule = Constant(0.1)
				if c.tc {
					cfg.Schedule = Constant(1)
				}
				if _, _, err := Train(context.Background(), net, cfg); err != nil {
					t.Fatal(err)
				}
				return net.Weights()
			}
			a, b := run(false), run(true)
			changed := false
			for i := range a {
				if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
					t.Fatalf("weight %d: %v deferred, %v at the push", i, a[i], b[i])
				}
				changed = changed || a[i] != 0
			}
			if !changed {
				t.Fatal("nothing learnt")
			}
		})
	}
}
