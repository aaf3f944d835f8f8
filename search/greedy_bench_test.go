package search

import "testing"

// BenchmarkGreedy4x6 chooses greedy moves over a 4x6 network (benchNet):
// the hot path of 1-ply play, which multi-stage networks must not slow.
func BenchmarkGreedy4x6(b *testing.B) {
	net, boards := benchNet(4096)
	defer net.Free()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sinkChoice = Greedy(net, boards[i&4095])
	}
}
