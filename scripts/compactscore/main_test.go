package main

import (
	"context"
	"strings"
	"testing"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/scripts/internal/bench"
	"github.com/td2048/td2048/search"
)

// TestPlayAndReport: the games are eval's (the same scores on any number
// of threads), in 2048 and in Threes!, the compact ones of a network of
// the same weights close to them, and the report says so.
func TestPlayAndReport(t *testing.T) {
	for _, c := range []struct{ game, spec string }{{"2048", "0123,4567"}, {"threes", "0123,4567+hint"}} {
		t.Run(c.game, func(t *testing.T) {
			g, err := games.Lookup(c.game)
			if err != nil {
				t.Fatal(err)
			}
			net := ntuple.MustNew(c.spec)
			defer net.Free()
			if _, _, err := g.Train(context.Background(), net, learn.Config{Episodes: 200, Seed: 1, Threads: 1, Every: 200}); err != nil {
				t.Fatal(err)
			}
			scores := func(net *ntuple.Network, threads int) []float64 {
				s, err := play(g, net, search.Options{Depth: 1}, 20, threads, 3)
				if err != nil || len(s) != 20 {
					t.Fatalf("%d scores, %v", len(s), err)
				}
				return s
			}
			a, b := scores(net, 1), scores(net, 2)
			for i := range a {
				if a[i] != b[i] || a[i] <= 0 {
					t.Fatalf("game %d: %v on one thread, %v on two", i, a[i], b[i])
				}
			}
			cn, err := net.ToCompact()
			if err != nil {
				t.Fatal(err)
			}
			defer cn.Free()
			r := report("w", 1, 3, a, scores(cn, 1))
			if !strings.Contains(r, "20 games from seed 3") || !strings.Contains(r, "paired difference") {
				t.Fatal(r)
			}
		})
	}
	if m, se := bench.MeanSE([]float64{1, 3}); m != 2 || se != 1 {
		t.Fatalf("MeanSE(1, 3) = %v ± %v", m, se)
	}
}
