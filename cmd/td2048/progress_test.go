package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/stats"
)

// curve is a training run's moves per episode as the agent improves: the
// README's block averages of td2048 train --seed 1 (4x6), as moves.
func curve(n float64) float64 {
	xs := []float64{0, 1e3, 10e3, 20e3, 30e3, 50e3, 70e3, 100e3}
	ys := []float64{1.5e3, 7.6e3, 22.4e3, 31.3e3, 38.4e3, 49.8e3, 57.4e3, 67.1e3}
	for i := 1; i < len(xs); i++ {
		if n <= xs[i] {
			return (ys[i-1] + (ys[i]-ys[i-1])*(n-xs[i-1])/(xs[i]-xs[i-1])) / 15
		}
	}
	return ys[len(ys)-1] / 15
}

// simulate runs total episodes of moves(n) moves each at speed moves per
// second, taking a snapshot every 250ms, and calls at(s, true time left)
// at each.
func simulate(total int, moves func(float64) float64, speed float64, at func(s learn.Snapshot, left time.Duration)) {
	var ends []float64 // time each episode ends, in seconds
	t := 0.0
	for n := range total {
		t += moves(float64(n)) / speed
		ends = append(ends, t)
	}
	done, movesDone := 0, 0.0
	for tick := 0.25; tick < t; tick += 0.25 {
		for done < total && ends[done] <= tick {
			movesDone += moves(float64(done))
			done++
		}
		d := time.Duration(tick * float64(time.Second))
		s := learn.Snapshot{Done: done, Total: total, Played: done, Moves: int64(movesDone), Elapsed: d, Session: d}
		at(s, time.Duration((t-tick)*float64(time.Second)))
	}
}

// The time left follows the recent pace: on learning curves that
// flatten, within 20% of the truth from a tenth of the run on and within
// 10% from a fifth, where the average pace since the start (what the line
// showed before) says 33-72% too little; on curves that keep steepening it
// is still low, but never lower than the average pace.
func TestTimeLeftFollowsRecentPace(t *testing.T) {
	for _, c := range []struct {
		name   string
		moves  func(float64) float64
		within float64 // from a fifth of the run on; 0: only better than the average pace
	}{
		{"the README's learning curve", curve, 0.1},
		{"episodes lengthening as the square root", func(n float64) float64 { return 100 + 10*math.Sqrt(n) }, 0.1},
		{"episodes of one length", func(float64) float64 { return 2000 }, 0.01},
		{"episodes lengthening steadily", func(n float64) float64 { return 100 + n/50 }, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var e eta
			worstOld := 0.0
			simulate(100000, c.moves, 2e6, func(s learn.Snapshot, truth time.Duration) {
				e.add(s)
				got, ok := e.left(s, false)
				frac := float64(s.Done) / float64(s.Total)
				if frac < 0.1 || frac > 0.98 {
					return
				}
				if !ok {
					t.Fatalf("%s: no estimate at %d episodes", c.name, s.Done)
				}
				old := s.Session.Seconds() / float64(s.Played) * float64(s.Total-s.Done)
				worstOld = max(worstOld, 1-old/truth.Seconds())
				r := got.Seconds()/truth.Seconds() - 1
				bad := got.Seconds() < 0.98*old
				if c.within > 0 {
					bad = bad || math.Abs(r) > 2*c.within || frac >= 0.2 && math.Abs(r) > c.within
				}
				if bad {
					t.Errorf("%s: at %d episodes %v left (%+.0f%%), truly %v; the average pace says %v", c.name, s.Done,
						got.Round(time.Second), 100*r, truth.Round(time.Second), time.Duration(old*float64(time.Second)).Round(time.Second))
				}
			})
			if c.name == "the README's learning curve" && worstOld < 0.4 {
				t.Errorf("%s: the average pace was at worst %.0f%% low; the test no longer shows the fault", c.name, 100*worstOld)
			}
		})
	}
}

// An evaluation's games keep their length: the moves left are those of
// the games left, less what the games under way have played.
func TestTimeLeftOfEvaluation(t *testing.T) {
	var e eta
	// 100 games of 1000 moves at 10,000 moves/s: 10 s in all.
	s := learn.Snapshot{Total: 100, Moves: 500, Elapsed: time.Second, Session: time.Second}
	e.add(s)
	s.Moves, s.Elapsed, s.Session = 900, 2*time.Second, 2*time.Second
	e.add(s)
	if got, ok := e.left(s, true); ok {
		t.Fatalf("an estimate before any game finished: %v", got)
	}
	e = eta{}
	for tick := 1; tick < 40; tick++ {
		sec := float64(tick) / 4
		moves := int64(sec * 1e4)
		done := int(moves / 1000)
		d := time.Duration(sec * float64(time.Second))
		s = learn.Snapshot{Done: done, Total: 100, Played: done, Moves: moves, Elapsed: d, Session: d,
			Block: stats.Block{Games: done, Moves: int64(done) * 1000}}
		e.add(s)
		got, ok := e.left(s, true)
		if tick == 1 { // one sample: no pace yet
			if ok {
				t.Fatalf("an estimate from one snapshot: %v", got)
			}
			continue
		}
		if want := 10 - sec; !ok || math.Abs(got.Seconds()-want) > 0.01 {
			t.Fatalf("at %.2fs: %v left (%v), want %.2fs", sec, got, ok, want)
		}
	}
}

func TestProgressPlainLines(t *testing.T) {
	var buf bytes.Buffer
	p := &progress{w: &buf, goal: 11, tile: 2048, eval: true, name: "eval", unit: "games", moves: "moves"}
	for i := 1; i <= 100; i++ {
		d := time.Duration(i) * 100 * time.Millisecond
		p.tick(learn.Snapshot{Done: i * 10, Total: 1000, Played: i * 10, Moves: int64(i) * 10000, Elapsed: d, Session: d,
			Block: stats.Block{Games: i * 10, Sum: int64(i) * 1000, Moves: int64(i) * 10000}})
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 9 || strings.Contains(buf.String(), "\r") {
		t.Fatalf("%d plain lines for 1000 games:\n%s", len(lines), buf.String())
	}
	if want := "eval: 100/1000 games, 100.0k moves/s, avg 100, 2048 0.0%, 1s elapsed, 9s left"; lines[0] != want {
		t.Fatalf("got  %q\nwant %q", lines[0], want)
	}
	// Training's block line names its speed the block's, not the run's.
	buf.Reset()
	p = &progress{w: &buf, unit: "episodes", moves: "moves"}
	p.block(2000, 100000, 1500*time.Millisecond, 5.53e6)
	if want := "2000/100000 episodes, 2s elapsed, 5530000 moves/s in this block\n"; buf.String() != want {
		t.Fatalf("got  %q\nwant %q", buf.String(), want)
	}
	p.live = true
	if p.block(3000, 100000, 2*time.Second, 1); buf.Len() != len("2000/100000 episodes, 2s elapsed, 5530000 moves/s in this block\n") {
		t.Fatalf("a block line on a live terminal: %q", buf.String())
	}
	// /dev/null is no terminal: plain lines there too.
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if isTerminal(null) || isTerminal(&buf) {
		t.Fatal("/dev/null or a buffer taken for a terminal")
	}
}

// A live line narrows by leaving out its least telling parts, the count
// last; a single part still too wide is cut.
func TestProgressLineFitsWidth(t *testing.T) {
	parts := []part{{"12000/100000", rankCount}, {"2105 episodes/s", rankEpisodeSpeed}, {"4.3M moves/s", rankMoveSpeed},
		{"block avg 24000", rankMean}, {"2048 12.5%", rankRate}, {"1m5s left", rankLeft}}
	for _, c := range []struct {
		width int
		want  string
	}{
		{200, "12000/100000  2105 episodes/s  4.3M moves/s  block avg 24000  2048 12.5%  1m5s left"},
		{84, "12000/100000  2105 episodes/s  4.3M moves/s  block avg 24000  2048 12.5%  1m5s left"},
		{79, "12000/100000  4.3M moves/s  block avg 24000  2048 12.5%  1m5s left"},
		{60, "12000/100000  block avg 24000  2048 12.5%  1m5s left"},
		{50, "12000/100000  block avg 24000  1m5s left"},
		{40, "12000/100000  block avg 24000  1m5s left"},
		{30, "12000/100000  1m5s left"},
		{20, "12000/100000"},
		{5, "12000"},
		{0, "1"},
	} {
		t.Run(fmt.Sprint("width ", c.width), func(t *testing.T) {
			got := fit(parts, c.width)
			if got != c.want || len(got) > max(c.width, 1) {
				t.Errorf("width %d: %q, want %q", c.width, got, c.want)
			}
		})
	}
	// Redraws measure the width each time: a resize shows at once.
	var buf bytes.Buffer
	cols := 120
	p := &progress{w: &buf, live: true, width: func() int { return cols }, goal: 11, tile: 2048, unit: "episodes", moves: "moves"}
	s := learn.Snapshot{Done: 12000, Total: 100000, Played: 12000, Moves: 4e6, Elapsed: time.Second, Session: time.Second,
		Block: stats.Block{Games: 10, Sum: 240000}}
	p.tick(s)
	cols = 30
	p.tick(s)
	lines := strings.Split(buf.String(), "\r\033[K")
	if len(lines) != 3 || !strings.Contains(lines[1], "episodes/s") || len(lines[2]) > 29 || !strings.HasPrefix(lines[2], "12000/100000") {
		t.Errorf("redraws at 120 then 30 columns: %q", lines)
	}
}
