package learn

import "github.com/td2048/td2048/ntuple"

// OTD then TC in one run (docs/methods.md sections 2, 3 and 9: TDL2048+'s
// README trains 90% of the episodes by optimistic TD, then the rest by
// temporal coherence from the same weights, its E and A starting fresh).
// Train pauses every worker at episode Config.CoherenceFrom, as it does
// for a checkpoint, and gives the network its accumulators there; the
// learning rate of TC (TDL2048+'s 1.0) is the schedule's to set.

// coherenceBoundary is the episode before which the workers must pause
// next, given the next other pause at boundary and done episodes done.
func coherenceBoundary(net *ntuple.Network, cfg Config, done, boundary int) int {
	if cfg.CoherenceFrom > done && !net.Coherent() {
		return min(boundary, cfg.CoherenceFrom)
	}
	return boundary
}

// startCoherence turns temporal coherence on once done episodes reach
// Config.CoherenceFrom; all workers must be idle.
func startCoherence(net *ntuple.Network, cfg Config, done int) {
	if cfg.CoherenceFrom > 0 && done >= cfg.CoherenceFrom && !net.Coherent() {
		net.EnableCoherence()
	}
	if !cfg.unpacked {
		net.Pack() // a coherent network trains packed (ntuple.Network.Pack)
	}
}
