package learn_test

import (
	"context"
	"os"
	"time"

	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/stats"
)

// Train plays and learns whole episodes (after-state TD(0), backward
// updates, as the course defines it) and reports a statistics block every
// Every episodes. With one thread a run is repeated exactly by its seed.
func ExampleTrain() {
	net := ntuple.MustNew("8x4")
	defer net.Free()
	cfg := learn.Config{
		Episodes: 2000, Seed: 1, Threads: 1, Every: 1000,
		Schedule: learn.Constant(0.1),
		Block: func(done int, b *stats.Block, _ time.Duration, _ float32) {
			b.Write(os.Stdout, done, stats.Pow2)
		},
	}
	if _, _, err := learn.Train(context.Background(), net, cfg); err != nil {
		panic(err)
	}
	// Output:
	// 1000	avg = 6183	max = 17868
	// 	64	100%	(0.8%)
	// 	128	99.2%	(7%)
	// 	256	92.2%	(31%)
	// 	512	61.2%	(51%)
	// 	1024	10.2%	(10.2%)
	// 2000	avg = 8996.29	max = 26460
	// 	64	100%	(0.1%)
	// 	128	99.9%	(0.9%)
	// 	256	99%	(12.9%)
	// 	512	86.1%	(55.7%)
	// 	1024	30.4%	(29.7%)
	// 	2048	0.7%	(0.7%)
}
