package learn

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sync/atomic"
	"testing"

	"time"

	"github.com/td2048/td2048/episode"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/stats"
)

// TestInterleavedResumeIsExact: an interleaved run stopped at a checkpoint
// and resumed ends with the weights of the same run unbroken (which also
// pauses its lanes at that checkpoint), bit for bit.
func TestInterleavedResumeIsExact(t *testing.T) {
	for _, mode := range []Mode{{}, {online: true}} {
		cfg := func() Config {
			return Config{Episodes: 300, Seed: 5, Threads: 1, Interleave: 3, Every: 25, Mode: mode, CheckpointEvery: 137,
				Checkpoint: func(RunState) error { return nil }}
		}
		full := ntuple.MustNew("0123,4567")
		if _, _, err := Train(context.Background(), full, cfg()); err != nil {
			t.Fatal(err)
		}
		part := ntuple.MustNew("0123,4567")
		ctx, cancel := context.WithCancel(context.Background())
		c := cfg()
		c.Checkpoint = func(RunState) error { cancel(); return nil }
		st, _, err := Train(ctx, part, c)
		if err != nil || st.Done != 137 || len(st.Rands) != 3 {
			t.Fatalf("stopped at %d, %d generators: %v", st.Done, len(st.Rands), err)
		}
		js, _ := json.Marshal(st)
		var back RunState
		json.Unmarshal(js, &back)
		c = cfg()
		c.Resume = &back
		if st, _, err = Train(context.Background(), part, c); err != nil || st.Done != 300 {
			t.Fatalf("resumed run ended at %d: %v", st.Done, err)
		}
		a, b := full.Weights(), part.Weights()
		for i := range a {
			if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
				t.Fatalf("%v: weight %d: %v unbroken, %v resumed", mode, i, a[i], b[i])
			}
		}
		c.Interleave = 2
		if _, _, err := Train(context.Background(), part, c); err == nil {
			t.Error("a run of 3 lanes resumed with 2")
		}
	}
}

// TestInterleavedLearnsTheSame: episodes played 4 at a time learn as well
// as one at a time, within loose bounds: the interleaved games share the
// network as threads do, and each learns from its own trace.
func TestInterleavedLearnsTheSame(t *testing.T) {
	if testing.Short() {
		t.Skip("trains three runs of 3,000 episodes; not in -short")
	}
	avg := func(k int) (last float64, games int) {
		net := ntuple.MustNew("0123,4567,0145,1256")
		_, _, err := Train(context.Background(), net, Config{Episodes: 3000, Seed: 2, Threads: 1, Interleave: k, Every: 1000,
			Mode:  Mode{online: true},
			Block: func(_ int, b *stats.Block, _ time.Duration, _ float32) { last, games = b.Avg(), games+b.Games }})
		if err != nil {
			t.Fatal(err)
		}
		return last, games
	}
	one, n1 := avg(1)
	four, n4 := avg(4)
	if n1 != 3000 || n4 != 3000 {
		t.Fatalf("games %d and %d, want 3000", n1, n4)
	}
	if one < 1500 || four < 0.8*one || four > 1.25*one {
		t.Fatalf("last block average: %.0f interleaved, %.0f one at a time", four, one)
	}
	t.Logf("last block average: %.0f interleaved by 4, %.0f one at a time", four, one)
}

// TestThreesRefusesInterleave: Threes! plays one episode at a time, and
// says so rather than ignoring the setting.
func TestThreesRefusesInterleave(t *testing.T) {
	net := ntuple.MustNew("0123,4567+hint")
	if _, _, err := TrainThrees(context.Background(), net, Config{Episodes: 10, Threads: 1, Interleave: 2}); err == nil {
		t.Fatal("Threes! training took --interleave 2")
	}
	if _, _, err := TrainThrees(context.Background(), net, Config{Episodes: 10, Threads: 1, Interleave: 1}); err != nil {
		t.Fatal(err)
	}
}

// fakeLane is a stepper whose games last a fixed number of moves.
type fakeLane struct {
	left, moves int
	live        *int
}

func (f *fakeLane) begin(float32) { f.left, f.moves = 7, 0; *f.live++ }
func (f *fakeLane) fetch()        {}
func (f *fakeLane) advance() bool { f.left--; f.moves++; return f.left > 0 }
func (f *fakeLane) finish() Episode {
	*f.live--
	return Episode{Outcome: episode.Outcome{Moves: f.moves}}
}

// TestLaneControl: under a control, a worker plays at once only as many
// games as the control wants, once the games above it end, and at once
// as many again when it rises; every episode is played once, and every
// move is counted.
func TestLaneControl(t *testing.T) {
	live := 0
	lanes := make([]stepper, 3)
	for j := range lanes {
		lanes[j] = &fakeLane{live: &live}
	}
	ctl := &laneControl{}
	ctl.set(laneChoice{threads: 1, lanes: 3})
	const episodes = 3000
	next, played, moves := 0, make([]int, episodes), 0
	most := map[string]int{} // the most games live at a finish, by phase
	phase := func(i int) string {
		switch {
		case i >= 1010 && i < 1990:
			return "1" // want 1, once the games above it ended
		case i >= 2010:
			return "3 again"
		}
		return ""
	}
	take := func(bool) (int, float32, bool) {
		if next == episodes {
			return 0, 0, false
		}
		switch next {
		case 1000:
			ctl.want.Store(1)
		case 2000:
			ctl.want.Store(3)
		}
		i := next
		next++
		return i, 0.1, true
	}
	finish := func(i int, ep Episode, _ float32) {
		played[i]++
		moves += ep.Moves
		p := phase(i)
		most[p] = max(most[p], live+1) // live no longer counts this one
	}
	interleave(lanes, take, finish, ctl, 0)
	for i, n := range played {
		if n != 1 {
			t.Fatalf("episode %d played %d times", i, n)
		}
	}
	if moves != episodes*7 || ctl.moves.Load() != int64(moves) {
		t.Errorf("counted %d moves, played %d, want %d", ctl.moves.Load(), moves, episodes*7)
	}
	if live != 0 || most[""] != 3 || most["1"] != 1 || most["3 again"] != 3 {
		t.Errorf("%d games left live; at most %v at once", live, most)
	}
}

func TestPickLanes(t *testing.T) {
	for _, c := range []struct {
		now, then float64
		hold      time.Duration
		cur       int
		next      time.Duration
	}{
		{100, 104, 4 * time.Second, 1, laneTimes.hold},     // the other is 4% faster: take it
		{100, 102, 4 * time.Second, 2, 8 * time.Second},    // 2%: keep, hold longer
		{100, 50, laneTimes.maxHold, 2, laneTimes.maxHold}, // slower: keep, at most the longest hold
		{0, 0, laneTimes.hold, 2, 2 * laneTimes.hold},      // nothing measured: keep
	} {
		t.Run(fmt.Sprintf("%v after %v on %d", c.now, c.then, c.cur), func(t *testing.T) {
			cur, hold := pickLanes(2, 1, c.now, c.then, c.hold, laneTimes)
			if cur != c.cur || hold != c.next {
				t.Errorf("now %v then %v: %d lanes for %v, want %d for %v", c.now, c.then, cur, hold, c.cur, c.next)
			}
		})
	}
}

// TestLaneControlFollowsSpeed: the control settles on the choice that
// makes more moves, and moves to another when that one becomes the faster.
func TestLaneControlFollowsSpeed(t *testing.T) {
	ctl := &laneControl{}
	done := make(chan struct{})
	defer close(done)
	choices := laneChoices(2, 4)
	if !slices.Equal(choices, []laneChoice{{2, 4}, {2, 1}, {1, 4}}) ||
		!slices.Equal(laneChoices(16, 1), []laneChoice{{16, 1}, {8, 1}}) || len(laneChoices(1, 1)) != 1 {
		t.Fatalf("choices %v, %v, %v", choices, laneChoices(16, 1), laneChoices(1, 1))
	}
	for _, c := range []struct {
		threads, lanes int
		want           string
	}{{2, 2, "threads (2 or 1) and episodes in turn (2 or 1)"}, {16, 1, "threads (16 or 8)"}, {3, 4, "threads (3 or 1) and episodes in turn (4 or 1)"}, {1, 2, ""}} {
		t.Run(fmt.Sprintf("%d threads %d lanes", c.threads, c.lanes), func(t *testing.T) {
			if got := AdaptChoices(c.threads, c.lanes); got != c.want {
				t.Errorf("AdaptChoices(%d, %d) = %q, want %q", c.threads, c.lanes, got, c.want)
			}
		})
	}
	var fast atomic.Int32 // the faster choice
	fast.Store(1)
	is := func(c laneChoice) bool {
		return ctl.lanes(0) == c.lanes && ctl.lanes(1) == map[bool]int{true: c.lanes}[c.threads == 2]
	}
	go func() { // workers whose moves per millisecond depend on the choice
		for {
			select {
			case <-done:
				return
			default:
			}
			n := int64(100)
			if is(choices[fast.Load()]) {
				n = 200
			}
			ctl.moves.Add(n)
			time.Sleep(time.Millisecond)
		}
	}()
	tm := laneTiming{window: 30 * time.Millisecond, settle: 5 * time.Millisecond, hold: 10 * time.Millisecond, maxHold: 40 * time.Millisecond}
	go ctl.run(done, choices, tm)
	settles := func(want laneChoice) {
		t.Helper()
		for range 300 { // 3 s at most
			time.Sleep(10 * time.Millisecond)
			if is(want) {
				time.Sleep(40 * time.Millisecond) // a probe's length: it may try another
				if is(want) {
					return
				}
			}
		}
		t.Fatalf("the control plays lanes %d and %d, not the faster %v", ctl.lanes(0), ctl.lanes(1), want)
	}
	settles(choices[1])
	fast.Store(2)
	settles(choices[2])
	fast.Store(0)
	settles(choices[0])
}

// TestParkedWorkerEnds: a worker parked by its control returns when the
// run is over, and takes episodes again when the control wants it.
func TestParkedWorkerEnds(t *testing.T) {
	var over atomic.Bool
	ctl := &laneControl{over: over.Load}
	ctl.set(laneChoice{threads: 1, lanes: 2})
	live := 0
	lanes := []stepper{&fakeLane{live: &live}, &fakeLane{live: &live}}
	var next, played atomic.Int32
	take := func(bool) (int, float32, bool) {
		if next.Load() >= 10 {
			return 0, 0, false
		}
		return int(next.Add(1) - 1), 0.1, true
	}
	finish := func(int, Episode, float32) { played.Add(1) }
	ended := make(chan struct{})
	go func() { interleave(lanes, take, finish, ctl, 1); close(ended) }()
	time.Sleep(20 * time.Millisecond)
	if played.Load() != 0 {
		t.Fatalf("a parked worker played %d episodes", played.Load())
	}
	ctl.set(laneChoice{threads: 2, lanes: 2})
	<-ended // it plays the 10 and returns
	if played.Load() != 10 {
		t.Fatalf("played %d of 10", played.Load())
	}
	ctl.set(laneChoice{threads: 1, lanes: 2})
	next.Store(0)
	again := make(chan struct{})
	go func() { interleave(lanes, take, finish, ctl, 1); close(again) }()
	time.Sleep(5 * time.Millisecond)
	over.Store(true)
	select {
	case <-again:
	case <-time.After(5 * time.Second):
		t.Fatal("a parked worker did not return when the run ended")
	}
	if played.Load() != 10 {
		t.Fatalf("a parked worker played %d episodes", played.Load()-10)
	}
}

// TestAdaptInterleave: a run of two threads that adapts its lanes plays
// every episode once and pauses at its checkpoints with every lane's
// generator; one thread does not adapt, so its run is the run without.
func TestAdaptInterleave(t *testing.T) {
	defer func(tm laneTiming) { laneTimes = tm }(laneTimes)
	// A control that probes every millisecond parks and wakes the workers
	// throughout the run, at its checkpoints and its end too.
	laneTimes = laneTiming{window: time.Millisecond, settle: time.Millisecond, hold: time.Millisecond, maxHold: time.Millisecond}
	net := ntuple.MustNew("0123,4567")
	games, at := 0, []int{}
	st, _, err := Train(context.Background(), net, Config{Episodes: 6000, Seed: 1, Threads: 2, Interleave: 3, AdaptInterleave: true, Every: 50,
		Block:           func(_ int, b *stats.Block, _ time.Duration, _ float32) { games += b.Games },
		CheckpointEvery: 1000, Checkpoint: func(s RunState) error {
			at = append(at, s.Done)
			if len(s.Rands) != 6 {
				t.Errorf("checkpoint with %d generators", len(s.Rands))
			}
			return nil
		}})
	if err != nil || st.Done != 6000 || games != 6000 || len(at) != 5 {
		t.Fatalf("done %d, %d games in blocks, checkpoints at %v: %v", st.Done, games, at, err)
	}
	one := func(adapt bool) []float32 {
		net := ntuple.MustNew("0123,4567")
		if _, _, err := Train(context.Background(), net, Config{Episodes: 300, Seed: 4, Threads: 1, Interleave: 2, AdaptInterleave: adapt, Every: 100}); err != nil {
			t.Fatal(err)
		}
		return net.Weights()
	}
	if !slices.Equal(one(true), one(false)) {
		t.Error("one thread learnt differently with AdaptInterleave")
	}
}

// TestChoiceTimes: the control accounts each choice's time from the set
// that made it to the next, and the run's summary names the shares.
func TestChoiceTimes(t *testing.T) {
	ctl := &laneControl{}
	if ctl.times() != nil {
		t.Fatalf("times before any choice: %v", ctl.times())
	}
	start := time.Now()
	ctl.set(laneChoice{2, 1})
	time.Sleep(100 * time.Millisecond)
	ctl.set(laneChoice{1, 1})
	time.Sleep(5 * time.Millisecond)
	ctl.set(laneChoice{2, 1})
	ts := ctl.times()
	wall := time.Since(start)
	if len(ts) != 2 || ts[0].Threads != 2 || ts[1].Threads != 1 || ts[0].Lanes != 1 || ts[1].Lanes != 1 ||
		ts[0].Time < 100*time.Millisecond || ts[1].Time < 5*time.Millisecond || ts[0].Time+ts[1].Time > wall {
		t.Fatalf("times %v in %v", ts, wall)
	}
	time.Sleep(10 * time.Millisecond)
	if again := ctl.times(); again[0].Time-ts[0].Time < 10*time.Millisecond {
		t.Errorf("the current choice's time does not run: %v then %v", ts, again)
	}
	for _, c := range []struct {
		ts   []ChoiceTime
		want string
	}{
		{nil, ""},
		{[]ChoiceTime{{2, 1, 0}}, ""},
		{[]ChoiceTime{{2, 1, 96 * time.Second}, {1, 1, 4 * time.Second}}, "2 threads 96%, 1 thread 4%"},
		{[]ChoiceTime{{2, 2, 3 * time.Second}, {2, 1, time.Second}}, "2 threads x 2 games 75%, 2 threads x 1 game 25%"},
		{[]ChoiceTime{{16, 1, 2 * time.Second}, {8, 1, time.Second}}, "16 threads 67%, 8 threads 33%"},
	} {
		t.Run(fmt.Sprint(c.ts), func(t *testing.T) {
			if got := DescribeChoices(c.ts); got != c.want {
				t.Errorf("DescribeChoices(%v) = %q, want %q", c.ts, got, c.want)
			}
		})
	}
}
