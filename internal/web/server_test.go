package web

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/game2048"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/session"
	"github.com/td2048/td2048/stats"
)

var (
	netOnce sync.Once
	testNet *ntuple.Network
)

// trained returns a small network trained for a few hundred episodes: the
// 8x4 lines, a few hundred kilobytes.
func trained(t testing.TB) *ntuple.Network {
	t.Helper()
	netOnce.Do(func() {
		testNet = ntuple.MustNew("8x4")
		learn.Train(context.Background(), testNet, learn.Config{Episodes: 300, Seed: 1, Threads: 1, Every: 300})
	})
	return testNet
}

func newServer(t testing.TB, edit func(*Config)) *Server {
	t.Helper()
	cfg := Config{Net: trained(t), Network: "8x4", Episodes: 300, TableBytes: 1 << 20, LoopbackOnly: true}
	if edit != nil {
		edit(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// call sends one request to h and returns the status and the body.
func call(t testing.TB, h http.Handler, method, path, body string) (int, string, http.Header) {
	t.Helper()
	var r *http.Request
	if body == "" {
		r = httptest.NewRequest(method, path, nil)
	} else {
		r = httptest.NewRequest(method, path, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
	}
	r.Host = "127.0.0.1:8048"
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code, w.Body.String(), w.Header()
}

// jsonErr checks an answer is status code with a one-line JSON message
// containing want.
func jsonErr(t *testing.T, what string, code int, body string, h http.Header, wantCode int, want string) {
	t.Helper()
	if code != wantCode {
		t.Errorf("%s: status %d, want %d (%s)", what, code, wantCode, body)
		return
	}
	if ct := h.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("%s: Content-Type %q", what, ct)
	}
	var e struct{ Error string }
	if err := json.Unmarshal([]byte(body), &e); err != nil || e.Error == "" {
		t.Errorf("%s: body %q is no JSON error", what, body)
		return
	}
	if strings.Contains(e.Error, "\n") || !strings.Contains(e.Error, want) {
		t.Errorf("%s: error %q, want one line with %q", what, e.Error, want)
	}
}

func TestValidation(t *testing.T) {
	s := newServer(t, nil)
	good := board.Board(0).Set(0, 1).Set(1, 1).Set(5, 3).Hex()
	for _, c := range []struct {
		name, method, path, body string
		code                     int
		want                     string
	}{
		{"bad board", "POST", "/api/hint", `{"board":"0xzz","depth":1}`, 400, "not hex"},
		{"long hex board", "POST", "/api/move", `{"board":"0x12345678123456789","dir":"up"}`, 400, "16 hex digits"},
		{"board not a tile", "POST", "/api/hint", `{"board":"3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0"}`, 400, "not a tile"},
		{"board missing", "POST", "/api/hint", `{"depth":1}`, 400, "board is missing"},
		{"board empty", "POST", "/api/hint", `{"board":"0x0000000000000000","depth":1}`, 400, "an empty board is not a position of 2048"},
		{"board a number", "POST", "/api/hint", `{"board":5}`, 400, `field "board"`},
		{"depth 0", "POST", "/api/hint", `{"board":"` + good + `","depth":0}`, 400, "depth 0: want 1 to 4"},
		{"depth 5", "POST", "/api/agent", `{"board":"` + good + `","depth":5}`, 400, "want 1 to 4"},
		{"depth huge", "POST", "/api/agent", `{"board":"` + good + `","depth":1e30}`, 400, `field "depth"`},
		{"bad dir", "POST", "/api/move", `{"board":"` + good + `","dir":"sideways"}`, 400, "want up, right, down or left"},
		{"bad game", "POST", "/api/new", `{"game":"threes"}`, 400, "2048 only"},
		{"seed too big", "POST", "/api/new", `{"seed":9007199254740992}`, 400, "seed"},
		{"negative seed", "POST", "/api/new", `{"seed":-1}`, 400, `field "seed"`},
		{"bad n", "POST", "/api/move", `{"board":"` + good + `","dir":"up","n":-3}`, 400, "n -3"},
		{"unknown field", "POST", "/api/new", `{"sead":1}`, 400, "unknown field"},
		{"not JSON", "POST", "/api/new", `{seed:1}`, 400, "bad JSON"},
		{"two objects", "POST", "/api/new", `{} {}`, 400, "data after the object"},
		{"empty body", "POST", "/api/hint", ``, 415, "Content-Type"},
		{"oversized body", "POST", "/api/hint", `{"board":"` + strings.Repeat(" ", 2*MaxBody) + `"}`, 413, "larger than"},
		{"oversized padding", "POST", "/api/new", `{}` + strings.Repeat(" ", 2*MaxBody), 413, "larger than"},
		{"wrong method", "GET", "/api/hint", ``, 405, "wants POST"},
		{"wrong method 2", "DELETE", "/api/info", ``, 405, "wants GET"},
		{"no such API", "GET", "/api/nothing", ``, 404, "no API"},
	} {
		code, body, h := call(t, s, c.method, c.path, c.body)
		jsonErr(t, c.name, code, body, h, c.code, c.want)
	}
	// A body that is not the object wanted is answered in plain words:
	// no Go type, no words of encoding/json.
	for _, c := range []struct{ name, path, body, want string }{
		{"a list", "/api/new", `[]`, "a list, want an object"},
		{"a string", "/api/new", `"x"`, "a string, want an object"},
		{"bare NaN", "/api/hint", `{"board":"` + good + `","depth":NaN}`, "not valid JSON at byte"},
		{"cut short", "/api/new", `{`, "ends early"},
		{"unknown field", "/api/new", `{"foo":1}`, `unknown field "foo"`},
		{"seed a string", "/api/move", `{"board":"` + good + `","dir":"up","seed":"1"}`, `field "seed": a string, want a whole number, 0 or more`},
		{"bag of halves", "/api/hint", `{"board":"` + good + `","bag":[1.5]}`, `field "bag": 1.5, want a whole number`},
	} {
		code, body, h := call(t, s, "POST", c.path, c.body)
		jsonErr(t, c.name, code, body, h, 400, c.want)
		for _, leak := range []string{"json:", "Go ", "web.", "uint64", "invalid character", "looking for"} {
			if strings.Contains(body, leak) {
				t.Errorf("%s: %s names %q", c.name, body, leak)
			}
		}
	}
	// An empty JSON body with the right type.
	r := httptest.NewRequest("POST", "/api/new", strings.NewReader(""))
	r.Header.Set("Content-Type", "application/json")
	r.Host = "localhost"
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	jsonErr(t, "empty JSON body", w.Code, w.Body.String(), w.Header(), 400, "empty")
	// Another content type.
	r = httptest.NewRequest("POST", "/api/new", strings.NewReader("seed=1"))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Host = "localhost"
	w = httptest.NewRecorder()
	s.ServeHTTP(w, r)
	jsonErr(t, "form body", w.Code, w.Body.String(), w.Header(), 415, "JSON")
	if got := w.Header().Get("Allow"); got != "" {
		t.Errorf("Allow on 415: %q", got)
	}
}

func TestHostChecked(t *testing.T) {
	s := newServer(t, nil)
	for host, ok := range map[string]bool{
		"127.0.0.1:8048": true, "localhost:8048": true, "[::1]:8048": true, "127.0.0.2": true, "LOCALHOST": true,
		"evil.example:8048": false, "10.0.0.1:8048": false, "": false,
	} {
		t.Run(host, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/api/info", nil)
			r.Host = host
			w := httptest.NewRecorder()
			s.ServeHTTP(w, r)
			if (w.Code == 200) != ok {
				t.Errorf("Host %q: status %d", host, w.Code)
			}
			if !ok && w.Code != http.StatusMisdirectedRequest {
				t.Errorf("Host %q: status %d, want 421", host, w.Code)
			}
		})
	}
	open := newServer(t, func(c *Config) { c.LoopbackOnly = false })
	r := httptest.NewRequest("GET", "/api/info", nil)
	r.Host = "my-machine.lan:8048"
	w := httptest.NewRecorder()
	open.ServeHTTP(w, r)
	if w.Code != 200 {
		t.Errorf("open server: status %d", w.Code)
	}
}

// TestPathTraversal asks for files outside the embedded assets in every
// way a path can be spelt, over a real connection so that no client cleans
// the path first.
func TestPathTraversal(t *testing.T) {
	ts := httptest.NewServer(newServer(t, nil))
	defer ts.Close()
	passwd, _ := os.ReadFile("/etc/passwd")
	self, _ := os.ReadFile("server.go")
	for _, p := range []string{
		"/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/%2e%2e/", "/static/../../etc/passwd",
		"/static/%2e%2e/%2e%2e/etc/passwd", "/static/..%2f..%2fetc%2fpasswd", "/static/%2e%2e%2fserver.go",
		"/static/..%5c..%5cetc%5cpasswd", "/static/....//....//etc/passwd", "/etc/passwd", "/static//etc/passwd",
		"/static/", "/static", "/static/.", "/static/./app.js/", "/server.go", "/static/server.go",
		"/static/%00", "/static/app.js%00.html", "//etc/passwd", "/web/server.go", "/static/static/app.js",
	} {
		t.Run(p, func(t *testing.T) {
			conn, err := net.Dial("tcp", ts.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			io.WriteString(conn, "GET "+p+" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
			conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			raw, _ := io.ReadAll(conn)
			conn.Close()
			resp := string(raw)
			status := strings.SplitN(resp, "\r\n", 2)[0]
			if strings.Contains(status, " 200 ") {
				t.Errorf("GET %s: %s", p, status)
			}
			leaks := func(resp string) bool {
				return (len(passwd) > 0 && strings.Contains(resp, string(passwd[:min(len(passwd), 20)]))) ||
					strings.Contains(resp, "root:") || strings.Contains(resp, string(self[:40]))
			}
			if leaks(resp) {
				t.Errorf("GET %s leaked a file: %.200s", p, resp)
			}
			// A cleaned path is a redirect; where it leads is no file either.
			if strings.Contains(status, " 30") {
				loc := ""
				for _, line := range strings.Split(resp, "\r\n") {
					if v, ok := strings.CutPrefix(line, "Location: "); ok {
						loc = v
					}
				}
				r2, err := http.Get(ts.URL + loc)
				if err != nil {
					t.Fatalf("GET %s -> %s: %v", p, loc, err)
				}
				body, _ := io.ReadAll(r2.Body)
				r2.Body.Close()
				if r2.StatusCode == 200 || leaks(string(body)) {
					t.Errorf("GET %s -> %s: %d %.200s", p, loc, r2.StatusCode, body)
				}
			}
		})
	}
	// What is there is served, with its type.
	for p, ct := range map[string]string{"/": "text/html", "/static/app.js": "javascript", "/static/style.css": "text/css"} {
		t.Run(p, func(t *testing.T) {
			resp, err := http.Get(ts.URL + p)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), ct) || len(body) < 100 {
				t.Errorf("GET %s: %d %q %d bytes", p, resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
			}
			if resp.Header.Get("Content-Security-Policy") == "" || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("GET %s: security headers missing", p)
			}
		})
	}
}

// TestPageIsSelfContained: nothing on the page comes from elsewhere.
func TestPageIsSelfContained(t *testing.T) {
	s := newServer(t, nil)
	for name, a := range s.assets {
		text := string(a.data)
		for _, bad := range []string{"http://", "https://", "//cdn", "@import", "@font-face", "url("} {
			if name == "app.js" && bad == "http://" && strings.Count(text, "http://") == 1 && strings.Contains(text, `"http://www.w3.org/2000/svg"`) {
				continue // the SVG namespace, a name and no fetch
			}
			if strings.Contains(text, bad) {
				t.Errorf("%s contains %q", name, bad)
			}
		}
	}
	if len(s.assets) < 3 {
		t.Errorf("assets: %d", len(s.assets))
	}
}

func post(t *testing.T, h http.Handler, path, body string, v any) {
	t.Helper()
	code, out, _ := call(t, h, "POST", path, body)
	if code != 200 {
		t.Fatalf("POST %s %s: %d %s", path, body, code, out)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("POST %s: %v in %s", path, err, out)
	}
}

// TestGameThroughAPI plays a game to its end through the API, the agent
// choosing, and checks it against the rules and its replay.
func TestGameThroughAPI(t *testing.T) {
	s := newServer(t, nil)
	var st State
	post(t, s, "/api/new", `{"seed":42}`, &st)
	b, err := board.Parse(st.Board)
	if err != nil || b != game2048.Start(learn.NewRand(42, 0)) || st.Seed != 42 || st.Over {
		t.Fatalf("new game: %+v", st)
	}
	score, n := 0, 0
	rng := learn.NewRand(42, 0)
	game2048.Start(rng)
	for ; !st.Over; n++ {
		var a Agent
		post(t, s, "/api/agent", `{"board":"`+st.Board+`","depth":1}`, &a)
		want := search.Greedy(trained(t), b)
		if a.Dir == nil || *a.Dir != game2048.DirNames[want.Dir] {
			t.Fatalf("move %d: agent %v, greedy %d", n, a.Dir, want.Dir)
		}
		var m MoveResult
		post(t, s, "/api/move", `{"board":"`+st.Board+`","dir":"`+*a.Dir+`","seed":42,"n":`+itoa(n)+`}`, &m)
		after, reward, legal := game2048.Move(b, want.Dir)
		if !m.Legal || m.After != after.Hex() || m.Reward != reward || !legal {
			t.Fatalf("move %d: %+v", n, m)
		}
		next := game2048.Spawn(after, learn.NewRand(42, uint64(n)+1))
		if m.Board != next.Hex() || m.Spawn < 0 || after.At(m.Spawn) != 0 || next.At(m.Spawn) == 0 {
			t.Fatalf("move %d: board %s spawn %d, want %s", n, m.Board, m.Spawn, next.Hex())
		}
		for i, v := range m.Tiles {
			if v != board.Pow2.Value(next.At(i)) {
				t.Fatalf("tiles %v of %s", m.Tiles, next)
			}
		}
		score += m.Reward
		b, st = next, m.State
		if n > 100000 {
			t.Fatal("endless game")
		}
	}
	if !game2048.Over(b) || n < 20 || score == 0 {
		t.Fatalf("ended after %d moves, score %d:\n%s", n, score, b)
	}
	// No move on a finished board: the agent says so, a move is illegal.
	var a Agent
	post(t, s, "/api/agent", `{"board":"`+st.Board+`","depth":2}`, &a)
	if a.Dir != nil {
		t.Errorf("agent moves on a finished board: %s", *a.Dir)
	}
	var m MoveResult
	post(t, s, "/api/move", `{"board":"`+st.Board+`","dir":"up","seed":42,"n":`+itoa(n)+`}`, &m)
	if m.Legal || !m.Over || m.Board != st.Board || m.Spawn != -1 {
		t.Errorf("move on a finished board: %+v", m)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestHintMatchesSearch(t *testing.T) {
	s := newServer(t, func(c *Config) { c.MoveTime = time.Minute })
	b, _ := board.Parse("2,2,0,4,0,8,0,0,0,0,0,0,0,0,0,2")
	for depth := 1; depth <= 3; depth++ {
		var h Hint
		post(t, s, "/api/hint", `{"board":"`+b.Hex()+`","depth":`+itoa(depth)+`}`, &h)
		want := search.NewSearcher(trained(t), search.Options{Depth: depth}, nil).Values(b, depth)
		if h.Depth != depth || h.Requested != depth || h.Board != b.Hex() {
			t.Fatalf("depth %d: %+v", depth, h)
		}
		best := ""
		for d, m := range h.Moves {
			w := want[d]
			if m.Dir != game2048.DirNames[d] || m.Legal != w.Legal || (w.Legal && (float32(m.Total) != w.Total || m.Reward != int(w.Reward))) {
				t.Errorf("depth %d %s: %+v, want %+v", depth, m.Dir, m, w)
			}
			if m.Legal && (best == "" || m.Total > h.Moves[dirIndex(best)].Total) {
				best = m.Dir
			}
		}
		if h.Best == nil || *h.Best != best {
			t.Errorf("depth %d: best %v, want %s", depth, h.Best, best)
		}
	}
	// Illegal moves: up and left do nothing on this board.
	var h Hint
	post(t, s, "/api/hint", `{"board":"2,4,0,0,0,0,0,0,0,0,0,0,0,0,0,0"}`, &h)
	if h.Moves[0].Legal || h.Moves[3].Legal || !h.Moves[1].Legal || !h.Moves[2].Legal || h.Depth != 1 {
		t.Errorf("hint: %+v", h)
	}
}

func dirIndex(s string) int {
	for d, n := range game2048.DirNames {
		if n == s {
			return d
		}
	}
	return -1
}

// TestTimeBudget: with a tiny budget the deep searches stop early and say
// how deep they went; depth 1 always finishes.
func TestTimeBudget(t *testing.T) {
	s := newServer(t, func(c *Config) { c.MoveTime = time.Nanosecond; c.TableBytes = 0 })
	b, _ := board.Parse("2,0,0,4,0,8,0,0,0,0,2,0,0,0,0,2")
	h := s.Values(session.Position{Board: b}, 4)
	if h.Depth != 1 || h.Requested != 4 || h.Best == nil {
		t.Errorf("hint with no time: %+v", h)
	}
	a := s.Choose(session.Position{Board: b}, 4)
	if a.Dir == nil || a.Depth < 1 || a.Depth > 4 {
		t.Errorf("agent with no time: %+v", a)
	}
}

// TestBusy: with every search place taken, a search request waits its
// QueueWait and gets 503; cheap requests still pass.
func TestBusy(t *testing.T) {
	s := newServer(t, func(c *Config) { c.MaxSearches = 1; c.QueueWait = 20 * time.Millisecond })
	s.searches <- struct{}{}
	code, body, h := call(t, s, "POST", "/api/hint", `{"board":"0x1","depth":1}`)
	jsonErr(t, "busy", code, body, h, 503, "busy")
	if h.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	if code, _, _ := call(t, s, "POST", "/api/new", `{}`); code != 200 {
		t.Errorf("new game while searches are busy: %d", code)
	}
	<-s.searches
	if code, body, _ := call(t, s, "POST", "/api/hint", `{"board":"0x1","depth":1}`); code != 200 {
		t.Errorf("after: %d %s", code, body)
	}
	// The cap on requests in progress.
	for range cap(s.requests) {
		s.requests <- struct{}{}
	}
	code, body, h = call(t, s, "GET", "/api/info", "")
	jsonErr(t, "requests busy", code, body, h, 503, "busy")
}

// TestConcurrentSearches runs many searches at once through a real server
// (with -race, this checks that requests share nothing unsafely).
func TestConcurrentSearches(t *testing.T) {
	ts := httptest.NewServer(newServer(t, func(c *Config) { c.MaxSearches = 2 }))
	defer ts.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path := "/api/hint"
			if i%2 == 1 {
				path = "/api/agent"
			}
			resp, err := http.Post(ts.URL+path, "application/json", strings.NewReader(`{"board":"2,2,0,4,0,8,0,0,0,0,0,0,0,0,0,2","depth":3}`))
			if err != nil {
				errs <- err
				return
			}
			defer resp.Body.Close()
			if resp.StatusCode != 200 {
				b, _ := io.ReadAll(resp.Body)
				errs <- errors.New(resp.Status + " " + string(b))
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestCurve(t *testing.T) {
	s := newServer(t, nil)
	code, body, h := call(t, s, "GET", "/api/curve", "")
	jsonErr(t, "no log", code, body, h, 404, "--log")

	path := filepath.Join(t.TempDir(), "log.jsonl")
	f, _ := os.Create(path)
	for i := 1; i <= 3; i++ {
		var b stats.Block
		for g := range 10 {
			b.Add(1000*i+g, 9+i+g%2, 100)
		}
		stats.WriteRecord(f, stats.NewRecord(int64(1000*i), &b, stats.Pow2))
	}
	f.Close()
	s = newServer(t, func(c *Config) { c.LogPath = path })
	var c struct{ Points []curvePoint }
	code, body, _ = call(t, s, "GET", "/api/curve", "")
	if code != 200 || json.Unmarshal([]byte(body), &c) != nil || len(c.Points) != 3 {
		t.Fatalf("curve: %d %s", code, body)
	}
	if p := c.Points[2]; p.Episodes != 3000 || p.Avg != 3004.5 || p.Reach != 1 || c.Points[0].Reach != 0.5 {
		t.Errorf("curve: %+v", c.Points)
	}
	// The log grows while training runs: the page sees the new block.
	f, _ = os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	var b stats.Block
	b.Add(5000, 11, 100)
	stats.WriteRecord(f, stats.NewRecord(4000, &b, stats.Pow2))
	f.Close()
	os.Chtimes(path, time.Now().Add(time.Second), time.Now().Add(time.Second))
	call(t, s, "GET", "/api/curve", "")
	_, body, _ = call(t, s, "GET", "/api/curve", "")
	if json.Unmarshal([]byte(body), &c) != nil || len(c.Points) != 4 {
		t.Errorf("curve after a block: %s", body)
	}
	// A missing or bad log is refused at the start.
	if _, err := New(Config{Net: trained(t), LogPath: filepath.Join(t.TempDir(), "none")}); err == nil {
		t.Error("missing log accepted")
	}
	os.WriteFile(path, []byte("{\"episodes\":1}\nnot json\n"), 0o644)
	if _, err := New(Config{Net: trained(t), LogPath: path}); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("bad log: %v", err)
	}
	os.WriteFile(path, []byte("{\"episodes\":1000,\"avg\":1.7e308}\n"), 0o644)
	if _, err := New(Config{Net: trained(t), LogPath: path}); err == nil || !strings.Contains(err.Error(), "line 1: mean score 1.7e+308") {
		t.Errorf("a score of 1.7e308: %v", err)
	}
}

// TestServeShutsDown: Serve answers until its context ends, then lets the
// request under way finish and returns nil.
func TestServeShutsDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	started, release := make(chan struct{}), make(chan struct{})
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
		io.WriteString(w, "done")
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, slow, 5*time.Second) }()
	got := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/")
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got <- string(b)
	}()
	<-started
	cancel()
	time.Sleep(50 * time.Millisecond)
	if _, err := net.Dial("tcp", ln.Addr().String()); err == nil {
		t.Error("new connections accepted while shutting down")
	}
	close(release)
	if s := <-got; s != "done" {
		t.Errorf("request under way: %q", s)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return")
	}
}

// TestSlowClientsTakeNoPlace: clients that send their bodies a byte at a
// time hold no search place while they send, so that a search asked for
// meanwhile is answered at once rather than with 503; they are answered
// too once their bodies have come.
func TestSlowClientsTakeNoPlace(t *testing.T) {
	s := newServer(t, func(c *Config) { c.MaxSearches = 1; c.MaxRequests = 2; c.QueueWait = 300 * time.Millisecond })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	entered := make(chan string, 8)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- r.Header.Get("X-Client")
		s.ServeHTTP(w, r)
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, h, time.Second) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	}()

	// Two slow clients send their headers at once and their bodies at a
	// byte every 40 ms: about a second each, within the read deadline.
	body := `{"board":"0x1","depth":1}`
	slow := make(chan string, 2)
	for i := range 2 {
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		go func() {
			fmt.Fprintf(conn, "POST /api/hint HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Client: slow%d\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", i, len(body))
			for j := range len(body) {
				if _, err := conn.Write([]byte{body[j]}); err != nil {
					slow <- err.Error()
					return
				}
				time.Sleep(40 * time.Millisecond)
			}
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				slow <- err.Error()
				return
			}
			resp.Body.Close()
			slow <- resp.Status
		}()
	}
	for range 2 {
		select {
		case <-entered:
		case <-time.After(5 * time.Second):
			t.Fatal("the slow requests did not reach the handler")
		}
	}

	// Meanwhile searches and a new game are answered, though the slow
	// requests are as many as the places for requests in progress.
	for _, path := range []string{"/api/hint", "/api/agent", "/api/new"} {
		req := body
		if path == "/api/new" {
			req = `{}`
		}
		resp, err := http.Post("http://"+ln.Addr().String()+path, "application/json", strings.NewReader(req))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("%s while two clients send slowly: %s %s", path, resp.Status, b)
		}
	}
	for range 2 {
		if got := <-slow; got != "200 OK" {
			t.Errorf("slow client: %s", got)
		}
	}
}

// TestSlowBodyTimesOut: a body that does not come within the read
// deadline is answered 408, and takes no search place.
func TestSlowBodyTimesOut(t *testing.T) {
	s := newServer(t, func(c *Config) { c.MaxSearches = 1 })
	ts := httptest.NewUnstartedServer(s)
	ts.Config.ReadTimeout = 200 * time.Millisecond
	ts.Start()
	defer ts.Close()
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(conn, "POST /api/hint HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 25\r\n\r\n{\"board\"")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	jsonErr(t, "slow body", resp.StatusCode, string(b), resp.Header, http.StatusRequestTimeout, "too slowly")
	if n := len(s.searches); n != 0 {
		t.Errorf("%d search places taken", n)
	}
}

// TestServeAbandonsHalfSentRequests: at shutdown, connections that are
// idle, that have sent half a request's headers, or the headers and half
// the body, hold nothing up: Serve returns nil well within its grace
// (the read deadline alone would hold the half-sent body for 10 s).
func TestServeAbandonsHalfSentRequests(t *testing.T) {
	s := newServer(t, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	entered := make(chan struct{}, 8)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		s.ServeHTTP(w, r)
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, h, 5*time.Second) }()

	dial := func() (net.Conn, *bufio.Reader) {
		t.Helper()
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		c.SetDeadline(time.Now().Add(10 * time.Second))
		return c, bufio.NewReader(c)
	}
	// An idle connection, kept alive after one request.
	idle, idleR := dial()
	io.WriteString(idle, "GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	resp, err := http.ReadResponse(idleR, nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("info: %v %v", resp, err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	<-entered
	// Half the headers.
	headers, _ := dial()
	io.WriteString(headers, "POST /api/hint HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty")
	// The headers and half the body, which reaches the handler.
	body, bodyR := dial()
	io.WriteString(body, "POST /api/hint HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 25\r\n\r\n{\"board\":")
	select {
	case <-entered:
	case <-time.After(5 * time.Second):
		t.Fatal("the half-sent body did not reach the handler")
	}

	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
		t.Logf("stopped in %v", time.Since(start))
	case <-time.After(2 * time.Second):
		t.Errorf("Serve did not return within 2s of the cancel; it returned %v after %v", <-done, time.Since(start))
	}
	// The half-sent request is answered 503 or cut off; the connections
	// are closed (reset, when the server closed it before reading what
	// the client sent: half headers whose reading had not begun).
	if resp, err := http.ReadResponse(bodyR, nil); err == nil {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		jsonErr(t, "half-sent body at shutdown", resp.StatusCode, string(b), resp.Header, 503, "stopping")
	}
	for name, c := range map[string]net.Conn{"idle": idle, "half headers": headers, "half body": body} {
		t.Run(name, func(t *testing.T) {
			c.SetReadDeadline(time.Now().Add(2 * time.Second))
			if n, err := io.Copy(io.Discard, c); err != nil && !errors.Is(err, syscall.ECONNRESET) {
				t.Errorf("%s connection: not closed (%d bytes, %v)", name, n, err)
			}
		})
	}
}

// TestServeCutsOffAfterGrace: a request that runs past the grace is cut
// off, and Serve returns nil only once its handler has returned.
func TestServeCutsOffAfterGrace(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	var returned atomic.Bool
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		time.Sleep(500 * time.Millisecond)
		returned.Store(true)
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, slow, 50*time.Millisecond) }()
	got := make(chan error, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/")
		if err == nil {
			resp.Body.Close()
		}
		got <- err
	}()
	<-started
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
		if !returned.Load() {
			t.Error("Serve returned while a handler ran")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return")
	}
	if err := <-got; err == nil {
		t.Error("the request cut off was answered")
	}
}

// With MCTS configured the hints are MCTS's: each legal move's visits,
// adding up to the iterations, the most visited the best (ties to the
// higher total); the same
// request gets the same answer.
func TestHintMCTS(t *testing.T) {
	mo := search.DefaultMCTS()
	mo.Iterations = 120
	s := newServer(t, func(c *Config) {
		c.MoveTime, c.Threads = time.Minute, 2
		c.MCTS = search.Options{Method: search.MethodMCTS, MCTS: mo}
	})
	b := "0x1000000000302011"
	var h, again Hint
	post(t, s, "/api/hint", `{"board":"`+b+`","depth":2}`, &h)
	post(t, s, "/api/hint", `{"board":"`+b+`","depth":2}`, &again)
	sum, best := int64(0), -1
	for d, m := range h.Moves {
		if m.Legal && m.Visits == 0 {
			t.Fatalf("%s not visited: %+v", m.Dir, h)
		}
		sum += m.Visits
		if m.Legal && (best < 0 || m.Visits > h.Moves[best].Visits || m.Visits == h.Moves[best].Visits && m.Total > h.Moves[best].Total) {
			best = d
		}
	}
	if sum != 120 || h.Best == nil || *h.Best != h.Moves[best].Dir || h.Moves != again.Moves {
		t.Fatalf("hint %+v, then %+v", h, again)
	}
}
