package ntuple

import "testing"

func TestPrefaultParts(t *testing.T) {
	for _, size := range []int{1, 4096, hugePage - 1, hugePage, hugePage + 4, 3 * hugePage, 128 * hugePage, 128*hugePage + 8, 7*hugePage + 100} {
		for cpus := -1; cpus <= 9; cpus++ {
			parts := prefaultParts(size, cpus)
			pages := (size + hugePage - 1) / hugePage
			if want := min(max(cpus, 1), pages); len(parts) != want {
				t.Fatalf("size %d, %d CPUs: %d parts, want %d", size, cpus, len(parts), want)
			}
			from := 0
			for i, p := range parts {
				if p[0] != from || p[1] <= p[0] {
					t.Fatalf("size %d, %d CPUs: part %d is %v after %d", size, cpus, i, p, from)
				}
				if i < len(parts)-1 && p[1]%hugePage != 0 {
					t.Fatalf("size %d, %d CPUs: part %d ends at %d, inside a huge page", size, cpus, i, p[1])
				}
				from = p[1]
			}
			if from != size {
				t.Fatalf("size %d, %d CPUs: parts end at %d", size, cpus, from)
			}
		}
	}
	// Even shares: 128 pages among 2 CPUs are 64 each.
	if p := prefaultParts(128*hugePage, 2); p[0][1] != 64*hugePage {
		t.Fatalf("128 pages on 2 CPUs split at %d", p[0][1])
	}
}
