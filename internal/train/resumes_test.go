package train

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/stats"
)

// stopper is an Observer that runs a function at each block.
type stopper struct {
	blocks
	at func(done int)
}

func (s *stopper) Block(done int, b *stats.Block, rec stats.Record, wall time.Duration) {
	s.blocks.Block(done, b, rec, wall)
	if s.at != nil {
		s.at(done)
	}
}

// start is a way a run starts: its spec and settings given, in dir.
type start struct {
	name  string
	heavy bool // skipped by -short
	spec  func(dir string) (Spec, Given)
	// resume is the spec that continues the run saved at save to total
	// episodes (a sweep task's requeue resumes as the sweep command does).
	resume func(save string, total int) (Spec, Given)
}

// resumeCmd is train --resume save --episodes total.
func resumeCmd(save string, total int) (Spec, Given) {
	s := Default()
	s.Resume, s.Episodes = save, total
	return s, Given{"resume": true, "episodes": true}
}

// resumeTask is a sweep task's requeue: its settings are its checkpoint's,
// its episodes and threads the plan's.
func resumeTask(save string, total int) (Spec, Given) {
	s, g := resumeCmd(save, total)
	s.Threads, g["threads"] = 1, true
	return s, g
}

// runStarts are the ways a run starts: new, from weights (--load), by a
// recipe, as a sweep task with and without load, and a run of Threes!;
// each seeded on one thread, with the default episodes in turn.
func runStarts(t *testing.T, base string) []start {
	common := func(dir string) (Spec, Given) {
		seed := uint64(3)
		s := Default()
		s.Network, s.Threads, s.Seed, s.Every, s.CheckpointEvery, s.Save = "0123,4567", 1, &seed, 50, 200, filepath.Join(dir, "w.td2048")
		return s, Given{"network": true, "threads": true, "seed": true, "every": true, "checkpoint_every": true, "episodes": true, "save": true}
	}
	task := func(load string) func(dir string) (Spec, Given) {
		return func(dir string) (Spec, Given) {
			s, g := common(dir)
			s.Save, s.Plot, s.Force = filepath.Join(dir, "weights.td2048"), filepath.Join(dir, "curve.png"), true
			if load != "" {
				s.Load, g["load"] = load, true
			}
			return s, g
		}
	}
	return []start{
		{"new", false, common, resumeCmd},
		{"load", false, func(dir string) (Spec, Given) {
			s, g := common(dir)
			s.Load, g["load"] = base, true
			return s, g
		}, resumeCmd},
		{"recipe", false, func(dir string) (Spec, Given) {
			s, g := common(dir)
			s.Recipe, g["recipe"] = "otd", true
			return s, g
		}, resumeCmd},
		{"sweep task", true, task(""), resumeTask},
		{"sweep task with load", false, task(base), resumeTask},
		{"threes", true, func(dir string) (Spec, Given) {
			s, g := common(dir)
			s.Game, s.Network, g["game"] = "threes", "0123,4567+hint", true
			return s, g
		}, resumeCmd},
	}
}

// TestEveryRunResumes: each way a run starts, stopped each way a run
// stops (SIGTERM or Ctrl-C, a kill -9 between checkpoints, --duration, or
// finished and then extended), resumes to the end with the same weights,
// bit for bit, and the same log as the run that was never stopped.
func TestEveryRunResumes(t *testing.T) {
	dir := t.TempDir()
	base := baseWeights(t, dir)
	const total = 400
	stops := []struct {
		name string
		// stop trains s (given g) and leaves it stopped; it returns the
		// episodes it was stopped at, at least.
		stop func(t *testing.T, s Spec, g Given) int
	}{
		{"SIGTERM", func(t *testing.T, s Spec, g Given) int {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			trainCtx(t, ctx, s, g, &stopper{at: func(done int) {
				if done == 50 { // between checkpoints (every 200)
					cancel()
				}
			}})
			return 50
		}},
		{"kill -9", func(t *testing.T, s Spec, g Given) int {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			log := DefaultLog(s.Save)
			var weights, records []byte
			trainCtx(t, ctx, s, g, &stopper{at: func(done int) {
				if done == 300 { // past the checkpoint at 200, the log ahead of it
					weights, records = readAll(t, s.Save), readAll(t, log)
					cancel()
				}
			}})
			// What a kill leaves: the checkpoint, and the log as far as it got.
			os.WriteFile(s.Save, weights, 0o644)
			os.WriteFile(log, records, 0o644)
			return 200
		}},
		{"duration", func(t *testing.T, s Spec, g Given) int {
			s.Duration, g["duration"] = Duration(time.Nanosecond), true
			trainCtx(t, context.Background(), s, g, &stopper{})
			return 0
		}},
		{"extended", func(t *testing.T, s Spec, g Given) int {
			s.Episodes = 300
			trainCtx(t, context.Background(), s, g, &stopper{})
			return 300
		}},
	}
	for _, st := range runStarts(t, base) {
		whole := filepath.Join(dir, st.name, "whole")
		os.MkdirAll(whole, 0o755)
		s, g := st.spec(whole)
		s.Episodes = total
		trainCtx(t, context.Background(), s, g, &stopper{})
		for _, sp := range stops {
			t.Run(st.name+"/"+sp.name, func(t *testing.T) {
				if st.heavy && testing.Short() {
					t.Skip("-short")
				}
				d := filepath.Join(dir, st.name, sp.name)
				os.MkdirAll(d, 0o755)
				s, g := st.spec(d)
				s.Episodes = total
				at := sp.stop(t, s, maps.Clone(g))
				h, err := netfile.ReadHeader(s.Save)
				state, _, _ := ReadState(h)
				if err != nil || state.Done < at || state.Done >= total {
					t.Fatalf("stopped at %d episodes (want %d or more, fewer than %d): %v", state.Done, at, total, err)
				}
				if want := map[bool]int{true: 1, false: learn.DefaultInterleave}[st.name == "threes"]; state.Interleave != want {
					t.Fatalf("the run plays %d episodes in turn, want the default %d on every processor", state.Interleave, want)
				}
				rs, rg := st.resume(s.Save, total)
				r := trainCtx(t, context.Background(), rs, rg, &stopper{})
				if r.Done != total {
					t.Fatalf("resumed run ended at %d", r.Done)
				}
				sameWeights(t, filepath.Join(whole, filepath.Base(s.Save)), s.Save)
				sameLog(t, DefaultLog(filepath.Join(whole, filepath.Base(s.Save))), DefaultLog(s.Save))
			})
		}
	}
}

// baseWeights trains the weights the --load runs start from.
func baseWeights(t *testing.T, dir string) string {
	seed := uint64(1)
	s := Default()
	s.Network, s.Episodes, s.Threads, s.Seed, s.Save = "0123,4567", 100, 1, &seed, filepath.Join(dir, "base.td2048")
	trainCtx(t, context.Background(), s, Given{"network": true, "episodes": true, "threads": true, "seed": true}, &stopper{})
	return s.Save
}

// trainCtx opens and trains a run.
func trainCtx(t *testing.T, ctx context.Context, s Spec, g Given, o Observer) Result {
	t.Helper()
	// As the train command: the run's own plot is redrawn.
	r, err := Open(s, g, Options{Refuse: func(path, flag, want string) error {
		if want == "image" {
			return nil
		}
		return refuseAny(path, flag, want)
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	res, err := r.Train(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func readAll(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sameWeights fails unless the weight files at a and b hold the same
// weights, bit for bit.
func sameWeights(t *testing.T, a, b string) {
	t.Helper()
	na, _, err1 := netfile.LoadAny(a)
	nb, _, err2 := netfile.LoadAny(b)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	wa, wb := na.Weights(), nb.Weights()
	if na.Coherent() != nb.Coherent() || len(wa) != len(wb) {
		t.Fatalf("%s and %s hold different networks", a, b)
	}
	for i := range wa {
		if math.Float32bits(wa[i]) != math.Float32bits(wb[i]) {
			t.Fatalf("weight %d: %v unbroken, %v resumed", i, wa[i], wb[i])
		}
	}
}

// sameLog fails unless the logs at a and b hold the same blocks.
func sameLog(t *testing.T, a, b string) {
	t.Helper()
	text := func(path string) string {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		recs, err := stats.ReadLog(f)
		if err != nil {
			t.Fatal(err)
		}
		var w strings.Builder
		for _, r := range recs {
			fmt.Fprintf(&w, "%d %d %v %d %v\n", r.Episodes, r.Games, r.Avg, r.Max, r.Alpha)
		}
		return w.String()
	}
	if x, y := text(a), text(b); x != y {
		t.Fatalf("blocks unbroken:\n%sresumed:\n%s", x, y)
	}
}

// TestExtensionLogsItsBlocks: a finished run whose total is not a
// multiple of its block, extended, prints and logs its blocks at the
// episodes the unbroken run does (the partial block at its old end filled
// and logged whole), and ends with the same weights.
func TestExtensionLogsItsBlocks(t *testing.T) {
	dir := t.TempDir()
	seed := uint64(8)
	s := Default()
	s.Network, s.Threads, s.Seed, s.Every = "0123,4567", 1, &seed, 200
	g := Given{"network": true, "threads": true, "seed": true, "every": true, "episodes": true}
	whole, part := s, s
	whole.Save, whole.Episodes = filepath.Join(dir, "whole.td2048"), 450
	part.Save, part.Episodes = filepath.Join(dir, "part.td2048"), 300
	trainCtx(t, context.Background(), whole, g, &stopper{})
	var first, ext stopper
	trainCtx(t, context.Background(), part, g, &first)
	rs, rg := resumeCmd(part.Save, 450)
	trainCtx(t, context.Background(), rs, rg, &ext)
	var at []int64
	for _, r := range append(first.recs, ext.recs...) {
		at = append(at, r.Episodes)
	}
	if fmt.Sprint(at) != "[200 300 400 450]" {
		t.Errorf("blocks at %v, want [200 300 400 450] (the first run's end, then the unbroken run's)", at)
	}
	sameLog(t, DefaultLog(whole.Save), DefaultLog(part.Save))
	sameWeights(t, whole.Save, part.Save)
}

// TestFailedResumeTouchesNothing: a resume refused once the checkpoint is
// read (its run state cannot continue the run) leaves the weights and the
// log as they were.
func TestFailedResumeTouchesNothing(t *testing.T) {
	dir := t.TempDir()
	seed := uint64(2)
	s := Default()
	s.Network, s.Threads, s.Seed, s.Every, s.Episodes, s.Save = "0123,4567", 1, &seed, 50, 200, filepath.Join(dir, "w.td2048")
	trainCtx(t, context.Background(), s, Given{"network": true, "threads": true, "seed": true, "every": true, "episodes": true}, &stopper{})
	// A damaged run state: a generator short.
	net, h, err := netfile.LoadAny(s.Save)
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := ReadState(h)
	if err != nil {
		t.Fatal(err)
	}
	st.Rands = st.Rands[1:]
	if err := Save(s.Save, net, h, st); err != nil {
		t.Fatal(err)
	}
	weights, log := readAll(t, s.Save), readAll(t, DefaultLog(s.Save))
	rs, rg := resumeCmd(s.Save, 400)
	if _, err := Open(rs, rg, Options{}); err == nil || !strings.Contains(err.Error(), "generators") {
		t.Fatalf("resume of a damaged state: %v", err)
	}
	if !bytes.Equal(readAll(t, s.Save), weights) || !bytes.Equal(readAll(t, DefaultLog(s.Save)), log) {
		t.Fatal("the failed resume changed the weights or the log")
	}
}
