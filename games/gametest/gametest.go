// Package gametest checks that a game registered in package games keeps
// the contract every face and method relies on, as OpenSpiel's basic
// tests do for its games: a game added to the registry gets its checks by
// registering (games' TestConformance runs Run on every registered game).
package gametest

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/evaluate"
	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/session"
	"github.com/td2048/td2048/stats"
)

// Run checks game g: random games played move by move (legality, rewards
// and scores, replay), the descriptor's capability flags against what
// the game does, and one short training block and evaluation with each
// of its learners.
func Run(t *testing.T, g *games.Game) {
	t.Run("play", func(t *testing.T) {
		for seed := range uint64(20) {
			playRandom(t, g, seed)
		}
	})
	t.Run("flags", func(t *testing.T) { flags(t, g) })
	for _, k := range g.Learners {
		t.Run("train and evaluate "+k.String(), func(t *testing.T) { trainEvaluate(t, g, k) })
	}
}

// playRandom plays the game of seed seed with random legal moves to its
// end, checking each move against the rules' values (RuleValues), the
// score against the rewards (or, where the board alone sets the score,
// against the board), and the game against its replay from the seed.
func playRandom(t *testing.T, g *games.Game, seed uint64) {
	t.Helper()
	s, err := session.New(g.Name, seed)
	if err != nil {
		t.Fatalf("session.New(%q): %v", g.Name, err)
	}
	rng := session.Stream(seed, 1<<20)
	rewards := 0
	for n := 0; !s.Over(); n++ {
		if n > 100000 {
			t.Fatalf("seed %d: no end after %d moves", seed, n)
		}
		before, legal, rule := s.Board(), s.Moves(), g.RuleValues(s.Board())
		var dirs []int
		for d := range 4 {
			if legal[d] != rule[d].Legal {
				t.Fatalf("seed %d move %d: %s legal %v in the session, %v by the rules", seed, n, board.DirNames[d], legal[d], rule[d].Legal)
			}
			if legal[d] {
				dirs = append(dirs, d)
			} else if r := s.Apply(d); r.Legal || s.Board() != before {
				t.Fatalf("seed %d move %d: an illegal %s was played", seed, n, board.DirNames[d])
			}
		}
		if len(dirs) == 0 {
			t.Fatalf("seed %d move %d: no legal move in a game not over", seed, n)
		}
		d := dirs[rng.Uint64()%uint64(len(dirs))]
		score := s.Score()
		r := s.Apply(d)
		if !r.Legal || r.After != rule[d].After || uint32(r.Reward) != rule[d].Reward&^(1<<24) && !r.Overflow {
			t.Fatalf("seed %d move %d: %s played as %+v, the rules say %+v", seed, n, board.DirNames[d], r, rule[d])
		}
		if r.Score < score || r.Score != s.Score() {
			t.Fatalf("seed %d move %d: score %d after %d", seed, n, r.Score, score)
		}
		rewards += r.Reward
	}
	p := s.Position()
	fromBoard := p
	fromBoard.Score = 0
	if err := session.Check(g.Name, &fromBoard); err != nil {
		t.Fatalf("seed %d: the last position: %v", seed, err)
	}
	if fromBoard.Score == 0 && s.Score() != rewards || fromBoard.Score != 0 && fromBoard.Score != s.Score() {
		t.Errorf("seed %d: score %d, rewards %d, the board's score %d", seed, s.Score(), rewards, fromBoard.Score)
	}
	re, err := session.Replay(g.Name, seed, s.History())
	if err != nil || re.Position() != p || !re.Over() {
		t.Errorf("seed %d: the replay of %d moves ends at %+v (%v), the game at %+v", seed, s.Len(), re.Position(), err, p)
	}
}

// flags checks the descriptor's capability flags against what the game
// does.
func flags(t *testing.T, g *games.Game) {
	s, _ := session.New(g.Name, 1)
	if next := s.Next() != 0; next != g.HasNext {
		t.Errorf("HasNext %v, but a new game's next tile is %d", g.HasNext, s.Next())
	}
	if g.Downgrades != (g.Code == board.Pow2) {
		t.Errorf("Downgrades %v for tiles of code %v: downgrading lowers powers of two", g.Downgrades, g.Code)
	}
	net := smallNet(t, g)
	defer net.Free()
	kind := g.Learners[0]
	var lines bytes.Buffer
	ev := evaluation(t, g, net, kind, evaluate.Config{Games: 3, Seed: 2, Threads: 1, Stats: &lines})
	if got := bytes.Count(lines.Bytes(), []byte("\n")); g.StatsFile != (got == 3) || !g.StatsFile && got != 0 {
		t.Errorf("StatsFile %v, but 3 games wrote %d statistics lines", g.StatsFile, got)
	}
	if g.Interleaves {
		if in := evaluation(t, g, net, kind, evaluate.Config{Games: 3, Seed: 2, Threads: 1, Interleave: 2}); in.Block != ev.Block {
			t.Errorf("Interleaves, but greedy games in turn played other games")
		}
	}
	_, _, err := g.Train(context.Background(), net, learn.Config{Episodes: 2, Every: 2, Seed: 1, Threads: 1, Kind: kind, Interleave: 2})
	if g.Interleaves == (err != nil) {
		t.Errorf("Interleaves %v, but training two episodes in turn: %v", g.Interleaves, err)
	}
}

// trainEvaluate trains a small network one short block with learner k,
// then evaluates it: the same games whatever the threads.
func trainEvaluate(t *testing.T, g *games.Game, k learn.Kind) {
	net := smallNet(t, g)
	defer net.Free()
	var blocks []stats.Block
	st, _, err := g.Train(context.Background(), net, learn.Config{Episodes: 20, Every: 20, Seed: 1, Threads: 1, Kind: k,
		Block: func(_ int, b *stats.Block, _ time.Duration, _ float32) { blocks = append(blocks, *b) }})
	if err != nil || st.Done != 20 || len(blocks) != 1 || blocks[0].Games != 20 {
		t.Fatalf("20 episodes in a block of 20: done %d, blocks %v: %v", st.Done, blocks, err)
	}
	one := evaluation(t, g, net, k, evaluate.Config{Games: 6, Seed: 3, Threads: 1})
	two := evaluation(t, g, net, k, evaluate.Config{Games: 6, Seed: 3, Threads: 2})
	if one.Block.Games != 6 || one.Block != two.Block || one.Moves != two.Moves {
		t.Errorf("6 games on one thread %+v, on two %+v", one.Block, two.Block)
	}
}

// evaluation evaluates net, learner k, greedily as c says.
func evaluation(t *testing.T, g *games.Game, net *ntuple.Network, k learn.Kind, c evaluate.Config) games.Evaluation {
	t.Helper()
	ev, err := g.Evaluate(context.Background(), games.EvalConfig{Net: net, Search: search.Options{Depth: 1, Kind: k}, Config: c})
	if err != nil {
		t.Fatalf("evaluate: %v", err)
	}
	return ev
}

// smallNet is a small network the game accepts.
func smallNet(t *testing.T, g *games.Game) *ntuple.Network {
	t.Helper()
	for _, spec := range []string{"0123,4567", "0123,4567+hint"} {
		if s, err := ntuple.ParseSpec(spec); err == nil && g.CheckSpec(s) == nil {
			return ntuple.MustNew(spec)
		}
	}
	t.Fatalf("%s accepts none of the small networks", g.Title)
	return nil
}
