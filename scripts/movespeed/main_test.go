package main

import (
	"context"
	"testing"

	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
)

// TestSameValuesOnAnyThreads: the boards are mid-game ones, and the
// values' checksum is the same on one thread and on a team.
func TestSameValuesOnAnyThreads(t *testing.T) {
	net := ntuple.MustNew("0123,4567,048c,159d")
	defer net.Free()
	learn.Train(context.Background(), net, learn.Config{Episodes: 200, Seed: 1, Threads: 1, Every: 200})
	bs := boards(net, 12)
	if len(bs) != 12 {
		t.Fatalf("%d boards", len(bs))
	}
	for _, b := range bs {
		if b.Empty() > 12 {
			t.Fatalf("%s is no mid-game board", b.Hex())
		}
	}
	one := searchAll(net, bs, 3, 1, search.NewTable(1<<20))
	for _, threads := range []int{2, 5} {
		tt := search.NewTable(1 << 20)
		prefill(tt, 1<<20)
		if team := searchAll(net, bs, 3, threads, tt); team.sum != one.sum || team.nodes < one.nodes/2 {
			t.Fatalf("%d threads: values %08x, %d nodes; one thread %08x, %d", threads, team.sum, team.nodes, one.sum, one.nodes)
		}
	}
}
