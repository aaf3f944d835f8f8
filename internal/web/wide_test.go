package web

import (
	"testing"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/session"
)

// A 2048 game goes on past 32768 through the API: the move that merges
// two 32768s answers with the 65536 in the tiles and a board in the wide
// hex form, which the next request sends back; the agent decides on the
// board's view.
func TestPast32768ThroughAPI(t *testing.T) {
	s := newServer(t, nil)
	start := board.FromCells([16]int{15, 15, 0, 0, 1})
	var m MoveResult
	post(t, s, "/api/move", `{"board":"`+start.Hex()+`","dir":"left","seed":3,"n":10}`, &m)
	if !m.Legal || m.Reward != 65536 || !m.Overflow || m.Over || m.Tiles[0] != 65536 || m.After != "0x0001:0000000000010000" {
		t.Fatalf("the 65536 merge: %+v", m)
	}
	w, err := board.ParseWide(m.Board)
	if err != nil || w.At(0) != 16 {
		t.Fatalf("board %q: %s %v", m.Board, w.Hex(), err)
	}
	var a Agent
	post(t, s, "/api/agent", `{"board":"`+m.Board+`","depth":1}`, &a)
	v, _ := w.View(0)
	want := search.Greedy(trained(t), v)
	if a.Dir == nil || *a.Dir != session.DirNames[want.Dir] {
		t.Fatalf("agent %v, greedy on the view %d", a.Dir, want.Dir)
	}
	var m2 MoveResult
	post(t, s, "/api/move", `{"board":"`+m.Board+`","dir":"`+*a.Dir+`","seed":3,"n":11}`, &m2)
	if !m2.Legal {
		t.Fatalf("next move: %+v", m2)
	}
	found := false
	for _, v := range m2.Tiles {
		found = found || v == 65536
	}
	if !found {
		t.Fatalf("65536 gone: %v", m2.Tiles)
	}
}

// With serve --downgrade, a game's requests carry the downgrades under
// way: a move's answer counts on them as search.Downgrade.After does, the
// searches value the board lowered by them, and a server without
// downgrading refuses them.
func TestDowngradesThroughAPI(t *testing.T) {
	dg := search.Downgrade{Tile: 8, Stint: 0}
	s := newServer(t, func(c *Config) { c.Downgrade, c.Threads = dg, 2 })
	// 4 4 8 . left makes 8 and 8: reward 8 reaches the threshold and
	// the after-state holds 8: a trigger.
	b := board.FromCells([16]int{2, 2, 3, 0, 1})
	var m MoveResult
	post(t, s, "/api/move", `{"board":"`+b.Hex()+`","dir":"left","seed":3,"n":4,"downgrades":0}`, &m)
	if !m.Legal || m.Downgrades != dg.After(0, b, 3) || m.Downgrades != 1 {
		t.Fatalf("move: %+v", m)
	}
	var h Hint
	post(t, s, "/api/hint", `{"board":"`+m.Board+`","depth":2,"downgrades":1}`, &h)
	w, _ := board.ParseWide(m.Board)
	v, _ := w.View(1)
	if h.Board != v.Hex() || h.Board == m.Board {
		t.Fatalf("hint valued %s, want the view %s of %s", h.Board, v.Hex(), m.Board)
	}
	code, body, hdr := call(t, s, "POST", "/api/hint", `{"board":"`+m.Board+`","downgrades":16}`)
	jsonErr(t, "16 downgrades", code, body, hdr, 400, "downgrades 16")
	off := newServer(t, nil)
	code, body, hdr = call(t, off, "POST", "/api/agent", `{"board":"`+m.Board+`","downgrades":1}`)
	jsonErr(t, "downgrades without downgrading", code, body, hdr, 400, "without tile-downgrading")
	if _, err := New(Config{Net: trained(t), Downgrade: search.Downgrade{Tile: 100}}); err == nil {
		t.Fatal("a downgrade threshold of 100 accepted")
	}
}
