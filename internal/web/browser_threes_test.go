package web

import (
	"context"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// tab is a headless chromium tab for a test.
type tab struct {
	t   *testing.T
	ctx context.Context
}

// newTab starts a headless chromium with a tab that times out after
// timeout; the test ends both.
func newTab(t *testing.T, timeout time.Duration) *tab {
	t.Helper()
	exe := chromium(t)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		// Its singleton socket goes to TMPDIR, and would stay in /tmp.
		chromedp.Env("TMPDIR="+t.TempDir()),
		chromedp.WindowSize(1200, 900),
	)
	t.Cleanup(cancelAlloc)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(cancelTab)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	t.Cleanup(cancel)
	return &tab{t, ctx}
}

func (b *tab) do(what string, a ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, a...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

func (b *tab) eval(expr string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		b.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

func (b *tab) wait(what, expr string) {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(20*time.Second), chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		b.t.Fatalf("waiting for %s (%s): %v", what, expr, err)
	}
}

func (b *tab) num(expr string) int {
	b.t.Helper()
	s := b.eval(expr)
	n, err := strconv.Atoi(s)
	if err != nil {
		b.t.Fatalf("%s: %q is no number", expr, s)
	}
	return n
}

func (b *tab) moves() int { return b.num(`document.getElementById("moves").textContent`) }

// TestBrowserThrees drives the page of a server with Threes! weights:
// the Threes! board and colours, the next tile, the arrow keys (each
// slide places the hinted tile on the edge opposite it), hints, the agent
// playing a game to its end, one begun by keys and ended by the agent
// (a mixed game), and the Threes! statistics. With
// TD2048_SCREENSHOT_THREES=FILE.png it also saves a screenshot.
func TestBrowserThrees(t *testing.T) {
	b := newTab(t, 90*time.Second)
	ts := httptest.NewServer(newThreesServer(t, nil))
	defer ts.Close()

	b.do("load the page", chromedp.Navigate(ts.URL+"/"))
	b.wait("the page to start", `document.body.dataset.ready === "1"`)
	if got := b.eval(`document.body.dataset.game + " " + document.getElementById("game").value`); got != "threes threes" {
		t.Fatalf("game: %q", got)
	}
	if got := b.eval(`[...document.getElementById("game").options].map(o => o.value + (o.disabled ? "-off" : "-on")).join(" ")`); got != "2048-off threes-on" {
		t.Errorf("game choices: %q", got)
	}
	if net := b.eval(`document.getElementById("net").textContent`); !strings.HasPrefix(net, "network 0123,4567,89ab,cdef+hint for Threes!") {
		t.Errorf("network line: %q", net)
	}
	if got := b.eval(`[...document.querySelectorAll("#stats th.rate")].map(h => h.textContent).join(" ")`); got != "1536 3072 6144" {
		t.Errorf("statistics columns: %q", got)
	}
	// The opening: nine tiles of 1, 2 and 3, in Threes! colours.
	if got := b.eval(`document.querySelectorAll("#board .tile").length + " " + document.querySelectorAll("#board .tile.th1, #board .tile.th2, #board .tile.th3").length`); got != "16 9" {
		t.Fatalf("new board: %q (cells, tiles)", got)
	}
	colours := b.eval(`(() => {
		const out = [];
		for (const c of ["th1", "th2", "th3"]) {
			const e = document.querySelector("#board .tile." + c);
			if (e) { const s = getComputedStyle(e); out.push(c + ":" + s.backgroundColor + "/" + s.color); }
		}
		const empty = [...document.querySelectorAll("#board .tile")].find(e => e.dataset.value === "0");
		out.push("empty:" + getComputedStyle(empty).backgroundColor);
		return out.join(" ");
	})()`)
	t.Logf("colours: %s", colours)
	for _, want := range []string{"th1:rgb(102, 204, 255)/rgb(255, 255, 255)", "th2:rgb(255, 102, 128)/rgb(255, 255, 255)", "th3:rgb(255, 255, 255)/rgb(38, 38, 38)", "empty:rgb(207, 230, 230)"} {
		if strings.HasPrefix(want, "empty") || strings.Contains(b.eval(`String(!!document.querySelector("#board .tile.`+want[:3]+`"))`), "true") {
			if !strings.Contains(colours, want) {
				t.Errorf("colours %q lack %q", colours, want)
			}
		}
	}
	// The next tile is shown, as the page holds it, in its colour.
	next := func() string {
		t.Helper()
		return b.eval(`(() => {
			const n = document.getElementById("next"), box = document.getElementById("next-box");
			return (box.hidden ? "hidden" : "shown") + " " + n.textContent + " " + n.className + " " + page.st.next;
		})()`)
	}
	if got := next(); !slices.Contains([]string{"shown 1 tile mini th1 1", "shown 2 tile mini th2 2", "shown 3 tile mini th3 3"}, got) {
		t.Fatalf("next tile: %q", got)
	}
	if got := b.eval(`document.getElementById("score").textContent === String(page.st.score) ? "ok" : "no"`); got != "ok" {
		t.Errorf("score %s, state %s", b.eval(`document.getElementById("score").textContent`), b.eval(`String(page.st.score)`))
	}

	// The arrow keys slide; each slide places the next tile on the edge
	// opposite it, and a new next tile comes.
	start := b.eval(`document.getElementById("board").dataset.board`)
	edges := map[string][]int{kb.ArrowUp: {12, 13, 14, 15}, kb.ArrowRight: {0, 4, 8, 12}, kb.ArrowDown: {0, 1, 2, 3}, kb.ArrowLeft: {3, 7, 11, 15}}
	moved := 0
	for _, k := range []string{kb.ArrowLeft, kb.ArrowUp, kb.ArrowRight, kb.ArrowDown, kb.ArrowLeft, kb.ArrowUp, kb.ArrowLeft, kb.ArrowDown} {
		before := b.moves()
		hint := b.eval(`String(page.st.next)`)
		b.do("press a key", chromedp.KeyEvent(k))
		b.wait("the move to end", `document.body.dataset.busy === "0"`)
		m := b.moves()
		if m == before {
			continue
		}
		if m != before+1 {
			t.Fatalf("one key made %d moves", m-before)
		}
		moved++
		spawn := b.num(`String(page.spawn)`)
		if !slices.Contains(edges[k], spawn) {
			t.Errorf("key %q: tile placed on cell %d, not on %v", k, spawn, edges[k])
		}
		if got := b.eval(`(() => { const c = document.querySelectorAll("#board .tile")[page.spawn]; return c.dataset.value + " " + c.classList.contains("new"); })()`); got != hint+" true" {
			t.Errorf("key %q: the new tile is %q, the hint was %s", k, got, hint)
		}
		if got := next(); !strings.HasPrefix(got, "shown ") || !strings.HasSuffix(got, " "+b.eval(`String(page.st.next)`)) {
			t.Errorf("next tile after a move: %q", got)
		}
	}
	if moved == 0 {
		t.Fatal("no key moved the board")
	}
	if bd := b.eval(`document.getElementById("board").dataset.board`); bd == start {
		t.Fatalf("the board did not change: %s", bd)
	}

	// A hint for the board on screen: four rows with values, one best.
	b.do("choose depth 3", chromedp.SetValue(chromedp.CSS("#depth"), "3"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("depth").dispatchEvent(new Event("change"))`))
	b.wait("a depth-3 hint for this board", `document.getElementById("hint").dataset.board === document.getElementById("board").dataset.board && document.getElementById("hint-note").textContent.startsWith("depth 3")`)
	hint := b.eval(`[...document.querySelectorAll("#hint tbody tr")].map(r => r.dataset.dir + "=" + r.querySelector(".v").textContent).join(" ")`)
	t.Logf("hint: %s", hint)
	if n := b.eval(`String([...document.querySelectorAll("#hint tbody tr .v")].filter(c => c.textContent !== "").length)`); n != "4" {
		t.Errorf("hint shows %s of 4 values: %s", n, hint)
	}
	if n := b.eval(`String(document.querySelectorAll("#hint tr.best").length)`); n != "1" {
		t.Errorf("%s moves marked best", n)
	}
	if legal := b.eval(`String([...document.querySelectorAll("#hint tbody tr")].filter(r => r.dataset.value !== "" && isFinite(Number(r.dataset.value))).length)`); legal == "0" {
		t.Errorf("no legal move has a value: %s", hint)
	}

	// The agent plays: the move count grows; then pause.
	b.do("go faster", chromedp.Click(chromedp.CSS("#faster")), chromedp.Click(chromedp.CSS("#faster")))
	before := b.moves()
	b.do("start the agent", chromedp.Click(chromedp.CSS("#play")))
	b.wait("the agent's moves", `Number(document.getElementById("moves").textContent) >= `+strconv.Itoa(before+10)+` || document.getElementById("board").dataset.over === "1"`)
	b.do("pause the agent", chromedp.Click(chromedp.CSS("#play")))
	time.Sleep(300 * time.Millisecond)
	paused := b.moves()
	time.Sleep(300 * time.Millisecond)
	if m := b.moves(); m != paused || paused <= before {
		t.Errorf("agent: %d moves before, %d paused, %d after the pause", before, paused, m)
	}

	// A new game, which the agent plays to its end at full speed, greedily:
	// the game over shows the score, and the statistics count the game.
	b.do("new game", chromedp.Click(chromedp.CSS("#new")))
	b.wait("a new game", `document.getElementById("moves").textContent === "0"`)
	b.do("depth 1", chromedp.SetValue(chromedp.CSS("#depth"), "1"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("depth").dispatchEvent(new Event("change"))`))
	for b.eval(`String(document.getElementById("faster").disabled)`) == "false" {
		b.do("faster", chromedp.Click(chromedp.CSS("#faster")))
	}
	b.do("start the agent", chromedp.Click(chromedp.CSS("#play")))
	b.wait("the game's end", `document.getElementById("stats").querySelector('tr[data-who="agent"] td:nth-child(2)').textContent === "1"`)
	b.do("pause the agent", chromedp.Click(chromedp.CSS("#play")))
	row := b.eval(`[...document.getElementById("stats").querySelector('tr[data-who="agent"]').children].map(c => c.textContent).join("|")`)
	t.Logf("statistics: %s", row)
	f := strings.Split(row, "|")
	if len(f) != 7 || f[1] != "1" || f[2] != f[3] || f[2] == "" || !strings.HasSuffix(f[4], "%") {
		t.Errorf("agent statistics: %q", row)
	}

	// A game of two moves by keys and the rest by the agent is neither's
	// alone: the statistics count it as mixed, apart from the agent's.
	b.do("new game", chromedp.Click(chromedp.CSS("#new")))
	b.wait("a new game", `document.getElementById("moves").textContent === "0"`)
	for _, k := range []string{kb.ArrowLeft, kb.ArrowUp, kb.ArrowRight, kb.ArrowDown, kb.ArrowLeft, kb.ArrowUp} {
		if b.moves() == 2 {
			break
		}
		b.do("press a key", chromedp.KeyEvent(k))
		b.wait("the move to end", `document.body.dataset.busy === "0"`)
	}
	if m := b.moves(); m != 2 {
		t.Fatalf("%d moves by keys, want 2", m)
	}
	b.do("start the agent", chromedp.Click(chromedp.CSS("#play")))
	b.wait("the game's end", `page.stats.length === 2`)
	b.do("pause the agent", chromedp.Click(chromedp.CSS("#play")))
	counts := b.eval(`[...document.querySelectorAll("#stats tbody tr")].map(r => r.dataset.who + "=" + r.children[1].textContent).join(" ") + " / " + page.stats.map(g => g.who + ":" + g.moves).join(" ")`)
	t.Logf("statistics: %s", counts)
	if !strings.HasPrefix(counts, "agent=1 you=0 mixed=1 all=2 / agent:") || !strings.Contains(counts, " mixed:") || strings.HasSuffix(counts, " mixed:2") {
		t.Errorf("statistics after an agent's game and one of 2 moves by keys and the rest by the agent: %q", counts)
	}

	if path := os.Getenv("TD2048_SCREENSHOT_THREES"); path != "" {
		b.do("new game", chromedp.Click(chromedp.CSS("#new")))
		b.wait("a new game", `document.getElementById("moves").textContent === "0"`)
		b.do("depth 2", chromedp.SetValue(chromedp.CSS("#depth"), "2"),
			chromedp.Evaluate[chromedp.Void](`document.getElementById("depth").dispatchEvent(new Event("change"))`))
		for range 24 {
			if b.eval(`document.getElementById("board").dataset.over`) == "1" {
				break
			}
			b.do("step", chromedp.KeyEvent("s"))
			b.wait("the move to end", `document.body.dataset.busy === "0"`)
		}
		b.wait("the hint", `document.body.dataset.busy === "0" && document.getElementById("hint").dataset.board === document.getElementById("board").dataset.board`)
		time.Sleep(300 * time.Millisecond)
		png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot in %s", path)
	}
}

// TestBrowserOneGame: a 2048 server's page offers 2048 alone; Threes! is
// shown but cannot be chosen.
func TestBrowserOneGame(t *testing.T) {
	b := newTab(t, 45*time.Second)
	ts := httptest.NewServer(newServer(t, nil))
	defer ts.Close()
	b.do("load the page", chromedp.Navigate(ts.URL+"/"))
	b.wait("the page to start", `document.body.dataset.ready === "1"`)
	got := b.eval(`[...document.getElementById("game").options].map(o => o.value + (o.disabled ? "-off" : "-on") + ":" + o.textContent).join(" ")`)
	if got != "2048-on:2048 threes-off:Threes! (needs Threes! weights)" {
		t.Errorf("game choices: %q", got)
	}
	if got := b.eval(`document.body.dataset.game + " " + document.getElementById("next-box").hidden + " " + document.getElementById("rules").hidden`); got != "2048 true true" {
		t.Errorf("2048 page: %q (game, next tile hidden, rules hidden)", got)
	}
}
