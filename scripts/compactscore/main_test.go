package main

import (
	"context"
	"strings"
	"testing"

	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
)

// TestPlayAndReport: the games are eval's (the same scores on any number
// of threads), the compact ones of a network of the same weights close
// to them, and the report says so.
func TestPlayAndReport(t *testing.T) {
	net := ntuple.MustNew("0123,4567")
	defer net.Free()
	learn.Train(context.Background(), net, learn.Config{Episodes: 200, Seed: 1, Threads: 1, Every: 200})
	a, b := play(net, 20, 1, 1, 3), play(net, 20, 1, 2, 3)
	for i := range a {
		if a[i] != b[i] || a[i] <= 0 {
			t.Fatalf("game %d: %v on one thread, %v on two", i, a[i], b[i])
		}
	}
	c, err := net.ToCompact()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Free()
	r := report("w", 1, 3, a, play(c, 20, 1, 1, 3))
	if !strings.Contains(r, "20 games from seed 3") || !strings.Contains(r, "paired difference") {
		t.Fatal(r)
	}
	if m, se := meanSE([]float64{1, 3}); m != 2 || se != 1 {
		t.Fatalf("meanSE(1, 3) = %v ± %v", m, se)
	}
}
