// Package session plays one game of 2048 or Threes! move by move, from a
// seed: it starts the game, applies a move and reports what happened (the
// after-state, the reward, the new tile and its cell, in Threes! the next
// tile, the end of the game), and replays a game from its seed and moves.
// The terminal view and the web page play through it and only translate
// keys and JSON.
//
// # The replay rule
//
// The random tiles of the game with seed s come from numbered streams:
// stream 0 (Stream(s, 0)) draws the start, and stream k (Stream(s, k))
// draws the new tile after the k-th move, k = 1, 2, .... A move's tile
// therefore depends only on the seed, the move's number and the board
// before it, so a game replays exactly from its seed and its moves, and
// a game can be resumed at any move from its position alone (Resume):
// the web server, which keeps no state, does so at every request.
//
// In 2048 the start is game2048.Start on stream 0, and after a legal slide
// game2048.Spawn puts a 2 or a 4 on an empty cell. In Threes! the start is
// threes.Start (the nine-tile opening), and after a legal slide
// threes.Game.PlaceRandom puts the next tile on a free cell of the edge
// opposite the slide and draws the following next tile from the bag.
//
// # Words
//
// The next tile of a Threes! game (the tile the next placement puts down,
// which the player sees) is called Next here; package threes calls it the
// hint (threes.Game.Hint), a name this package leaves to move advice. A
// move is a slide in one of the four directions (0 up, 1 right, 2 down,
// 3 left, as in packages game and threes) with its new tile; an illegal
// slide is no move and changes nothing.
package session

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/rules/threes"
)

// The games a session plays, by the names the faces use.
const (
	Game2048   = "2048"
	GameThrees = "threes"
)

// Stream returns the random stream number k of the game with seed seed:
// stream 0 draws the start, stream k >= 1 the new tile after the k-th
// move. Training draws from the same generators (episode.NewRand).
func Stream(seed uint64, k int) *rand.PCG {
	s := uint64(k)
	return rand.NewPCG(mix(seed, s), mix(^seed, s))
}

// mix is a SplitMix64 step of seed and stream: nearby seeds and streams
// give unrelated generators.
func mix(seed, stream uint64) uint64 {
	z := seed + 0x9e3779b97f4a7c15*(stream+1)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// A Position is what a game's future depends on besides its seed and its
// move number: the board, and in Threes! the next tile and the bag.
type Position struct {
	Board board.Board
	// Ext is 2048's extra bit plane (zero in Threes!): bit i is set when
	// cell i holds 65536 or more, Board holding the low four bits of its
	// exponent (board.Wide). A 2048 game goes on past 32768 on it.
	Ext uint16
	// Threes! only (zero in 2048): the next tile (1, 2 or 3) and the
	// tiles not yet drawn, which never include Next unless the bag is
	// full (it was just refilled).
	Next int
	Bag  threes.Bag
	// Score is the game's score: in 2048 the sum of the slides' rewards,
	// in Threes! the board's value (threes.BoardScore).
	Score int
	// Downgrades is the number of tile-downgrades under way in a 2048
	// game played with downgrading (search.Downgrade; 0 without): the
	// board a network reads is lowered by that many gaps (View). A
	// Session does not change it; the player that downgrades follows it
	// (search.Downgrade.After).
	Downgrades int
}

// ThreesGame is p as the Threes! game a search or a placement works on:
// a slide is due, and the next placement goes where the slide decides.
func (p Position) ThreesGame() threes.Game {
	return threes.Game{Board: p.Board, Next: p.Next, Bag: p.Bag, Last: threes.Anywhere, Actions: threes.OpeningTiles}
}

// View is the board a network reads for the position: Board, but in a
// 2048 game past 32768 or with downgrades under way the board with its
// large tiles lowered into the gaps below them (board.Wide.View), by at
// least Downgrades gaps. Its legal moves are the game's.
func (p Position) View() board.Board {
	v, _ := board.Wide{Low: p.Board, Ext: p.Ext}.View(p.Downgrades)
	return v
}

// A Result is what a move did.
type Result struct {
	Legal bool // false: the slide changes nothing, and nothing changed
	// After is the board right after the slide, before the new tile;
	// Reward the slide's reward: in 2048 its merges (65536 and up
	// counted at their values), in Threes! the change in the board's value (the
	// placed tile's value then counts in Score, not in Reward).
	After  board.Board
	Reward int
	// Cell is the cell (0..15) of the new tile, -1 for none (an illegal
	// slide); tile its index on the
	// board and Value its face value (2 or 4; in Threes! 1, 2 or 3).
	Cell, tile, Value int
	// Board is the board after the move, new tile included.
	Board board.Board
	// Next is the next tile after the move (Threes! only).
	Next int
	// AfterExt is the extra plane of After (2048 only, see Position.Ext).
	AfterExt uint16
	// Over: the game has ended. Overflow: this 2048 slide made the game's
	// first tile past 32768 (65536 or more): from it on the board uses its
	// extra plane, and the network reads the board's view (board.Wide.View).
	Over, Overflow bool
	// Score is the game's score after the move.
	Score int
}

// AfterHex is After in the hex form of Session.Hex: with its extra plane
// when it holds a tile past 32768.
func (r Result) AfterHex() string { return hexOf(board.Wide{Low: r.After, Ext: r.AfterExt}) }

// A Session is one game being played. Its methods are not safe for
// concurrent use.
type Session struct {
	rules rules
	seed  uint64
	n     int // moves made in the game
	pos   Position
	sl    slides   // pos's slides, found once a position
	legal [4]bool  // the slides that change pos's board: none once the game is over
	hist  []int    // the directions of this session's moves
	rng   rand.PCG // the stream of the move under way, kept here so a move allocates none
}

// rules is the per-game part of a session.
type rules interface {
	name() string
	start(rng *rand.PCG) Position
	check(p *Position) error // checks a position to resume, completing its Score
	slides(p Position) slides
	// apply plays the legal slide of p in direction d, whose after-state
	// and reward are sl's, and adds the new tile drawn from rng; it fills
	// res (Legal, After, AfterExt, Reward, Cell, Tile, Overflow).
	apply(p *Position, d int, sl *slides, rng *rand.PCG, res *Result)
	code() board.Code
}

// slides are a position's four slides: their after-states (with 2048's
// extra plane) and rewards.
type slides struct {
	after  [4]board.Wide
	reward [4]int
}

func rulesOf(game string) (rules, error) {
	switch game {
	case Game2048:
		return twenty48{}, nil
	case GameThrees:
		return threesRules{}, nil
	}
	return nil, fmt.Errorf("session: game %q: want %q or %q", game, Game2048, GameThrees)
}

// Check checks a position of the game named game, as Resume does, and
// completes its Score where the board alone sets it (Threes!).
func Check(game string, p *Position) error {
	r, err := rulesOf(game)
	if err != nil {
		return err
	}
	return r.check(p)
}

// New starts the game named game (Game2048 or GameThrees) with seed seed.
func New(game string, seed uint64) (*Session, error) {
	r, err := rulesOf(game)
	if err != nil {
		return nil, err
	}
	s := &Session{rules: r, seed: seed, pos: r.start(Stream(seed, 0))}
	s.found()
	return s, nil
}

// Resume returns the game with seed seed at position p after n moves, as
// if it had been played there: its next move is move n+1 and draws from
// Stream(seed, n+1). A Threes! position's Score may be left 0 (it is the
// board's value); other than that a position the game cannot reach in
// this form is an error: a 2048 one with a next tile or a bag, a
// Threes! one whose board holds a cell no tile has, whose next tile is
// not 1, 2 or 3, or whose bag is empty or (not full) holds the next tile.
// A resumed game ends when no slide is legal.
func Resume(game string, seed uint64, n int, p Position) (*Session, error) {
	r, err := rulesOf(game)
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, fmt.Errorf("session: move number %d is negative", n)
	}
	if err := r.check(&p); err != nil {
		return nil, fmt.Errorf("session: %v", err)
	}
	s := &Session{rules: r, seed: seed, n: n, pos: p}
	s.found()
	return s, nil
}

// found notes the slides of a new position and which are legal: the
// game is over when none is (in both games).
func (s *Session) found() {
	s.sl = s.rules.slides(s.pos)
	w := s.wide()
	s.legal = [4]bool{s.sl.after[0] != w, s.sl.after[1] != w, s.sl.after[2] != w, s.sl.after[3] != w}
}

// Replay plays the moves dirs of the game with seed seed from its start.
// Every move must be legal and come before the game's end; else Replay
// returns the error and the game as far as it went.
func Replay(game string, seed uint64, dirs []int) (*Session, error) {
	s, err := New(game, seed)
	if err != nil {
		return nil, err
	}
	for i, d := range dirs {
		if d < 0 || d > 3 {
			return s, fmt.Errorf("session: move %d: no direction %d", i+1, d)
		}
		if s.Over() {
			return s, fmt.Errorf("session: move %d: the game ended after move %d", i+1, i)
		}
		if !s.Apply(d).Legal {
			return s, fmt.Errorf("session: move %d: %s changes nothing", i+1, DirNames[d])
		}
	}
	return s, nil
}

// DirNames are the directions' names in direction order (board's).
var DirNames = board.DirNames

// errDir is the panic of a move in no direction.
var errDir = errors.New("session: a direction is 0 (up) to 3 (left)")

// Apply plays a slide in direction d (0 up, 1 right, 2 down, 3 left) and
// its new tile, drawn from Stream(seed, Len()+1). A slide that changes
// nothing, or any slide once the game is over, is not a move: the result
// says it is not legal and the session is unchanged.
func (s *Session) Apply(d int) Result {
	if d < 0 || d > 3 {
		panic(errDir)
	}
	res := Result{After: s.pos.Board, Cell: -1}
	if s.legal[d] { // never once the game is over
		k := s.n + 1
		s.rng.Seed(mix(s.seed, uint64(k)), mix(^s.seed, uint64(k))) // Stream(s.seed, k)
		s.rules.apply(&s.pos, d, &s.sl, &s.rng, &res)
		s.n = k
		s.hist = append(s.hist, d)
		s.found()
	}
	if res.tile > 0 {
		res.Value = s.rules.code().Value(res.tile)
	}
	res.Board, res.Next, res.Score = s.pos.Board, s.pos.Next, s.pos.Score
	res.Over = s.Over()
	return res
}

// Game is the name of the game played: Game2048 or GameThrees.
func (s *Session) Game() string { return s.rules.name() }

// Seed is the game's seed.
func (s *Session) Seed() uint64 { return s.seed }

// Len is the number of moves made in the game: the length of its
// history, the moves before a Resume included.
func (s *Session) Len() int { return s.n }

// History lists the directions of the moves made through this session:
// the game's last len(History()) moves, all of them unless the session
// was resumed after some. The slice is the caller's.
func (s *Session) History() []int { return append([]int(nil), s.hist...) }

// Position is the game's position: board, next tile, bag and score.
func (s *Session) Position() Position { return s.pos }

// Board is the board between moves.
func (s *Session) Board() board.Board { return s.pos.Board }

// Next is the next tile of a Threes! game (1, 2 or 3; 0 in 2048).
func (s *Session) Next() int { return s.pos.Next }

// Bag is the tiles of a Threes! game not yet drawn (empty in 2048).
func (s *Session) Bag() threes.Bag { return s.pos.Bag }

// Score is the game's score: in 2048 the sum of the rewards, in Threes!
// the board's value.
func (s *Session) Score() int { return s.pos.Score }

// Over reports whether the game has ended: no slide is legal.
func (s *Session) Over() bool { return s.legal == [4]bool{} }

// Moves reports which directions are legal moves now: none once the game
// is over.
func (s *Session) Moves() [4]bool { return s.legal }

// Code is the game's tile code: tile indices to face values.
func (s *Session) Code() board.Code { return s.rules.code() }

// Tiles are the face values of the board's sixteen cells, row by row from
// the top left (0 for empty).
func (s *Session) Tiles() [16]int {
	var t [16]int
	c := s.rules.code()
	for i := range t {
		t[i] = max(c.Value(s.Cell(i)), 0)
	}
	return t
}

// Cell is the tile index of cell i, the code's (Code): in 2048 past 15
// for 65536 and up, which Board alone does not hold.
func (s *Session) Cell(i int) int { return s.wide().At(i) }

// MaxTile is the index of the largest tile on the board (past 15 in 2048
// for 65536 and up).
func (s *Session) MaxTile() int { return s.wide().MaxTile() }

// wide is the board with its extra plane (zero in Threes!).
func (s *Session) wide() board.Wide { return board.Wide{Low: s.pos.Board, Ext: s.pos.Ext} }

// Hex is the board in the hex form ParseBoard reads: Board's, or with
// the extra plane when some tile is past 32768 (board.Wide.Hex).
func (s *Session) Hex() string { return hexOf(s.wide()) }

// hexOf is w as Hex writes it: its low board's form when no tile is past
// 32768.
func hexOf(w board.Wide) string {
	if w.Ext == 0 {
		return w.Low.Hex()
	}
	return w.Hex()
}
