package web

// The training curve: GET /api/curve, from the metrics log, read again
// whenever it changes.

import (
	"cmp"
	"fmt"
	"github.com/td2048/td2048/games"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/td2048/td2048/stats"
)

// logStamp tells a changed metrics log from the one read last.
type logStamp struct {
	size int64
	mod  time.Time
}

// curvePoint is one block of the training curve.
type curvePoint struct {
	Episodes int64   `json:"episodes"`
	Avg      float64 `json:"avg"`
	Max      int     `json:"max"`
	Reach    float64 `json:"reach"` // share of games reaching the goal tile (2048, or 3072 in Threes!)
}

// curve reads the metrics log again when it has changed; other counts
// the blocks of another game's training, which the curve leaves out.
func (s *Server) curve() (c []curvePoint, other int, err error) {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fi, err := os.Stat(s.cfg.LogPath)
	if err != nil {
		return nil, 0, fmt.Errorf("metrics log: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("metrics log %s is not a regular file", s.cfg.LogPath)
	}
	st := logStamp{fi.Size(), fi.ModTime()}
	if st == s.logStamp && (s.logCurve != nil || s.logErr != nil) {
		return s.logCurve, s.logOther, s.logErr
	}
	if fi.Size() > maxLog {
		return nil, 0, fmt.Errorf("metrics log %s is larger than %d MiB", s.cfg.LogPath, maxLog>>20)
	}
	f, err := os.Open(s.cfg.LogPath)
	if err != nil {
		return nil, 0, fmt.Errorf("metrics log: %w", err)
	}
	defer f.Close()
	recs, err := stats.ReadLog(io.LimitReader(f, maxLog))
	s.logStamp, s.logCurve, s.logOther, s.logErr = st, []curvePoint{}, 0, nil
	if err != nil {
		s.logErr = fmt.Errorf("metrics log %s: %v", s.cfg.LogPath, err)
		return nil, 0, s.logErr
	}
	for _, r := range recs {
		if cmp.Or(r.Game, games.Default) != s.cfg.Game { // logs written before Threes! name no game
			s.logOther++
			continue
		}
		s.logCurve = append(s.logCurve, curvePoint{r.Episodes, r.Avg, r.Max, r.ReachOf(s.game.GoalValue())})
	}
	return s.logCurve, s.logOther, nil
}

func (s *Server) curveHandler(*http.Request, []byte) (any, error) {
	if s.cfg.LogPath == "" {
		return nil, &requestError{http.StatusNotFound, "no metrics log: start serve with --log FILE"}
	}
	c, other, err := s.curve()
	if err != nil {
		return nil, err
	}
	// The page says when the other game's blocks are all there is.
	return map[string]any{"game": s.cfg.Game, "goal": s.game.GoalValue(), "points": c, "other": other}, nil
}
