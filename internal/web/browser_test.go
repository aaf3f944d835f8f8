package web

import (
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// chromium returns the browser to drive: Debian's chromium. Without one
// the test is skipped, except under CI (CI set), where it must run.
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/chromium", "chromium", "chromium-browser"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed, and CI is set: the browser test must run (apt-get install -y chromium)")
	}
	t.Skip("chromium is not installed (apt-get install -y chromium); skipping the browser test")
	return ""
}

// TestBrowser drives the page in headless chromium as a person would: the
// arrow keys move the board, the agent plays on its own, a hint shows four
// values. With TD2048_SCREENSHOT=FILE.png it also saves a screenshot.
func TestBrowser(t *testing.T) {
	ctx := newTab(t, 45*time.Second).ctx
	ts := httptest.NewServer(newServer(t, nil))
	defer ts.Close()

	do := func(what string, a ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, a...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	eval := func(expr string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}
	wait := func(what, expr string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(15*time.Second), chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
			t.Fatalf("waiting for %s (%s): %v", what, expr, err)
		}
	}
	moves := func() int {
		t.Helper()
		n, err := strconv.Atoi(eval(`document.getElementById("moves").textContent`))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}

	do("load the page", chromedp.Navigate(ts.URL+"/"))
	wait("the page to start", `document.body.dataset.ready === "1"`)
	if got := eval(`document.querySelectorAll("#board .tile").length + " " + document.querySelectorAll("#board .tile.t1, #board .tile.t2").length`); got != "16 2" {
		t.Fatalf("new board: %q (tiles, tiles of 2 or 4)", got)
	}
	// The curve of absurd values (past what the server reads) draws a
	// few ticks and returns: its loops count ticks.
	if n := eval(`drawCurve({points: [{episodes: 1000, avg: 1.7e308, max: 1, reach: 0.5}], goal: 2048, other: 0}), String(document.querySelectorAll("#curve line.grid").length)`); n != "11" {
		t.Errorf("curve of a score of 1.7e308: %s grid lines, want 11", n)
	}
	if net := eval(`document.getElementById("net").textContent`); net == "" || net[:11] != "network 8x4" {
		t.Errorf("network line: %q", net)
	}
	// With a mouse, the help speaks of keys.
	if help := eval(visibleHelpJS); !strings.Contains(help, "arrow keys") || strings.Contains(help, "swipe on the board") {
		t.Errorf("help with a mouse: %q", help)
	}

	// The arrow keys move the board.
	start := eval(`document.getElementById("board").dataset.board`)
	for _, k := range []string{kb.ArrowLeft, kb.ArrowUp, kb.ArrowRight, kb.ArrowDown, kb.ArrowLeft, kb.ArrowUp} {
		before := moves()
		do("press a key", chromedp.KeyEvent(k))
		// A legal key adds a move; an illegal one changes nothing. Wait
		// for the page to be idle again either way.
		wait("the move to end", `document.body.dataset.busy === "0"`)
		if m := moves(); m != before && m != before+1 {
			t.Fatalf("one key made %d moves", m-before)
		}
	}
	wait("moves from the keys", `Number(document.getElementById("moves").textContent) > 0`)
	if b := eval(`document.getElementById("board").dataset.board`); b == start {
		t.Fatalf("the board did not change: %s", b)
	}
	if eval(`String(Number(document.getElementById("score").textContent) >= 0)`) != "true" {
		t.Error("no score")
	}

	// A hint for the board on screen: four rows with values, one best.
	do("choose depth 3", chromedp.SetValue(chromedp.CSS("#depth"), "3"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("depth").dispatchEvent(new Event("change"))`))
	wait("a depth-3 hint for this board", `document.getElementById("hint").dataset.board === document.getElementById("board").dataset.board && document.getElementById("hint-note").textContent.startsWith("depth 3")`)
	hint := eval(`[...document.querySelectorAll("#hint tbody tr")].map(r => r.dataset.dir + "=" + r.querySelector(".v").textContent).join(" ")`)
	t.Logf("hint: %s", hint)
	if n := eval(`String(document.querySelectorAll("#hint tbody tr").length)`); n != "4" {
		t.Fatalf("hint rows: %s", n)
	}
	if n := eval(`String([...document.querySelectorAll("#hint tbody tr .v")].filter(c => c.textContent !== "").length)`); n != "4" {
		t.Errorf("hint shows %s of 4 values: %s", n, hint)
	}
	if n := eval(`String(document.querySelectorAll("#hint tr.best").length)`); n != "1" {
		t.Errorf("%s moves marked best", n)
	}
	if legal := eval(`String([...document.querySelectorAll("#hint tbody tr")].filter(r => r.dataset.value !== "" && isFinite(Number(r.dataset.value))).length)`); legal == "0" {
		t.Errorf("no legal move has a value: %s", hint)
	}

	// The agent plays on its own: the move count grows, then pauses.
	do("go faster", chromedp.Click(chromedp.CSS("#faster")), chromedp.Click(chromedp.CSS("#faster")))
	before := moves()
	do("start the agent", chromedp.Click(chromedp.CSS("#play")))
	wait("the agent's moves", `Number(document.getElementById("moves").textContent) >= `+strconv.Itoa(before+10)+` || document.getElementById("board").dataset.over === "1"`)
	if eval(`document.getElementById("board").dataset.playing`) != "1" {
		t.Error("not marked as playing")
	}
	do("pause the agent", chromedp.Click(chromedp.CSS("#play")))
	if eval(`document.getElementById("board").dataset.playing`) != "0" {
		t.Error("still marked as playing")
	}
	time.Sleep(300 * time.Millisecond)
	paused := moves()
	time.Sleep(300 * time.Millisecond)
	if m := moves(); m != paused {
		t.Errorf("the agent went on after pause: %d then %d moves", paused, m)
	}
	if paused <= before {
		t.Errorf("the agent made no move: %d then %d", before, paused)
	}
	// One step is one move.
	if eval(`document.getElementById("board").dataset.over`) == "0" {
		do("step", chromedp.Click(chromedp.CSS("#step")))
		wait("one step", `Number(document.getElementById("moves").textContent) === `+strconv.Itoa(paused+1))
	}

	// A swipe on the board is a move too.
	swipe := func(dx, dy int) string {
		return `(() => {
			const b = document.getElementById("board"), r = b.getBoundingClientRect();
			const x = r.left + r.width / 2, y = r.top + r.height / 2;
			const t = (cx, cy) => new Touch({identifier: 1, target: b, clientX: cx, clientY: cy});
			b.dispatchEvent(new TouchEvent("touchstart", {touches: [t(x, y)], changedTouches: [t(x, y)], bubbles: true}));
			b.dispatchEvent(new TouchEvent("touchend", {touches: [], changedTouches: [t(x + ` + strconv.Itoa(dx) + `, y + ` + strconv.Itoa(dy) + `)], bubbles: true}));
			return "ok";
		})()`
	}
	if eval(`typeof TouchEvent === "function" && typeof Touch === "function" ? "yes" : "no"`) == "yes" {
		swiped := false
		for _, d := range [][2]int{{-120, 0}, {0, 120}, {120, 0}, {0, -120}} {
			if eval(`document.getElementById("board").dataset.over`) == "1" {
				break
			}
			before := moves()
			eval(swipe(d[0], d[1]))
			wait("the swipe's move to end", `document.body.dataset.busy === "0"`)
			if moves() == before+1 {
				swiped = true
				break
			}
		}
		if !swiped && eval(`document.getElementById("board").dataset.over`) != "1" {
			t.Error("no swipe moved the board")
		}
	} else {
		t.Log("this chromium has no TouchEvent constructor: swipes untested")
	}

	// A new game starts over.
	do("new game", chromedp.Click(chromedp.CSS("#new")))
	wait("a new game", `document.getElementById("moves").textContent === "0"`)

	// A game is the agent's if it made every move, the person's if they
	// did, else mixed (TestBrowserThrees plays such games to their end).
	if got := eval(`[whose(9, 0), whose(0, 9), whose(7, 2), whose(1, 1)].join(" ")`); got != "agent you mixed mixed" {
		t.Errorf("whose games (all agent, all person, both, both): %q", got)
	}

	if path := os.Getenv("TD2048_SCREENSHOT"); path != "" {
		for i := range 24 {
			do("play a move", chromedp.KeyEvent([]string{kb.ArrowLeft, kb.ArrowDown, kb.ArrowRight, kb.ArrowDown}[i%4]))
			wait("the move to end", `document.body.dataset.busy === "0"`)
		}
		wait("the moves and their hint", `document.body.dataset.busy === "0" && Number(document.getElementById("moves").textContent) > 8 && document.getElementById("hint").dataset.board === document.getElementById("board").dataset.board`)
		time.Sleep(300 * time.Millisecond) // the new tile's animation
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot in %s", path)
	}
}
