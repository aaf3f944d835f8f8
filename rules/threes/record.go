package threes

import (
	"fmt"
	"strconv"
	"strings"
)

// An Action is one recorded action: a slide or a placement. It holds what
// the course's text form can say, legal or not, so that a replay can name
// what is wrong with it.
type Action uint32

const slideFlag Action = 1 << 16

// SlideAction is the slide in direction d (0..3).
func SlideAction(d int) Action { return slideFlag | Action(d&3) }

// PlaceAction is the placement of tile on cell pos (0..15) with hint as
// the new hint; tile and hint are indices 0..35 (the text form's range).
func PlaceAction(pos, tile, hint int) Action {
	return Action(pos&0xf | (tile&0x3f)<<4 | (hint&0x3f)<<10)
}

// IsSlide reports whether a is a slide.
func (a Action) IsSlide() bool { return a&slideFlag != 0 }

// Dir is a slide's direction.
func (a Action) Dir() int { return int(a & 3) }

// Pos is a placement's cell.
func (a Action) Pos() int { return int(a & 0xf) }

// Tile is a placement's tile index.
func (a Action) Tile() int { return int(a >> 4 & 0x3f) }

// Hint is a placement's new hint.
func (a Action) Hint() int { return int(a >> 10 & 0x3f) }

const digits36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// AppendText appends the course's text form: #U #R #D #L for a slide, the
// three characters cell (hex), tile and hint (0-9A-Z) for a placement.
func (a Action) AppendText(b []byte) []byte {
	if a.IsSlide() {
		return append(b, '#', "URDL"[a.Dir()])
	}
	return append(b, digits36[a.Pos()], digits36[a.Tile()], digits36[a.Hint()])
}

func (a Action) String() string { return string(a.AppendText(nil)) }

// A Step is one action of a record with its reward and the milliseconds
// its side took.
type Step struct {
	Action Action
	Reward int
	Time   int64
}

// A Record is one game as a line of the course's statistics file:
//
//	SLIDER:PLACER@open_ms|ACTIONS|WINNER@close_ms
//
// ACTIONS is every action in order (the nine opening placements first),
// each followed by [reward] when its reward is not 0 and (ms) when its
// time is not 0.
type Record struct {
	Slider, Placer string
	Open           int64 // Unix milliseconds when the game began
	Steps          []Step
	Winner         string // the side that made the last move
	Close          int64  // Unix milliseconds when it ended
}

// AppendText appends the record's line, without the newline.
func (r *Record) AppendText(b []byte) []byte {
	b = append(b, r.Slider...)
	b = append(b, ':')
	b = append(b, r.Placer...)
	b = append(b, '@')
	b = strconv.AppendInt(b, r.Open, 10)
	b = append(b, '|')
	for _, m := range r.Steps {
		b = m.Action.AppendText(b)
		for k, v := range [2]int64{int64(m.Reward), m.Time} {
			if v != 0 {
				b = append(b, stepCounts[k].open)
				b = strconv.AppendInt(b, v, 10)
				b = append(b, stepCounts[k].close)
			}
		}
	}
	b = append(b, '|')
	b = append(b, r.Winner...)
	b = append(b, '@')
	return strconv.AppendInt(b, r.Close, 10)
}

func (r *Record) String() string { return string(r.AppendText(nil)) }

// A syntaxError is a line of a statistics file that cannot be read. Action
// is the index (from 0) of the action where reading failed, or -1 when the
// fault is outside the actions.
type syntaxError struct {
	Action int
	Column int // byte offset in the line, from 0
	Msg    string
}

func (e *syntaxError) Error() string {
	if e.Action >= 0 {
		return fmt.Sprintf("action %d (column %d): %s", e.Action+1, e.Column+1, e.Msg)
	}
	return fmt.Sprintf("column %d: %s", e.Column+1, e.Msg)
}

// validName reports whether s can stand as an agent name in a record.
func validName(s string) bool {
	return s != "" && !strings.ContainsAny(s, "|@:\r\n")
}

// ParseRecord reads one line of the course's statistics file (without its
// newline). It is strict: it accepts exactly the lines AppendText writes,
// so a line read and written again is unchanged.
func ParseRecord(line string) (Record, error) {
	var r Record
	bad := func(act, col int, f string, a ...any) (Record, error) {
		return Record{}, &syntaxError{Action: act, Column: col, Msg: fmt.Sprintf(f, a...)}
	}
	first := strings.IndexByte(line, '|')
	last := strings.LastIndexByte(line, '|')
	if first < 0 || first == last {
		return bad(-1, 0, "want SLIDER:PLACER@open_ms|ACTIONS|WINNER@close_ms (two '|')")
	}
	head, body, tail := line[:first], line[first+1:last], line[last+1:]
	names, open, ok := strings.Cut(head, "@")
	if !ok {
		return bad(-1, 0, "opening %q: want SLIDER:PLACER@ms", head)
	}
	var err error
	if r.Slider, r.Placer, ok = strings.Cut(names, ":"); !ok || !validName(r.Slider) || !validName(r.Placer) {
		return bad(-1, 0, "opening %q: want two names SLIDER:PLACER", names)
	}
	if r.Open, err = parseCount(open, true); err != nil {
		return bad(-1, len(names)+1, "opening time %q: %v", open, err)
	}
	winner, closeMs, ok := strings.Cut(tail, "@")
	if !ok || !validName(winner) {
		return bad(-1, last+1, "closing %q: want WINNER@ms", tail)
	}
	r.Winner = winner
	if r.Close, err = parseCount(closeMs, true); err != nil {
		return bad(-1, last+2+len(winner), "closing time %q: %v", closeMs, err)
	}
	r.Steps = make([]Step, 0, len(body)/3)
	for i := 0; i < len(body); {
		col := first + 1 + i
		var m Step
		n := len(r.Steps)
		if body[i] == '#' {
			if i+1 >= len(body) {
				return bad(n, col, "slide %q: want #U, #R, #D or #L", body[i:])
			}
			d := strings.IndexByte("URDL", body[i+1])
			if d < 0 {
				return bad(n, col, "slide %q: want #U, #R, #D or #L", body[i:i+2])
			}
			m.Action = SlideAction(d)
			i += 2
		} else {
			if i+3 > len(body) {
				return bad(n, col, "placement %q: want three characters (cell 0-F, tile and hint 0-Z)", body[i:])
			}
			p := strings.IndexByte(digits36[:16], body[i])
			t := strings.IndexByte(digits36, body[i+1])
			h := strings.IndexByte(digits36, body[i+2])
			if p < 0 || t < 0 || h < 0 {
				return bad(n, col, "placement %q: want cell 0-F, tile and hint 0-Z", body[i:i+3])
			}
			m.Action = PlaceAction(p, t, h)
			i += 3
		}
		var counts [2]int64 // the reward, then the time
		for k, c := range &stepCounts {
			if i < len(body) && body[i] == c.open {
				j := strings.IndexByte(body[i:], c.close)
				if j < 0 {
					return bad(n, first+1+i, "%s %q: no closing %c", c.what, body[i:], c.close)
				}
				if counts[k], err = parseCount(body[i+1:i+j], false); err != nil {
					return bad(n, first+1+i, "%s %q: %v", c.what, body[i:i+j+1], err)
				}
				i += j + 1
			}
		}
		m.Reward, m.Time = int(counts[0]), counts[1]
		r.Steps = append(r.Steps, m)
	}
	return r, nil
}

// stepCounts are the counts an action may be followed by, in order: its
// reward in brackets, its time in parentheses.
var stepCounts = [2]struct {
	open, close byte
	what        string
}{{'[', ']', "reward"}, {'(', ')', "time"}}

// parseCount reads a decimal count without sign or leading zeros: zero
// allowed or not (a reward or time of 0 is written by leaving it out).
func parseCount(s string, zero bool) (int64, error) {
	if s == "0" && zero {
		return 0, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || s[0] < '1' || s[0] > '9' || len(s) > 15 {
		return 0, fmt.Errorf("want a positive decimal number")
	}
	return v, nil
}

// An IllegalError is a recorded game that breaks the rules. Action is the
// index (from 0) of the first offending action, len(Steps) when the game
// stops too early (a slide still legal), or -1 when the fault is in the
// names or times. Its message names the action counting from 1.
type IllegalError struct {
	Action int
	text   string // the action's text, if any
	msg    string
}

func (e *IllegalError) Error() string {
	if e.text != "" {
		return fmt.Sprintf("action %d (%s): %s", e.Action+1, e.text, e.msg)
	}
	return e.msg
}

// GameStats is what the course's summary counts of one game.
type GameStats struct {
	Score      int // value of the final board: the sum of all rewards
	MaxTile    int // largest tile index
	Slides     int
	Placements int
	Time       int64 // milliseconds from opening to closing
	SlideTime  int64 // milliseconds the slider took, summed over its actions
	PlaceTime  int64 // the same for the placer
}

// A Replay is what replaying a record computes.
type Replay struct {
	GameStats
	final Game
}

// Replay plays a record's actions from the empty board and checks every
// one: the turn order (nine placements, then slide and placement in
// turn), each action's legality, its recorded reward, that the game ends
// only when no slide is legal, that the winner is the side that moved last
// (the placer), and that the game closes no earlier than it opened. With
// an error the Replay is the game as its legal actions left it: those
// actions' counts and times, the score and largest tile of the board they
// made, and the game's time (0 when it closes before it opened).
func (r *Record) Replay() (rp Replay, err error) {
	g := New()
	defer func() {
		rp.final, rp.Score, rp.MaxTile, rp.Time = g, BoardScore(g.Board), g.Board.MaxTile(), max(r.Close-r.Open, 0)
	}()
	sum := 0
	for i, m := range r.Steps {
		bad := func(f string, a ...any) (Replay, error) {
			return rp, &IllegalError{Action: i, text: m.Action.String(), msg: fmt.Sprintf(f, a...)}
		}
		next := g // the game after the action, kept only if it is legal
		var reward int
		if m.Action.IsSlide() {
			if !next.SlideTurn() {
				return bad("a placement is due")
			}
			if reward, err = next.Slide(m.Action.Dir()); err != nil {
				return bad("%v", err)
			}
		} else {
			if next.SlideTurn() {
				return bad("a slide is due")
			}
			t, h := m.Action.Tile(), m.Action.Hint()
			if t < 1 || t > 3 {
				return bad("tile index %d cannot be placed (only 1, 2 and 3 are)", t)
			}
			if h < 1 || h > 3 {
				return bad("hint index %d is not 1, 2 or 3", h)
			}
			if reward, err = next.Place(m.Action.Pos(), t, h); err != nil {
				return bad("%v", err)
			}
		}
		if reward != m.Reward {
			return bad("recorded reward %d, the action's reward is %d", m.Reward, reward)
		}
		g, sum = next, sum+reward
		if m.Action.IsSlide() {
			rp.Slides++
			rp.SlideTime += m.Time
		} else {
			rp.Placements++
			rp.PlaceTime += m.Time
		}
	}
	if !g.SlideTurn() {
		return rp, &IllegalError{Action: len(r.Steps), msg: fmt.Sprintf("the game stops after action %d while a placement is due", len(r.Steps))}
	}
	after, _ := Moves(g.Board)
	for d := range 4 {
		if after[d] != g.Board {
			return rp, &IllegalError{Action: len(r.Steps), msg: fmt.Sprintf("the game stops after action %d while sliding %s is still legal", len(r.Steps), DirNames[d])}
		}
	}
	if score := BoardScore(g.Board); sum != score {
		// Cannot happen with the rules above; a guard for the tables.
		return rp, &IllegalError{Action: -1, msg: fmt.Sprintf("rewards sum to %d, the final board is worth %d", sum, score)}
	}
	if r.Winner != r.Placer {
		return rp, &IllegalError{Action: -1, msg: fmt.Sprintf("winner %q: the last move was the placer %q's", r.Winner, r.Placer)}
	}
	if r.Close < r.Open {
		return rp, &IllegalError{Action: -1, msg: fmt.Sprintf("the game closes at %d ms, before it opened at %d ms", r.Close, r.Open)}
	}
	return rp, nil
}
