package web

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserPhone loads the page as a phone shows it: a 390x844 viewport
// (an iPhone 12 to 15) with mobile layout and touch emulated, then 320x568
// (the narrowest phones in use), for a 2048 server and a Threes! one. The
// page must fit the screen's width (no sideways scrolling, the whole board
// in view) even with the long numbers of a strong network in the hint
// table, put the panels under the board, and show its text in colours of
// enough contrast (WCAG AA) in both games' colour schemes; its help
// speaks of swipes rather than keys. The viewports are set through
// emulation.SetDeviceMetricsOverride (chromedp.EmulateViewport). With
// TD2048_SCREENSHOT_PHONE=DIR it saves a screenshot of each layout in DIR.
func TestBrowserPhone(t *testing.T) {
	b := newTab(t, 60*time.Second)
	ts := httptest.NewServer(newServer(t, nil))
	defer ts.Close()
	tsThrees := httptest.NewServer(newThreesServer(t, nil))
	defer tsThrees.Close()

	phone := func(w, h int64) chromedp.Action[chromedp.Void] {
		return chromedp.EmulateViewport(w, h, chromedp.EmulateScale(3), chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	// fits checks the layout of the page on screen at a viewport w wide.
	fits := func(what string, w int) {
		t.Helper()
		b.wait("the layout at "+what, `screen.width === `+itoa(w)+` && document.body.dataset.ready === "1"`)
		// A strong network's values are six figures, its rewards five:
		// shown when the page's own hint has come, so that it stays.
		b.wait("the hint of "+what, `!page.hintBusy && document.getElementById("hint").dataset.board === document.getElementById("board").dataset.board`)
		b.eval(`(() => {
			const m = (dir, legal) => ({dir, legal, reward: legal ? 32768 : 0, value: legal ? 987654.3 : 0, total: legal ? 1020422.3 : 0});
			showHint({board: page.st.board, moves: [m("up", true), m("right", false), m("down", true), m("left", true)], best: "left", depth: 3, requested: 4, us: 123456});
			return "";
		})()`)
		if got := b.eval(`document.documentElement.scrollWidth + " " + document.documentElement.clientWidth`); got != itoa(w)+" "+itoa(w) {
			t.Errorf("%s: scroll and client width %s, want %d: the page scrolls sideways", what, got, w)
		}
		if over := b.eval(`[...document.querySelectorAll("body *")].filter(e => e.checkVisibility() && e.getBoundingClientRect().right > ` + itoa(w) + ` + 0.5).map(e => (e.id || e.className || e.tagName) + "@" + Math.round(e.getBoundingClientRect().right)).join(" ")`); over != "" {
			t.Errorf("%s: elements reaching past the right edge: %s", what, over)
		}
		rect := b.eval(`(() => {
			const r = document.getElementById("board").getBoundingClientRect();
			return [r.left, r.top, r.right, r.bottom].map(Math.round).join(" ");
		})()`)
		var l, top, r, bot int
		if n, _ := fmt.Sscan(rect, &l, &top, &r, &bot); n != 4 {
			t.Fatalf("%s: board rect %q", what, rect)
		}
		if l < 0 || top < 0 || r > w || r-l < w*85/100 || bot-top < r-l-1 || bot-top > r-l+1 {
			t.Errorf("%s: board at %s (left top right bottom): want a square within 0..%d, at least 85%% of it wide", what, rect, w)
		}
		checkContrast(t, b, what)
		// The panels stack under the board.
		if got := b.eval(`String(document.querySelector(".side").getBoundingClientRect().top >= document.getElementById("board").getBoundingClientRect().bottom)`); got != "true" {
			t.Errorf("%s: the panels are not under the board", what)
		}
		if dir := os.Getenv("TD2048_SCREENSHOT_PHONE"); dir != "" {
			png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, strings.NewReplacer(" ", "-", "!", "").Replace(what)+".png")
			if err := os.WriteFile(path, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot in %s", path)
		}
	}

	b.do("emulate a phone", phone(390, 844))
	b.do("load the page", chromedp.Navigate(ts.URL+"/"))
	b.wait("the page to start", `document.body.dataset.ready === "1"`)
	if got := b.eval(`innerWidth + "x" + innerHeight + " coarse=" + matchMedia("(pointer: coarse)").matches`); got != "390x844 coarse=true" {
		t.Fatalf("emulation: %s, want 390x844 coarse=true", got)
	}
	fits("2048 at 390x844", 390)

	// The help speaks of swipes, not keys; given a mouse, of keys.
	help := b.eval(visibleHelpJS)
	if !strings.Contains(help, "swipe") || strings.Contains(strings.ToLower(help), "arrow") || strings.Contains(help, "space") {
		t.Errorf("help on a touch screen: %q", help)
	}
	if got := b.eval(`document.getElementById("board").getAttribute("aria-label")`); !strings.Contains(got, "swipe") || strings.Contains(got, "arrow") {
		t.Errorf("board label on a touch screen: %q", got)
	}

	b.do("a phone with a mouse", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulatePortrait, chromedp.EmulateMobile))
	b.wait("the help for keys", `!matchMedia("(pointer: coarse)").matches && document.body.dataset.input === "keys"`)
	if help := b.eval(visibleHelpJS); !strings.Contains(help, "arrow keys") || strings.Contains(help, "swipe on the board") {
		t.Errorf("help with a mouse: %q", help)
	}

	b.do("a narrower phone", phone(320, 568))
	fits("2048 at 320x568", 320)
	b.do("load the Threes! page", chromedp.Navigate(tsThrees.URL+"/"))
	fits("Threes! at 320x568", 320)
	if help := b.eval(visibleHelpJS); !strings.Contains(help, "swipe") || strings.Contains(help, "arrow") {
		t.Errorf("Threes! help on a touch screen: %q", help)
	}
}

// visibleHelpJS evaluates to the help paragraphs shown.
const visibleHelpJS = `[...document.querySelectorAll(".help")].filter(e => e.checkVisibility()).map(e => e.textContent).join(" / ")`

// contrastJS evaluates to the WCAG contrast of the text on the page: one
// line per text element seen (its id or tag and classes, its first words,
// its ratio and the ratio it needs), failures marked "LOW". Each colour
// is composited over the backgrounds under it, from the element up to the
// page. The tiles, whose colours are the games' own, are left out, as are
// disabled controls, which WCAG exempts.
const contrastJS = `(() => {
	const rgba = (s) => { const m = s.match(/[\d.]+/g).map(Number); return m.length === 3 ? [...m, 1] : m; };
	const over = (top, under) => { const a = top[3]; return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1); };
	const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
	const background = (e) => {
		const layers = [];
		for (let x = e; x; x = x.parentElement) layers.push(rgba(getComputedStyle(x).backgroundColor));
		let bg = [255, 255, 255, 1];
		for (let i = layers.length - 1; i >= 0; i--) bg = over(layers[i], bg);
		return bg;
	};
	const out = [];
	for (const e of document.querySelectorAll("body *")) {
		if (e.closest(".tile, svg, option") || e.disabled || !e.checkVisibility()) continue;
		const own = [...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join("").trim();
		if (!own) continue;
		const s = getComputedStyle(e), bg = background(e), fg = over(rgba(s.color), bg);
		const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
		const ratio = (hi + 0.05) / (lo + 0.05);
		const size = parseFloat(s.fontSize), bold = Number(s.fontWeight) >= 700;
		const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
		const row = e.closest("tr");
		const name = (e.id ? "#" + e.id : e.tagName.toLowerCase()) + (row && row.className ? "(" + row.className + ")" : "") + " " + JSON.stringify(own.slice(0, 16));
		out.push((ratio < need ? "LOW " : "") + name + " " + ratio.toFixed(2) + ">=" + need);
	}
	return out.join("\n");
})()`

// checkContrast fails the test for text below WCAG AA contrast; the move
// table's best and illegal rows must be among the text checked.
func checkContrast(t *testing.T, b *tab, what string) {
	t.Helper()
	lines := strings.Split(b.eval(contrastJS), "\n")
	var best, illegal bool
	for _, l := range lines {
		if strings.HasPrefix(l, "LOW ") {
			t.Errorf("%s: contrast too low: %s", what, strings.TrimPrefix(l, "LOW "))
		}
		best = best || strings.Contains(l, "td(best)")
		illegal = illegal || strings.Contains(l, `td(illegal) "illegal"`)
	}
	if !best || !illegal {
		t.Errorf("%s: the move table's best and illegal rows were not checked:\n%s", what, strings.Join(lines, "\n"))
	}
}
