package games

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/td2048/td2048/evaluate"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/stats"
)

// EvalConfig.Done sees every finished game in order, with the games so
// far (a Threes! game's line already in Stats); an evaluation continued
// from a game (First) and added to the one before it holds the whole
// evaluation's counts and statistics lines, as a shard that continues
// from its record needs.
func TestEvaluateDone(t *testing.T) {
	net := ntuple.MustNew("0123,4567")
	defer net.Free()
	for _, name := range Names() {
		for _, c := range []struct{ threads, interleave int }{{1, 1}, {2, 3}} {
			t.Run(fmt.Sprintf("%s threads %d interleave %d", name, c.threads, c.interleave), func(t *testing.T) {
				g := MustLookup(name)
				run := func(first, games int, lines *bytes.Buffer, done func(*Evaluation)) Evaluation {
					cfg := EvalConfig{Net: net, Search: search.Options{Depth: 1}, Config: evaluate.Config{Games: games, First: first, Seed: 3, Threads: c.threads, Done: done}}
					if g.Interleaves {
						cfg.Interleave = c.interleave
					}
					if g.StatsFile {
						cfg.Stats = lines
					}
					ev, err := g.Evaluate(context.Background(), cfg)
					if err != nil {
						t.Fatal(err)
					}
					return ev
				}
				var lines bytes.Buffer
				var seen []stats.Block
				whole := run(0, 30, &lines, func(ev *Evaluation) {
					seen = append(seen, ev.Block)
					if g.StatsFile && bytes.Count(lines.Bytes(), []byte("\n")) != ev.Block.Games {
						t.Errorf("Done of %d games with %d lines written", ev.Block.Games, bytes.Count(lines.Bytes(), []byte("\n")))
					}
					if g.StatsFile != (ev.Speed != nil) {
						t.Errorf("Done's speed %v", ev.Speed)
					}
				})
				if len(seen) != 30 || seen[29] != whole.Block {
					t.Fatalf("Done called %d times; last %+v, want %+v", len(seen), seen[len(seen)-1], whole.Block)
				}
				for i, b := range seen {
					if b.Games != i+1 {
						t.Fatalf("Done %d saw %d games", i, b.Games)
					}
				}
				var head, tail bytes.Buffer
				a, b := run(0, 12, &head, nil), run(12, 18, &tail, nil)
				a.Block.Merge(&b.Block)
				if a.Block != whole.Block {
					t.Errorf("games 0..11 and 12..29: %+v; want %+v", a.Block, whole.Block)
				}
				if g.StatsFile && sameActions(head.String()+tail.String()) != sameActions(lines.String()) {
					t.Error("the statistics lines of games 0..11 and 12..29 differ from those of 0..29")
				}
			})
		}
	}
}

// sameActions is a Threes! statistics text without its recorded times.
func sameActions(s string) string { return times.ReplaceAllString(s, "") }

var times = regexp.MustCompile(`\(\d+\)|@\d+`)

// TestEvaluatePlaysItsOwnGame: the policies of an EvalConfig's Config
// are the game's to make: one left there by the caller plays no game.
func TestEvaluatePlaysItsOwnGame(t *testing.T) {
	net := ntuple.MustNew("0123,4567")
	defer net.Free()
	ec := evaluate.Config{Games: 8, Seed: 2, Threads: 1,
		NewThreesPolicy: func() evaluate.ThreesPolicy { return evaluate.GreedyThreesPolicy(net) }}
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			g := MustLookup(name)
			want, err := g.Evaluate(context.Background(), EvalConfig{Net: net, Search: search.Options{Depth: 1}, Config: evaluate.Config{Games: 8, Seed: 2, Threads: 1}})
			if err != nil {
				t.Fatal(err)
			}
			got, err := g.Evaluate(context.Background(), EvalConfig{Net: net, Search: search.Options{Depth: 1}, Config: ec})
			if err != nil || got.Block != want.Block || (got.Speed == nil) != (want.Speed == nil) {
				t.Errorf("with a caller's policy: %+v %v, want %+v", got.Block, err, want.Block)
			}
		})
	}
}
