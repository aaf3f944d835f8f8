package web

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/td2048/td2048/session"
)

// TestMovesFollowSession plays many games through the API with random
// directions, illegal ones too, beside sessions of the same seeds: every
// answer must be the session's move (legality, after-state, reward, new
// tile and its cell, the board, next tile, bag and score after it, the
// end), so that the page's games replay as package session plays them.
func TestMovesFollowSession(t *testing.T) {
	games := 30
	if testing.Short() {
		games = 5
	}
	for _, srv := range []*Server{newServer(t, nil), newThreesServer(t, nil)} {
		g := srv.cfg.Game
		moves := 0
		for i := range games {
			seed := uint64(i)*0x9e3779b97f4a7c15>>11 + 1
			var st State
			post(t, srv, "/api/new", fmt.Sprintf(`{"seed":%d}`, seed), &st)
			s, err := session.New(g, seed)
			if err != nil {
				t.Fatal(err)
			}
			sameState(t, g, 0, st, s)
			dirs := rand.New(rand.NewPCG(seed, 9))
			for n := 0; !s.Over(); {
				d := dirs.IntN(4)
				body := fmt.Sprintf(`{"board":%q,"dir":%q,"seed":%d,"n":%d`, st.Board, session.DirNames[d], seed, n)
				if g == session.GameThrees {
					bag, _ := json.Marshal(st.Bag)
					body += fmt.Sprintf(`,"next":%d,"bag":%s`, st.Next, bag)
				}
				var m MoveResult
				post(t, srv, "/api/move", body+"}", &m)
				r := s.Apply(d)
				after := ""
				if r.Legal {
					after = r.After.Hex()
					n++
					moves++
				}
				placed := 0
				if g == session.GameThrees && r.Legal {
					placed = r.Value
				}
				if m.Dir != session.DirNames[d] || m.Legal != r.Legal || m.After != after || m.Reward != r.Reward || m.Spawn != r.Cell ||
					m.Placed != placed || m.Overflow != r.Overflow {
					t.Fatalf("%s seed %d move %d %s: %+v, session %+v", g, seed, n, session.DirNames[d], m, r)
				}
				sameState(t, g, n, m.State, s)
				st = m.State
			}
		}
		t.Logf("%s: %d games, %d moves alike", g, games, moves)
	}
}

func sameState(t *testing.T, g string, n int, st State, s *session.Session) {
	t.Helper()
	var score *int
	var bag []int
	if g == session.GameThrees {
		sc := s.Score()
		score, bag = &sc, s.Bag().Tiles()
	}
	if st.Game != g || st.Board != s.Board().Hex() || st.Seed != s.Seed() || st.Over != s.Over() || st.Tiles != s.Tiles() ||
		st.Next != s.Next() || !slices.Equal(st.Bag, bag) || (st.Score == nil) != (score == nil) || score != nil && *st.Score != *score {
		t.Fatalf("%s seed %d move %d: state %+v, session %s next %d bag %v score %d over %v",
			g, s.Seed(), n, st, s.Board().Hex(), s.Next(), s.Bag(), s.Score(), s.Over())
	}
}
