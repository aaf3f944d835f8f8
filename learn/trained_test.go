package learn

import (
	"context"
	"os"
	"testing"

	"github.com/td2048/td2048/netfile"
)

// BenchmarkTrainTrained goes on training, online, from the weights in the
// file $TD2048_WEIGHTS (skipped without it): speed in a trained network's
// state, where lookups spread over more of the tables than from zero.
func BenchmarkTrainTrained(b *testing.B) {
	path := os.Getenv("TD2048_WEIGHTS")
	if path == "" {
		b.Skip("TD2048_WEIGHTS names no weights file")
	}
	net, _, err := netfile.LoadAny(path)
	if err != nil {
		b.Fatal(err)
	}
	defer net.Free()
	b.ResetTimer()
	_, r, _ := Train(context.Background(), net, Config{Episodes: b.N, Seed: 7, Threads: 1, Every: 1000, Mode: Mode{online: true}})
	b.ReportMetric(float64(r.Moves)/r.Elapsed.Seconds(), "moves/s")
}
