package ntuple

// hugePage is the size of a transparent huge page on amd64 and arm64.
const hugePage = 2 << 20

// prefaultParts splits size bytes, from a page-aligned start, into at most
// cpus ranges [from, to) that cover them in order, each a whole number of
// huge pages but the last, and none empty: one per CPU to fault in.
func prefaultParts(size, cpus int) [][2]int {
	pages := (size + hugePage - 1) / hugePage
	n := min(max(cpus, 1), max(pages, 1))
	parts := make([][2]int, 0, n)
	from := 0
	for i := range n {
		to := min(size, (pages*(i+1)/n)*hugePage)
		parts = append(parts, [2]int{from, to})
		from = to
	}
	return parts
}
