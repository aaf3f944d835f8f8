package web

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/threes"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/session"
	"github.com/td2048/td2048/stats"
)

var (
	threesOnce sync.Once
	threesNet  *ntuple.Network
)

// trainedThrees is a small Threes! network (four lines, one table set per
// hint) after a few hundred episodes.
func trainedThrees(t testing.TB) *ntuple.Network {
	t.Helper()
	threesOnce.Do(func() {
		threesNet = ntuple.MustNew("0123,4567,89ab,cdef+hint")
		if _, _, err := learn.TrainThrees(context.Background(), threesNet, learn.Config{Episodes: 300, Seed: 1, Threads: 1, Every: 100}); err != nil {
			panic(err)
		}
	})
	return threesNet
}

func newThreesServer(t testing.TB, edit func(*Config)) *Server {
	t.Helper()
	cfg := Config{Net: trainedThrees(t), Game: session.GameThrees, Network: "0123,4567,89ab,cdef+hint", Episodes: 300,
		TableBytes: 1 << 20, LoopbackOnly: true}
	if edit != nil {
		edit(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestThreesValidation(t *testing.T) {
	s := newThreesServer(t, nil)
	good := threes.Start(learn.NewRand(1, 0)).Board.Hex()
	pos := func(extra string) string { return `{"board":"` + good + `"` + extra + `}` }
	for _, c := range []struct {
		name, path, body string
		want             string
	}{
		{"next missing", "/api/move", pos(`,"dir":"up","bag":[1,2,3]`), "next is missing"},
		{"next missing in a hint", "/api/hint", pos(`,"depth":1`), "next is missing"},
		{"next missing for the agent", "/api/agent", pos(`,"depth":1`), "next is missing"},
		{"next 0", "/api/move", pos(`,"dir":"up","next":0,"bag":[1,2,3]`), "next 0: want the next tile, 1, 2 or 3"},
		{"next 4", "/api/hint", pos(`,"next":4`), "next 4: want the next tile"},
		{"next 6", "/api/agent", pos(`,"next":6,"bag":[1]`), "next 6"},
		{"next -1", "/api/move", pos(`,"dir":"up","next":-1,"bag":[1]`), "next -1"},
		{"next a string", "/api/move", pos(`,"dir":"up","next":"3","bag":[1]`), `field "next"`},
		{"bag missing in a move", "/api/move", pos(`,"dir":"up","next":3`), "bag is missing"},
		{"bag empty", "/api/move", pos(`,"dir":"up","next":3,"bag":[]`), "bag is empty"},
		{"bag empty in a hint", "/api/hint", pos(`,"next":3,"bag":[]`), "bag is empty"},
		{"bag holds 4", "/api/move", pos(`,"dir":"up","next":3,"bag":[1,4]`), "bag holds 4"},
		{"bag holds 0", "/api/agent", pos(`,"next":3,"bag":[0]`), "bag holds 0"},
		{"bag holds 6", "/api/hint", pos(`,"next":3,"bag":[6]`), "bag holds 6"},
		{"bag twice", "/api/move", pos(`,"dir":"up","next":3,"bag":[1,1]`), "bag holds 1 twice"},
		{"bag of four", "/api/move", pos(`,"dir":"up","next":3,"bag":[1,2,3,2]`), "bag holds 2 twice"},
		{"hint still in the bag", "/api/move", pos(`,"dir":"up","next":2,"bag":[1,2]`), "next 2 is still in the bag"},
		{"hint still in a one-tile bag", "/api/agent", pos(`,"next":3,"bag":[3]`), "next 3 is still in the bag"},
		{"bag not a list", "/api/move", pos(`,"dir":"up","next":3,"bag":7`), `field "bag"`},
		{"board cell 15", "/api/move", `{"board":"0xf","dir":"up","next":3,"bag":[1]}`, "no tile"},
		{"board with a 4", "/api/hint", `{"board":"4,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0","next":3}`, "4 is not a tile"},
		{"board missing", "/api/hint", `{"next":3}`, "board is missing"},
		{"bad dir", "/api/move", pos(`,"dir":"north","next":3,"bag":[1]`), "want up, right, down or left"},
		{"bad depth", "/api/hint", pos(`,"next":3,"depth":5`), "depth 5: want 1 to 4"},
		{"bad n", "/api/move", pos(`,"dir":"up","next":3,"bag":[1],"n":-1`), "n -1"},
		{"2048 on a Threes! server", "/api/new", `{"game":"2048"}`, "this server plays Threes! only"},
		{"2048 move on a Threes! server", "/api/move", `{"game":"2048","board":"` + good + `","dir":"up"}`, "Threes! only"},
		{"unknown game", "/api/new", `{"game":"chess"}`, `game "chess": want "2048" or "threes"`},
	} {
		code, body, h := call(t, s, "POST", c.path, c.body)
		jsonErr(t, c.name, code, body, h, 400, c.want)
	}

	// A Threes! request to a 2048 server is refused with a clear message;
	// so are the Threes! fields in a 2048 request.
	s2048 := newServer(t, nil)
	for _, c := range []struct{ name, path, body, want string }{
		{"new", "/api/new", `{"game":"threes","seed":1}`, "this server plays 2048 only"},
		{"move", "/api/move", `{"game":"threes","board":"` + good + `","dir":"up","next":3,"bag":[1,2],"seed":1,"n":0}`, "2048 only"},
		{"hint", "/api/hint", `{"game":"threes","board":"` + good + `","next":3,"depth":1}`, "serve Threes! weights to play Threes!"},
		{"agent", "/api/agent", `{"game":"threes","board":"` + good + `","next":3,"depth":1}`, "2048 only"},
		{"hint field", "/api/hint", `{"board":"0x1","next":3,"depth":1}`, "next and bag are fields of games with a next tile"},
		{"bag field", "/api/move", `{"board":"0x1","dir":"up","bag":[1]}`, "next and bag"},
	} {
		code, body, h := call(t, s2048, "POST", c.path, c.body)
		jsonErr(t, "2048 server, threes "+c.name, code, body, h, 400, c.want)
	}
	var info Info
	code, body, _ := call(t, s2048, "GET", "/api/info", "")
	if code != 200 || json.Unmarshal([]byte(body), &info) != nil || !slices.Equal(info.Games, []string{"2048"}) {
		t.Errorf("2048 info: %d %s", code, body)
	}
	code, body, _ = call(t, s, "GET", "/api/info", "")
	if code != 200 || json.Unmarshal([]byte(body), &info) != nil || !slices.Equal(info.Games, []string{"threes"}) || info.Network != "0123,4567,89ab,cdef+hint" {
		t.Errorf("threes info: %d %s", code, body)
	}

	// Every consistent hint and bag is accepted: a full bag with any
	// hint, a smaller one without it. Searches without a bag take the
	// full bag.
	for _, c := range []string{`"next":1,"bag":[1,2,3]`, `"next":2,"bag":[1,3]`, `"next":3,"bag":[2]`, `"next":1`} {
		if code, body, _ := call(t, s, "POST", "/api/hint", pos(`,"depth":1,`+c)); code != 200 {
			t.Errorf("%s: %d %s", c, code, body)
		}
	}
	// The server's game is the default.
	var st State
	post(t, s, "/api/new", `{"seed":3}`, &st)
	if st.Game != "threes" || st.Next < 1 || st.Next > 3 || len(st.Bag) == 0 || st.Score == nil {
		t.Errorf("new game without a game: %+v", st)
	}
	// Refused configurations.
	for _, cfg := range []Config{
		{Net: trainedThrees(t), Game: "chess"},
		{Net: trainedThrees(t), Game: session.GameThrees, Kind: search.State},
		{Net: ntuple.MustNew("0123@3"), Game: session.GameThrees},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("New(%s, %v, kind %d): no error", cfg.Net.Spec(), cfg.Game, cfg.Kind)
		}
	}
}

func bagOf(tiles []int) threes.Bag {
	var g threes.Bag
	for _, t := range tiles {
		g |= 1 << uint(t-1)
	}
	return g
}

func bagBody(tiles []int) string {
	b, _ := json.Marshal(tiles)
	return string(b)
}

// TestThreesGameThroughAPI plays whole Threes! games through the API, the
// agent choosing, and checks every step against the rules: the slide,
// the placement (on a free cell of the edge opposite the slide, the hinted
// tile), the bag (every three draws are 1, 2 and 3), the score (the
// board's value, which the rewards sum to), and the replay from the seed.
func TestThreesGameThroughAPI(t *testing.T) {
	s := newThreesServer(t, nil)
	net := trainedThrees(t)
	for _, seed := range []uint64{42, 7} {
		var st State
		post(t, s, "/api/new", `{"game":"threes","seed":`+fmt.Sprint(seed)+`}`, &st)
		start := threes.Start(learn.NewRand(seed, 0))
		b, err := threes.Parse(st.Board)
		if err != nil || b != start.Board || st.Game != "threes" || st.Seed != seed || st.Over ||
			st.Next != start.Next || bagOf(st.Bag) != start.Bag || st.Score == nil || *st.Score != threes.BoardScore(b) {
			t.Fatalf("new game: %+v, want %s hint %d bag %v", st, start.Board.Hex(), start.Next, start.Bag)
		}
		if b.Empty() != 16-threes.OpeningTiles {
			t.Fatalf("the opening placed %d tiles", 16-b.Empty())
		}
		// The hint after the opening is the 10th draw (the first tile
		// and nine hints): the first of a group of three.
		group := []int{st.Next}
		score := *st.Score
		replay := start
		var dirs []int
		var boards []string
		n := 0
		for ; !st.Over; n++ {
			if n > 20000 {
				t.Fatal("endless game")
			}
			body := `"board":"` + st.Board + `","next":` + fmt.Sprint(st.Next) + `,"bag":` + bagBody(st.Bag)
			var a Agent
			post(t, s, "/api/agent", `{"game":"threes",`+body+`,"depth":1}`, &a)
			want := search.GreedyThrees(net, b, st.Next)
			if a.Dir == nil || *a.Dir != threes.DirNames[want.Dir] {
				t.Fatalf("move %d: agent %v, greedy %d", n, a.Dir, want.Dir)
			}
			d := want.Dir
			if n%5 == 4 { // now and then another legal slide than the agent's
				for e := range 4 {
					if _, _, ok := threes.Move(b, (d+e+1)%4); ok {
						d = (d + e + 1) % 4
						break
					}
				}
			}
			var m MoveResult
			post(t, s, "/api/move", `{"game":"threes",`+body+`,"dir":"`+threes.DirNames[d]+`","seed":`+fmt.Sprint(seed)+`,"n":`+itoa(n)+`}`, &m)
			after, reward, legal := threes.Move(b, d)
			if !legal || !m.Legal || m.After != after.Hex() || m.Reward != reward {
				t.Fatalf("move %d %s: %+v, want after %s reward %d", n, threes.DirNames[d], m, after.Hex(), reward)
			}
			next, err := threes.Parse(m.Board)
			if err != nil {
				t.Fatal(err)
			}
			// Exactly one new tile, the hinted one, on a cell of the edge
			// opposite the slide that was empty after it.
			changed := -1
			for i := range 16 {
				if next.At(i) != after.At(i) {
					if changed >= 0 {
						t.Fatalf("move %d: cells %d and %d changed by the placement", n, changed, i)
					}
					changed = i
				}
			}
			if changed < 0 || changed != m.Spawn || after.At(changed) != 0 || m.Placed != st.Next || next.At(changed) != st.Next {
				t.Fatalf("move %d: placement at %d (spawn %d) of %d, hint was %d", n, changed, m.Spawn, m.Placed, st.Next)
			}
			if !slices.Contains(threes.EdgeCells(d), changed) {
				t.Fatalf("move %d: slide %s, tile placed on cell %d, not on %v", n, threes.DirNames[d], changed, threes.EdgeCells(d))
			}
			// The bag: each group of three draws is 1, 2, 3 in some order,
			// and the bag holds what its group has not drawn yet.
			if m.Next < 1 || m.Next > 3 {
				t.Fatalf("move %d: hint %d", n, m.Next)
			}
			if len(group) == 3 {
				group = group[:0]
			}
			if slices.Contains(group, m.Next) {
				t.Fatalf("move %d: hint %d drawn twice in the group %v", n, m.Next, group)
			}
			group = append(group, m.Next)
			wantBag := threes.FullBag
			if len(group) < 3 {
				wantBag = threes.FullBag &^ bagOf(group)
			}
			if bagOf(m.Bag) != wantBag || !slices.IsSorted(m.Bag) {
				t.Fatalf("move %d: bag %v after the draws %v of this group", n, m.Bag, group)
			}
			// The score is the board's value: what it was, plus the
			// slide's reward and the placed tile's.
			score += m.Reward + threes.Score(m.Placed)
			if m.Score == nil || *m.Score != threes.BoardScore(next) || *m.Score != score {
				t.Fatalf("move %d: score %v, board value %d, rewards sum to %d", n, m.Score, threes.BoardScore(next), score)
			}
			for i, v := range m.Tiles {
				if v != threes.Value(next.At(i)) {
					t.Fatalf("tiles %v of\n%s", m.Tiles, next.Format(threes.Code))
				}
			}
			if m.Over != threes.Over(next) || m.Seed != seed || m.Game != "threes" {
				t.Fatalf("move %d: %+v", n, m)
			}
			// The course's random placer, from the move's own stream.
			replay.SlideTo(after, d)
			replay.PlaceRandom(learn.NewRand(seed, uint64(n)+1))
			if replay.Board != next || replay.Next != m.Next || replay.Bag != bagOf(m.Bag) {
				t.Fatalf("move %d: not the placement of stream %d", n, n+1)
			}
			dirs = append(dirs, d)
			boards = append(boards, m.Board)
			b, st = next, m.State
		}
		if !threes.Over(b) || n < 20 || *st.Score == 0 {
			t.Fatalf("ended after %d moves, score %d:\n%s", n, *st.Score, b.Format(threes.Code))
		}
		t.Logf("seed %d: %d slides, score %d, best tile %d", seed, n, *st.Score, threes.Value(b.MaxTile()))
		// The game over: no agent move, every slide illegal and harmless.
		body := `"board":"` + st.Board + `","next":` + fmt.Sprint(st.Next) + `,"bag":` + bagBody(st.Bag)
		var a Agent
		post(t, s, "/api/agent", `{`+body+`,"depth":2}`, &a)
		if a.Dir != nil {
			t.Errorf("agent moves on a finished board: %s", *a.Dir)
		}
		var m MoveResult
		post(t, s, "/api/move", `{`+body+`,"dir":"left","seed":`+fmt.Sprint(seed)+`,"n":`+itoa(n)+`}`, &m)
		if m.Legal || !m.Over || m.Board != st.Board || m.Spawn != -1 || m.Next != st.Next || !slices.Equal(m.Bag, st.Bag) {
			t.Errorf("move on a finished board: %+v", m)
		}
		// The same seed and slides replay the same game.
		var rs State
		post(t, s, "/api/new", `{"game":"threes","seed":`+fmt.Sprint(seed)+`}`, &rs)
		for i, d := range dirs {
			var m MoveResult
			post(t, s, "/api/move", `{"board":"`+rs.Board+`","next":`+fmt.Sprint(rs.Next)+`,"bag":`+bagBody(rs.Bag)+`,"dir":"`+threes.DirNames[d]+`","seed":`+fmt.Sprint(seed)+`,"n":`+itoa(i)+`}`, &m)
			if m.Board != boards[i] {
				t.Fatalf("replay, move %d: %s, want %s", i, m.Board, boards[i])
			}
			rs = m.State
		}
		if !rs.Over || rs.Board != st.Board {
			t.Errorf("replay: %+v, want %s", rs, st.Board)
		}
	}
}

func TestThreesHintMatchesSearch(t *testing.T) {
	s := newThreesServer(t, func(c *Config) { c.MoveTime = time.Minute })
	net := trainedThrees(t)
	b, err := threes.Parse("1,2,3,0,0,3,0,0,6,0,0,1,0,2,0,12")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		hint int
		bag  []int
	}{{3, []int{1, 2}}, {1, []int{1, 2, 3}}, {2, []int{3}}} {
		t.Run(fmt.Sprintf("hint %d bag %v", c.hint, c.bag), func(t *testing.T) {
			g := threes.Game{Board: b, Next: c.hint, Bag: bagOf(c.bag), Last: threes.Anywhere, Actions: threes.OpeningTiles}
			for depth := 1; depth <= 3; depth++ {
				var h Hint
				post(t, s, "/api/hint", `{"game":"threes","board":"`+b.Hex()+`","next":`+itoa(c.hint)+`,"bag":`+bagBody(c.bag)+`,"depth":`+itoa(depth)+`}`, &h)
				want := search.NewThrees(net, search.Options{Depth: depth}, nil).Values(&g, depth)
				if h.Depth != depth || h.Requested != depth || h.Board != b.Hex() {
					t.Fatalf("hint %d depth %d: %+v", c.hint, depth, h)
				}
				best := -1
				for d, m := range h.Moves {
					w := want[d]
					if m.Dir != threes.DirNames[d] || m.Legal != w.Legal || (w.Legal && (float32(m.Total) != w.Total || m.Reward != int(w.Reward) || float32(m.Value) != w.Value)) {
						t.Errorf("hint %d depth %d %s: %+v, want %+v", c.hint, depth, m.Dir, m, w)
					}
					if w.Legal && (best < 0 || w.Total > want[best].Total) {
						best = d
					}
				}
				if h.Best == nil || *h.Best != threes.DirNames[best] {
					t.Errorf("hint %d depth %d: best %v, want %s", c.hint, depth, h.Best, threes.DirNames[best])
				}
				// The agent plays the best move at the depth asked.
				var a Agent
				post(t, s, "/api/agent", `{"board":"`+b.Hex()+`","next":`+itoa(c.hint)+`,"bag":`+bagBody(c.bag)+`,"depth":`+itoa(depth)+`}`, &a)
				if a.Dir == nil || *a.Dir != threes.DirNames[best] || a.Depth != depth || float32(a.Value) != want[best].Total {
					t.Errorf("agent at depth %d: %+v, want %s", depth, a, threes.DirNames[best])
				}
			}
		})
	}
	// With no time the search stays at depth 1.
	quick := newThreesServer(t, func(c *Config) { c.MoveTime = time.Nanosecond; c.TableBytes = 0 })
	g := threes.Game{Board: b, Next: 3, Bag: threes.FullBag}
	if h := quick.Values(session.Position{Board: g.Board, Next: g.Next, Bag: g.Bag}, 4); h.Depth != 1 || h.Requested != 4 || h.Best == nil {
		t.Errorf("hint with no time: %+v", h)
	}
	if a := quick.Choose(session.Position{Board: g.Board, Next: g.Next, Bag: g.Bag}, 4); a.Dir == nil || a.Depth != 1 {
		t.Errorf("agent with no time: %+v", a)
	}
}

// TestThreesCurve: a Threes! server draws the Threes! blocks of a log and
// their 3072 rate; a 2048 log gives it no points, and says so.
func TestThreesCurve(t *testing.T) {
	dir := t.TempDir()
	threesLog := filepath.Join(dir, "threes.jsonl")
	f, _ := os.Create(threesLog)
	for i := 1; i <= 3; i++ {
		var b stats.Block
		for g := range 10 {
			b.Add(1000*i+g, 11+i/2+g%2, 100) // indices 11..14: 768 to 6144
		}
		r := stats.NewRecord(int64(1000*i), &b, threes.TileValue)
		r.Game = "threes"
		stats.WriteRecord(f, r)
	}
	f.Close()
	s := newThreesServer(t, func(c *Config) { c.LogPath = threesLog })
	var c struct {
		Game   string
		Goal   int
		Other  int
		Points []curvePoint
	}
	code, body, _ := call(t, s, "GET", "/api/curve", "")
	if code != 200 || json.Unmarshal([]byte(body), &c) != nil || len(c.Points) != 3 || c.Goal != 3072 || c.Game != "threes" || c.Other != 0 {
		t.Fatalf("curve: %d %s", code, body)
	}
	// Block 1: indices 11 and 12 (768, 1536): no 3072. Block 3: 12 and 13.
	if c.Points[0].Reach != 0 || c.Points[2].Reach != 0.5 || c.Points[2].Avg != 3004.5 {
		t.Errorf("curve: %+v", c.Points)
	}
	if !strings.Contains(body, `"reach":0.5`) {
		t.Errorf("curve JSON: %s", body)
	}
	// The same log on a 2048 server: no points, all of another game.
	s2048 := newServer(t, func(c *Config) { c.LogPath = threesLog })
	_, body, _ = call(t, s2048, "GET", "/api/curve", "")
	if json.Unmarshal([]byte(body), &c) != nil || len(c.Points) != 0 || c.Other != 3 || c.Goal != 2048 {
		t.Errorf("threes log on a 2048 server: %s", body)
	}
}

// TestThreesBoardTiles: a Threes! state shows face values, and a board
// given by values or by hex is the same.
func TestThreesBoardTiles(t *testing.T) {
	s := newThreesServer(t, nil)
	b, _ := threes.Parse("1,2,3,6,12,24,48,96,192,384,768,1536,3072,6144,0,0")
	var h1, h2 Hint
	post(t, s, "/api/hint", `{"board":"1,2,3,6,12,24,48,96,192,384,768,1536,3072,6144,0,0","next":1,"depth":1}`, &h1)
	post(t, s, "/api/hint", `{"board":"`+b.Hex()+`","next":1,"depth":1}`, &h2)
	if h1.Board != b.Hex() || h2.Board != b.Hex() {
		t.Errorf("boards %s %s, want %s", h1.Board, h2.Board, b.Hex())
	}
	ss, err := session.Resume(session.GameThrees, 1, 0, session.Position{Board: b, Next: 2, Bag: threes.FullBag})
	if err != nil {
		t.Fatal(err)
	}
	st := stateOf(ss)
	if st.Tiles != [16]int{1, 2, 3, 6, 12, 24, 48, 96, 192, 384, 768, 1536, 3072, 6144, 0, 0} {
		t.Errorf("tiles %v", st.Tiles)
	}
	if *st.Score != threes.BoardScore(b) || st.Over != threes.Over(b) || !slices.Equal(st.Bag, []int{1, 2, 3}) {
		t.Errorf("state %+v", st)
	}
}
