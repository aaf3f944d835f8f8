package evaluate

import (
	"sync/atomic"
	"time"

	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/threes"
	"github.com/td2048/td2048/search"
)

// A ThreesPolicy chooses a slide in a game (a slide being due). One policy
// serves one goroutine.
type ThreesPolicy func(g *threes.Game) search.Choice

// GreedyThreesPolicy plays greedily with net.
func GreedyThreesPolicy(net *ntuple.Network) ThreesPolicy {
	return func(g *threes.Game) search.Choice { return search.GreedyThrees(net, g.Board, g.Next) }
}

// Names of the two sides in records.
const (
	sliderName = "td2048"
	placerName = "random"
)

// threesClock returns the wall time in Unix milliseconds; a variable so that
// tests can stop it.
var threesClock = func() int64 { return time.Now().UnixMilli() }

// playThreesGame plays one game from the empty board: the random
// placer's opening and placements, drawn from rng, and policy's slides.
// Each action's time is the milliseconds the wall threesClock advanced
// during it, as the course framework measures. With rec not nil, the game
// is recorded there (its Steps reused). It gives up when stop is set
// (checked before each slide; not finished then) and adds the slides it plays to
// slides, a few at a time.
func playThreesGame(policy ThreesPolicy, rng threes.Rand, rec *threes.Record, stop *atomic.Bool, slides *atomic.Int64) played {
	var g played
	n := int64(0) // slides not yet added to slides
	defer func() { slides.Add(n) }()
	b := threes.New()
	if rec != nil {
		*rec = threes.Record{Slider: sliderName, Placer: placerName, Winner: placerName, Steps: rec.Steps[:0]}
	}
	open := threesClock()
	now := open
	place := func() {
		pos, tile, hint := b.PlaceRandom(rng)
		t := threesClock()
		g.speed.Placements++
		g.speed.PlaceTime += t - now
		if rec != nil {
			rec.Steps = append(rec.Steps, threes.Step{Action: threes.PlaceAction(pos, tile, hint), Reward: threes.Score(tile), Time: t - now})
		}
		now = t
	}
	for range threes.OpeningTiles {
		place()
	}
	for {
		if stop.Load() {
			return g
		}
		c := policy(&b)
		if !c.Legal() {
			if stop.Load() {
				return g // the policy may have been cut short
			}
			break
		}
		if n++; n == 64 {
			slides.Add(n)
			n = 0
		}
		b.SlideTo(c.After, c.Dir)
		t := threesClock()
		g.speed.Slides++
		g.ep.Moves++
		g.speed.SlideTime += t - now
		if rec != nil {
			rec.Steps = append(rec.Steps, threes.Step{Action: threes.SlideAction(c.Dir), Reward: c.Points(), Time: t - now})
		}
		now = t
		place()
	}
	g.ep.Score, g.ep.MaxTile = threes.BoardScore(b.Board), b.Board.MaxTile()
	g.speed.Time = threesClock() - open
	if rec != nil {
		rec.Open, rec.Close = open, open+g.speed.Time
	}
	g.finished = true
	return g
}
