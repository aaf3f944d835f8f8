package web

import (
	"bytes"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/td2048/td2048/stats"
)

// shotDir is where screenshots go: $TD2048_SHOTS when set (to look at
// them), else a temporary folder.
func shotDir(t *testing.T) string {
	if d := os.Getenv("TD2048_SHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// curveLog writes a metrics log of a run of 100 blocks that learns.
func curveLog(t *testing.T) string {
	t.Helper()
	var b bytes.Buffer
	for i := 1; i <= 100; i++ {
		x := float64(i) / 100
		stats.WriteRecord(&b, stats.Record{Episodes: int64(1000 * i), Game: "2048", Network: "8x4",
			Summary: stats.Summary{Games: 1000, Avg: 2000 + 60000*(1-math.Exp(-3*x)), Reach: map[string]float64{"2048": min(1, 1.2*x)}}})
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBrowserScreenshots looks at the page as people see it, on a laptop
// screen (1280x800) and on a phone (390x844), with a training curve: the
// curve, its axes' titles and its legend are in view without scrolling on
// the laptop, and on the phone the agent's button keeps its size (and so
// nothing beside it moves) when it turns from play to pause. It saves a
// screenshot of what each screen shows, in $TD2048_SHOTS when set, else
// in a temporary folder (the paths are logged).
func TestBrowserScreenshots(t *testing.T) {
	b := newTab(t, 60*time.Second)
	ts := httptest.NewServer(newServer(t, func(c *Config) { c.LogPath = curveLog(t) }))
	defer ts.Close()
	dir := shotDir(t)
	shoot := func(name string) {
		t.Helper()
		png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name+".png")
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot %s", path)
	}
	settle := func() {
		t.Helper()
		b.wait("the page, its hint and its curve", `document.body.dataset.ready === "1" && !page.hintBusy && document.querySelector("#curve svg") !== null`)
		for range 6 {
			b.eval(`document.getElementById("step").click(), ""`)
			b.wait("the step", `document.body.dataset.busy === "0"`)
		}
		b.wait("the hint", `!page.hintBusy && document.getElementById("hint").dataset.board === document.getElementById("board").dataset.board`)
		time.Sleep(300 * time.Millisecond) // the new tile's animation
	}

	b.do("a laptop screen", chromedp.EmulateViewport(1280, 800))
	b.do("load the page", chromedp.Navigate(ts.URL+"/"))
	settle()
	texts := b.eval(`[...document.querySelectorAll("#curve svg text")].map(e => e.textContent).join("|")`)
	for _, want := range []string{"|episodes|", "|average score|", "|2048 rate|", "|average score per block|", "|2048 rate (share of the block's games)|"} {
		if !strings.Contains("|"+texts+"|", want) {
			t.Errorf("the curve has no %q: %s", strings.Trim(want, "|"), texts)
		}
	}
	// Every text of the curve, the legend's and the titles' among them,
	// is on the screen: inside the viewport, nothing scrolled.
	out := b.eval(`[...document.querySelectorAll("#curve svg text")].filter(e => { const r = e.getBoundingClientRect(); return r.bottom > innerHeight || r.right > innerWidth || r.top < 0 || r.left < 0; }).map(e => e.textContent + "@" + Math.round(e.getBoundingClientRect().bottom)).join(" ")`)
	if out != "" {
		t.Errorf("at 1280x800, curve texts out of view: %s", out)
	}
	shoot("web-1280x800")

	b.do("a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch))
	b.do("reload the page", chromedp.Navigate(ts.URL+"/"))
	settle()
	rects := `["new", "play", "step", "slower", "faster", "speed"].map(id => { const r = document.getElementById(id).getBoundingClientRect(); return id + " " + [r.left, r.top, r.width, r.height].map(Math.round).join(" "); }).join(", ")`
	before := b.eval(rects)
	shoot("web-390x844")
	b.eval(`document.getElementById("play").click(), ""`)
	b.wait("the agent playing", `document.getElementById("board").dataset.playing === "1"`)
	playing := b.eval(rects)
	b.eval(`document.getElementById("slower").click(), ""`)
	b.eval(`document.getElementById("faster").click(), document.getElementById("faster").click(), document.getElementById("faster").click(), ""`)
	faster := b.eval(rects)
	if label := b.eval(`document.getElementById("play").innerText.trim()`); label != "Agent: pause" {
		t.Errorf("the playing agent's button says %q", label)
	}
	shoot("web-390x844-playing")
	b.eval(`document.getElementById("play").click(), ""`)
	if before != playing || before != faster {
		t.Errorf("the controls moved at 390x844:\npaused  %s\nplaying %s\nfaster  %s", before, playing, faster)
	}
	if label := b.eval(`document.getElementById("play").innerText.trim()`); label != "Agent: play" {
		t.Errorf("the paused agent's button says %q", label)
	}
}
