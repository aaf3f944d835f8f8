package threes

// A Summary accumulates games for the course's summary block, the one the
// framework prints after its games and its judge prints after reading a
// statistics file:
//
//	1000	avg = 174965, max = 561159, ops = 807830 (466175|4259039)
//		48	100%	(0.3%)
//		96	99.7%	(1%)
//		...
//		6144	0.4%	(0.4%)
//
// avg is the mean score rounded down, ops the actions per second of wall
// time from opening to closing, then in parentheses the slider's actions
// per second of its own time and the placer's. Each tile line gives the
// share of games whose largest tile was at least that tile and, in
// parentheses, exactly it; as in the framework, only tiles some game ended
// with are listed, and a blank line ends the block.
type Summary struct {
	Games      int
	Sum, Max   int64
	End        [16]int // games whose largest tile index was exactly i
	Slides     int64
	Placements int64
	Time       int64 // milliseconds, summed over games
	SlideTime  int64
	PlaceTime  int64
}

// Add records one game.
func (s *Summary) Add(g GameStats) {
	s.Games++
	s.Sum += int64(g.Score)
	s.Max = max(s.Max, int64(g.Score))
	s.End[min(max(g.MaxTile, 0), 15)]++
	s.Slides += int64(g.Slides)
	s.Placements += int64(g.Placements)
	s.Time += g.Time
	s.SlideTime += g.SlideTime
	s.PlaceTime += g.PlaceTime
}
