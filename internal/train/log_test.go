package train

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/td2048/td2048/internal/plot"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/stats"
)

func rec(ep int64, seed uint64) stats.Record {
	return stats.Record{Episodes: ep, Summary: stats.Summary{Games: 10, Avg: 100}, Seed: seed, Game: "2048"}
}

func seedOf(s uint64) *uint64 { return &s }

func writeLog(t *testing.T, path string, recs ...stats.Record) int64 {
	l, err := CreateLog(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := l.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	off, pending, err := l.Sync()
	if err != nil || len(pending) > 0 {
		t.Fatal(err, pending)
	}
	l.Close()
	return off
}

func TestAppendLogRepairsTornLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.jsonl")
	writeLog(t, path, rec(10, 1), rec(20, 1))
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"episodes":30,"ga`) // a writer killed mid-line
	f.Close()
	l, err := AppendLog(path)
	if err != nil {
		t.Fatal(err)
	}
	l.Write(rec(30, 2))
	l.Close()
	s, err := plot.ReadLog(path, "")
	if recs := s.Records; err != nil || len(recs) != 3 || recs[2].Seed != 2 {
		t.Fatalf("%v %+v", err, s.Records)
	}
}

func TestResumeLogChecksTheCheckpoint(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.jsonl")
	off := writeLog(t, path, rec(10, 1), rec(20, 1))
	st := State{Spec: Spec{Seed: seedOf(1)}, RunState: learn.RunState{Done: 20}, LogOffset: off, LogPending: []stats.Record{rec(30, 1)}}
	// Blocks after the checkpoint are cut; pending ones come next.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"episodes":30,"seed":1}` + "\n")
	f.Close()
	l, err := ResumeLog(path, &st)
	if err != nil {
		t.Fatal(err)
	}
	l.Write(rec(40, 1))
	l.Close()
	s, _ := plot.ReadLog(path, "")
	if recs := s.Records; len(recs) != 4 || recs[2].Episodes != 30 || recs[3].Episodes != 40 {
		t.Fatalf("%+v", recs)
	}
	for name, c := range map[string]struct {
		st   State
		want string
	}{
		"other seed": {State{Spec: Spec{Seed: seedOf(2)}, RunState: learn.RunState{Done: 20}, LogOffset: off}, "seed 1 at 20"},
		"longer run": {State{Spec: Spec{Seed: seedOf(1)}, RunState: learn.RunState{Done: 10}, LogOffset: off}, "at 20 episodes"},
		"mid-line":   {State{Spec: Spec{Seed: seedOf(1)}, RunState: learn.RunState{Done: 20}, LogOffset: off - 3}, "no complete record"},
		"too long":   {State{Spec: Spec{Seed: seedOf(1)}, RunState: learn.RunState{Done: 20}, LogOffset: 1 << 20}, "the checkpoint recorded"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ResumeLog(path, &c.st)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "--log none") {
				t.Errorf("%v", err)
			}
		})
	}
	if _, err := ResumeLog(filepath.Join(dir, "gone.jsonl"), &st); err == nil || !strings.Contains(err.Error(), "is missing") {
		t.Errorf("missing log: %v", err)
	}
}

func TestPathsRelativeToCheckpoint(t *testing.T) {
	save := filepath.Join("runs", "a", "w.td2048")
	if r := Rel(save, filepath.Join("runs", "logs", "w.jsonl")); r != filepath.Join("..", "logs", "w.jsonl") {
		t.Fatalf("Rel = %s", r)
	}
	if p := Resolve(filepath.Join("elsewhere", "w.td2048"), filepath.Join("..", "logs", "w.jsonl")); p != filepath.Join("logs", "w.jsonl") {
		t.Fatalf("Resolve = %s", p)
	}
	st := State{Log: "w.jsonl", LogRel: true, LogDefault: true}
	if p := st.LogPath(filepath.Join("d", "copy.td2048")); p != filepath.Join("d", "copy.jsonl") {
		t.Fatalf("default log of a copy: %s", p)
	}
}

// TestForkLog: a run resumed under another name starts its own log, a
// copy of its parent's up to the checkpoint and then the pending records;
// the parent's log is left as it was, and one that does not match the
// checkpoint is refused as ResumeLog refuses it.
func TestForkLog(t *testing.T) {
	dir := t.TempDir()
	parent, child := filepath.Join(dir, "c.jsonl"), filepath.Join(dir, "d.jsonl")
	off := writeLog(t, parent, rec(10, 1), rec(20, 1))
	f, _ := os.OpenFile(parent, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"episodes":30,"seed":1}` + "\n")
	f.Close()
	before, _ := os.ReadFile(parent)
	st := State{Spec: Spec{Seed: seedOf(1)}, RunState: learn.RunState{Done: 20}, LogOffset: off, LogPending: []stats.Record{rec(30, 1)}}
	l, err := ForkLog(child, parent, &st)
	if err != nil {
		t.Fatal(err)
	}
	l.Write(rec(40, 1))
	l.Close()
	s, _ := plot.ReadLog(child, "")
	if recs := s.Records; len(recs) != 4 || recs[1].Episodes != 20 || recs[2].Episodes != 30 || recs[3].Episodes != 40 {
		t.Fatalf("the fork's log: %+v", s.Records)
	}
	if after, _ := os.ReadFile(parent); string(after) != string(before) {
		t.Fatal("the parent's log changed")
	}
	st.Spec.Seed = seedOf(2)
	if _, err := ForkLog(filepath.Join(dir, "e.jsonl"), parent, &st); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Fatalf("a foreign log: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "e.jsonl")); err == nil {
		t.Fatal("a log was made from a foreign one")
	}
}
