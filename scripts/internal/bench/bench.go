// Package bench holds what the measurement commands under scripts/ share:
// their exit on an error, the per-game scores of an evaluation, and the
// statistics they report of them.
package bench

import (
	"context"
	"fmt"
	"math"
	"os"

	"github.com/td2048/td2048/evaluate"
	"github.com/td2048/td2048/games"
)

// Fail prints the command's name and a to standard error, as
// fmt.Fprintln spaces them, and exits with code.
func Fail(code int, name string, a ...any) {
	fmt.Fprintln(os.Stderr, append([]any{name + ":"}, a...)...)
	os.Exit(code)
}

// Evaluate plays the games of cfg as g's Evaluate does (td2048 eval), and
// returns the evaluation and each game's score, in the games' order.
func Evaluate(g *games.Game, cfg games.EvalConfig) (games.Evaluation, []float64, error) {
	var scores []float64
	var sum int64
	cfg.Done = func(r *evaluate.Result) {
		scores = append(scores, float64(r.Block.Sum-sum)) // Done sees the games in order
		sum = r.Block.Sum
	}
	ev, err := g.Evaluate(context.Background(), cfg)
	return ev, scores, err
}

// MeanSE is the mean of x and its standard error.
func MeanSE(x []float64) (float64, float64) {
	var s, ss float64
	for _, v := range x {
		s += v
	}
	m := s / float64(len(x))
	for _, v := range x {
		ss += (v - m) * (v - m)
	}
	return m, math.Sqrt(ss/float64(len(x)-1)) / math.Sqrt(float64(len(x)))
}

// Paired is the paired differences b[i]-a[i] of the same games' scores:
// their mean, its standard error, the mean in standard errors (0 when
// the error is 0), and how many of them are 0.
func Paired(a, b []float64) (mean, se, z float64, same int) {
	d := make([]float64, len(a))
	for i := range a {
		d[i] = b[i] - a[i]
		if d[i] == 0 {
			same++
		}
	}
	mean, se = MeanSE(d)
	if se > 0 {
		z = mean / se
	}
	return mean, se, z, same
}
