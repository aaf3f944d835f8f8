package ntuple

import (
	"fmt"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/td2048/td2048/board"
)

// Multi-stage networks (docs/methods.md section 1). A network whose spec
// has stage thresholds T_0 = 0 < T_1 < ... holds one set of tables per
// threshold; which set values a board is decided by the board's scale
// (board.Board.Scale) against the thresholds, in one of two ways:
//
//   - From the board alone (StageOf): the last stage whose threshold the
//     scale reaches. Search and the faces use it, since they may be handed
//     any board.
//   - From the game's history (Rise), as TDL2048+ learns and plays: a game
//     starts in stage 0 and moves up one stage after a move whose reward is
//     at least the lowest set bit of the next threshold and whose
//     after-state's scale reaches that threshold. Learning uses it.
//
// The two agree at every move of a game from the start when each
// threshold is a single tile (0,16384 and the like): a board first holds
// a tile that large right after the merge that made it. For thresholds
// that are sums of tiles (49152 = 32768+16384) the history may lag the
// board by a few moves, or stay up when a merge takes the scale back
// below a threshold.

// Staged reports whether the network has more than one stage chosen by
// thresholds: a +hint network's stages are chosen by its game instead.
func (n *Network) Staged() bool { return len(n.th) > 1 }

// StageCount is the number of stages of tables.
func (n *Network) StageCount() int { return n.spec.StageCount() }

// StageOf is the stage that values board b, by b's scale alone: the last
// stage whose threshold the scale reaches (0 for a network of one stage).
func (n *Network) StageOf(b board.Board) int {
	if len(n.th) < 2 { // inlined: a single-stage network pays one test
		return 0
	}
	return n.stageOf(b)
}

// stageOf is StageOf's multi-stage path, kept out of line so that the
// single-stage callers stay small.
//
//go:noinline
func (n *Network) stageOf(b board.Board) int {
	s := b.Scale()
	k := 0
	for k+1 < len(n.th) && s >= n.th[k+1] {
		k++
	}
	return k
}

// Rise is the stage after a move in stage k whose after-state is after and
// whose reward is reward, by TDL2048+'s rule: one stage up when the reward
// is at least the lowest set bit of the next stage's threshold and the
// after-state's scale reaches that threshold; else k.
func (n *Network) Rise(k int, after board.Board, reward uint32) int {
	if k+1 >= len(n.th) {
		return k
	}
	t := n.th[k+1]
	if reward >= t&-t && after.Scale() >= t {
		return k + 1
	}
	return k
}

// CopyStage copies the tables of stage from over those of stage to, and
// their coherence accumulators with them: weight promotion, a stage
// starting from what the stage below has learnt. While other goroutines
// update a shared network, each weight is read and written whole.
func (n *Network) CopyStage(to, from int) {
	n.mustLearn()
	if to == from {
		return
	}
	if n.p != nil {
		copyShared(n.p[3*to*n.stage:3*(to+1)*n.stage], n.p[3*from*n.stage:3*(from+1)*n.stage], n.shared)
		return
	}
	copyShared(n.w[to*n.stage:(to+1)*n.stage], n.w[from*n.stage:(from+1)*n.stage], n.shared)
	if n.ea != nil {
		copyShared(n.ea[2*to*n.stage:2*(to+1)*n.stage], n.ea[2*from*n.stage:2*(from+1)*n.stage], n.shared)
	}
}

func copyShared(dst, src []float32, shared bool) {
	if !shared {
		copy(dst, src)
		return
	}
	for i := range src {
		v := atomic.LoadUint32((*uint32)(unsafe.Pointer(&src[i])))
		atomic.StoreUint32((*uint32)(unsafe.Pointer(&dst[i])), v)
	}
}

// SetThresholds gives a multi-stage network other stage thresholds, one
// per stage (as ParseThresholds reads them): for weights read from a file
// that does not record them. Not while the network is in use.
func (n *Network) SetThresholds(th []int) error {
	if n.spec.Hint || n.spec.StageCount() != len(th) {
		return fmt.Errorf("network %s has %d stages, %d thresholds given", n.spec, n.spec.StageCount(), len(th))
	}
	if _, err := ParseThresholds(FormatThresholds(th)); err != nil {
		return err
	}
	n.spec.thresholds = slices.Clone(th)
	if slices.Equal(th, defaultThresholds) {
		n.spec.thresholds = nil
	}
	n.th = n.th[:0]
	for _, t := range th {
		n.th = append(n.th, uint32(t))
	}
	return nil
}
