package games_test

import (
	"testing"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/games/gametest"
)

// TestConformance runs the checks every game keeps on every registered
// game.
func TestConformance(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.Name, func(t *testing.T) { gametest.Run(t, g) })
	}
}
