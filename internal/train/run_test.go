package train

import (
	"context"
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

type blocks struct{ recs []stats.Record }

func (b *blocks) Block(_ int, _ *stats.Block, rec stats.Record, _ time.Duration) {
	b.recs = append(b.recs, rec)
}
func (b *blocks) Tick(learn.Snapshot) {}
func (b *blocks) Warn(msg string)     {}

func train(t *testing.T, s Spec, given Given) *blocks {
	t.Helper()
	r, err := Open(s, given, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var b blocks
	if _, err := r.Train(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	return &b
}

// TestRunResumes: a run trained in two calls, the second resuming the
// first's checkpoint, ends with the weights and log of one trained in one.
func TestRunResumes(t *testing.T) {
	dir := t.TempDir()
	seed := uint64(4)
	s := Default()
	s.Network, s.Episodes, s.Every, s.Threads, s.Seed, s.Interleave = "2x4", 200, 50, 1, &seed, 1
	given := Given{"network": true, "interleave": true}
	whole, part := s, s
	whole.Save, part.Save, part.Episodes = filepath.Join(dir, "w.td2048"), filepath.Join(dir, "p.td2048"), 100
	bw := train(t, whole, given)
	train(t, part, given)
	resume := Default()
	resume.Resume, resume.Episodes = part.Save, 200
	bp := train(t, resume, Given{"resume": true, "episodes": true})
	if len(bw.recs) != 4 || len(bp.recs) != 2 {
		t.Fatalf("%d and %d blocks", len(bw.recs), len(bp.recs))
	}
	for i, r := range bp.recs {
		if w := bw.recs[i+2]; r.Episodes != w.Episodes || r.Avg != w.Avg || r.Alpha != w.Alpha || r.Seed != 4 {
			t.Errorf("block %d: %+v resumed, %+v whole", i, r, w)
		}
	}
	a, _, _ := netfile.LoadAny(whole.Save)
	b, _, _ := netfile.LoadAny(part.Save)
	for i, w := range a.Weights() {
		if math.Float32bits(w) != math.Float32bits(b.Weights()[i]) {
			t.Fatalf("weight %d: %v whole, %v resumed", i, w, b.Weights()[i])
		}
	}
	// Without a face's Refuse, a file that is not the run's own is kept.
	other := Default()
	other.Network, other.Episodes, other.Save = "2x4", 10, filepath.Join(dir, "o.td2048")
	os.WriteFile(other.Save, []byte("a thesis"), 0o644)
	if _, err := Open(other, Given{"network": true}, Options{}); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("over another file: %v", err)
	}
}
