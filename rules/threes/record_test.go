package threes

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomRecord plays one game with a random slider and the random placer
// and records it, with made-up times on some actions.
func randomRecord(rng *rand.Rand) Record {
	r := Record{Slider: "slide", Placer: "place", Open: 1700000000000 + rng.Int64N(1000)}
	g := New()
	for !g.Over() {
		var s Step
		if g.SlideTurn() {
			after, _ := Moves(g.Board)
			var legal []int
			for d := range 4 {
				if after[d] != g.Board {
					legal = append(legal, d)
				}
			}
			d := legal[rng.IntN(len(legal))]
			s.Reward, _ = g.Slide(d)
			s.Action = SlideAction(d)
		} else {
			pos, tile, hint := g.PlaceRandom(rng)
			s.Action, s.Reward = PlaceAction(pos, tile, hint), Score(tile)
		}
		if rng.IntN(10) == 0 {
			s.Time = 1 + rng.Int64N(20)
		}
		r.Steps = append(r.Steps, s)
	}
	r.Winner, r.Close = r.Placer, r.Open+rng.Int64N(50)
	return r
}

func TestRecordRoundTripAndReplay(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for range 200 {
		r := randomRecord(rng)
		line := r.String()
		p, err := ParseRecord(line)
		if err != nil {
			t.Fatalf("%v\n%s", err, line)
		}
		if p.String() != line || len(p.Steps) != len(r.Steps) {
			t.Fatalf("round trip changed the line:\n%s\n%s", line, p.String())
		}
		rp, err := p.Replay()
		if err != nil {
			t.Fatalf("replay: %v\n%s", err, line)
		}
		sum := 0
		for _, s := range r.Steps {
			sum += s.Reward
		}
		if rp.Score != sum || rp.Placements != rp.Slides+OpeningTiles || rp.Slides+rp.Placements != len(r.Steps) {
			t.Fatalf("replay %+v, rewards sum %d, %d steps", rp, sum, len(r.Steps))
		}
	}
}

func TestRecordText(t *testing.T) {
	r := Record{Slider: "slider", Placer: "placer", Open: 1700000000000, Winner: "placer", Close: 1700000000005,
		Steps: []Step{{PlaceAction(12, 2, 3), 0, 0}, {PlaceAction(10, 3, 1), 3, 0}, {SlideAction(Up), 3, 0},
			{PlaceAction(15, 14, 35), 0, 0}, {SlideAction(Left), 6, 12}}}
	want := "slider:placer@1700000000000|C23A31[3]#U[3]FEZ#L[6](12)|placer@1700000000005"
	if got := r.String(); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	p, err := ParseRecord(want)
	if err != nil || p.String() != want || p.Steps[3].Action.Tile() != 14 || p.Steps[3].Action.Hint() != 35 {
		t.Fatalf("%v %+v", err, p)
	}
}

func TestParseRecordRejects(t *testing.T) {
	for _, c := range []struct{ line, msg string }{
		{"a:b@1|C23|b", "want WINNER@ms"},
		{"a:b@1|C23", "two '|'"},
		{"ab@1|C23|b@2", "SLIDER:PLACER"},
		{"a:b@01|C23|b@2", "opening time"},
		{"a:b@1|C23[0]|b@2", "action 1 (column 10): reward"},
		{"a:b@1|C23[3|b@2", "no closing ]"},
		{"a:b@1|C23(0)|b@2", "time"},
		{"a:b@1|C23#X|b@2", "action 2 (column 10): slide"},
		{"a:b@1|C23#|b@2", "action 2"},
		{"a:b@1|G23|b@2", "placement"},
		{"a:b@1|C2|b@2", "three characters"},
		{"a:b@1|C2a|b@2", "placement"},
		{"a:b@1|C23|b@-2", "closing time"},
		{"a:b@1|C23[-3]|b@2", "reward"},
		{"a:b@1|C23|b@2|", "WINNER@ms"},
	} {
		t.Run(c.msg, func(t *testing.T) {
			_, err := ParseRecord(c.line)
			var se *syntaxError
			if err == nil || !errors.As(err, &se) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("ParseRecord(%q) = %v, want an error with %q", c.line, err, c.msg)
			}
		})
	}
}

// corrupt applies f to a copy of r's steps and replays the result.
func corrupt(r Record, f func(s []Step) []Step) error {
	c := r
	c.Steps = f(append([]Step(nil), r.Steps...))
	_, err := c.Replay()
	return err
}

func TestReplayRejectsCorruptedGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	r := randomRecord(rng)
	if _, err := r.Replay(); err != nil {
		t.Fatal(err)
	}
	// Find a slide late enough and the placement after it.
	k := OpeningTiles + 2*20 // the 21st slide
	if len(r.Steps) < k+2 || !r.Steps[k].Action.IsSlide() {
		t.Fatalf("game too short: %d steps", len(r.Steps))
	}
	d := r.Steps[k].Action.Dir()
	pl := r.Steps[k+1].Action
	// A cell of the board that is off the allowed edge and empty, if any,
	// or on the edge but occupied.
	before := New()
	for _, s := range r.Steps[:k+1] {
		if s.Action.IsSlide() {
			before.Slide(s.Action.Dir())
		} else {
			before.Place(s.Action.Pos(), s.Action.Tile(), s.Action.Hint())
		}
	}
	offEdge := -1
	for c := range 16 {
		if before.Board.At(c) == 0 && Edge(d)>>(4*c)&1 == 0 {
			offEdge = c
		}
	}
	notInBag := 0
	for h := 1; h <= 3; h++ {
		if !before.Bag.Has(h) {
			notInBag = h
		}
	}
	type tc struct {
		name  string
		f     func(s []Step) []Step
		index int // want action index (from 0)
		msg   string
	}
	// A slide that changes nothing right after the opening, or else a
	// second slide in a row.
	opening := New()
	for _, x := range r.Steps[:OpeningTiles] {
		opening.Place(x.Action.Pos(), x.Action.Tile(), x.Action.Hint())
	}
	stuck, stuckAt, stuckMsg := -1, OpeningTiles+1, "a placement is due"
	for e := range 4 {
		if _, _, ok := Move(opening.Board, e); !ok {
			stuck, stuckAt, stuckMsg = e, OpeningTiles, "changes nothing"
		}
	}
	cases := []tc{
		{"illegal slide", func(s []Step) []Step {
			if stuck >= 0 {
				s[OpeningTiles].Action = SlideAction(stuck)
			} else {
				s[OpeningTiles+1] = s[OpeningTiles]
			}
			return s
		}, stuckAt, stuckMsg},
		{"wrong tile", func(s []Step) []Step {
			s[k+1].Action = PlaceAction(pl.Pos(), pl.Tile()%3+1, pl.Hint())
			return s
		}, k + 1, "next tile was"},
		{"reward changed", func(s []Step) []Step { s[k].Reward += 3; return s }, k, "recorded reward"},
		{"placement dropped", func(s []Step) []Step { return append(s[:k+1], s[k+2:]...) }, k + 1, "a placement is due"},
		{"game cut short", func(s []Step) []Step { return s[:k+2] }, k + 2, fmt.Sprintf("stops after action %d while sliding", k+2)},
		{"tile 15", func(s []Step) []Step {
			s[k+1].Action = PlaceAction(pl.Pos(), 15, pl.Hint())
			return s
		}, k + 1, "cannot be placed"},
	}
	if offEdge >= 0 {
		cases = append(cases, tc{"off the edge", func(s []Step) []Step {
			s[k+1].Action = PlaceAction(offEdge, pl.Tile(), pl.Hint())
			return s
		}, k + 1, "not on the edge"})
	}
	if notInBag != 0 {
		cases = append(cases, tc{"hint not in bag", func(s []Step) []Step {
			s[k+1].Action = PlaceAction(pl.Pos(), pl.Tile(), notInBag)
			return s
		}, k + 1, "not in the bag"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := corrupt(r, c.f)
			var ie *IllegalError
			if !errors.As(err, &ie) {
				t.Errorf("%s: %v, want an IllegalError", c.name, err)
				return
			}
			if c.index >= 0 && ie.Action != c.index || !strings.Contains(ie.Error(), c.msg) {
				t.Errorf("%s: %v (index %d), want index %d and %q", c.name, err, ie.Action, c.index, c.msg)
			}
			if ie.text != "" && !strings.HasPrefix(ie.Error(), fmt.Sprintf("action %d (", c.index+1)) {
				t.Errorf("%s: message %q does not name action %d", c.name, ie.Error(), c.index+1)
			}
		})
	}
	w := r
	w.Winner = r.Slider
	if _, err := w.Replay(); err == nil || !strings.Contains(err.Error(), "winner") {
		t.Errorf("wrong winner: %v", err)
	}
	w = r
	w.Close = r.Open - 1
	if _, err := w.Replay(); err == nil || !strings.Contains(err.Error(), "before it opened") {
		t.Errorf("close before open: %v", err)
	}
}

func FuzzParseRecord(f *testing.F) {
	rng := rand.New(rand.NewPCG(12, 13))
	for range 3 {
		r := randomRecord(rng)
		f.Add(r.String())
	}
	f.Add("slider:placer@1700000000000|C23A31[3]#U[3]C23#L[6](12)|placer@1700000000005")
	f.Add("a:b@0||b@0")
	f.Add("a:b@1|#U#R#D#L|a@1")
	f.Fuzz(func(t *testing.T, line string) {
		r, err := ParseRecord(line)
		if err != nil {
			var se *syntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error of type %T", err)
			}
			return
		}
		if got := r.String(); got != line {
			t.Fatalf("accepted %q but writes it as %q", line, got)
		}
		rp, err := r.Replay() // must not panic
		if err == nil && rp.Score != BoardScore(rp.final.Board) {
			t.Fatalf("score %d, board %d", rp.Score, BoardScore(rp.final.Board))
		}
	})
}

// TestReplayStopsAtTheFault: a replay that fails is the game as its legal
// actions left it, the faulty action not counted, whatever the fault.
func TestReplayStopsAtTheFault(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 15))
	r := randomRecord(rng)
	for _, k := range []int{3, OpeningTiles, OpeningTiles + 7, OpeningTiles + 8, len(r.Steps) - 1} {
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			c := r
			c.Steps = append([]Step(nil), r.Steps...)
			c.Steps[k].Reward++ // the action is legal, its recorded reward is not
			rp, err := c.Replay()
			var ie *IllegalError
			if !errors.As(err, &ie) || ie.Action != k {
				t.Fatalf("%v, want the fault at action %d", err, k)
			}
			g := New()
			var want GameStats
			for _, s := range r.Steps[:k] {
				if s.Action.IsSlide() {
					g.Slide(s.Action.Dir())
					want.Slides++
					want.SlideTime += s.Time
				} else {
					g.Place(s.Action.Pos(), s.Action.Tile(), s.Action.Hint())
					want.Placements++
					want.PlaceTime += s.Time
				}
			}
			want.Score, want.MaxTile, want.Time = BoardScore(g.Board), g.Board.MaxTile(), r.Close-r.Open
			if rp.GameStats != want || rp.final != g {
				t.Errorf("replay %+v, want the first %d actions' %+v", rp.GameStats, k, want)
			}
		})
	}
	c := r
	c.Close = r.Open - 1
	if rp, _ := c.Replay(); rp.Time != 0 || rp.Slides+rp.Placements != len(r.Steps) {
		t.Errorf("a game that closes before it opened: %+v, want time 0 and every action", rp.GameStats)
	}
}
