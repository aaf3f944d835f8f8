package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
)

// trainedWeights saves the 8x4 line network after a few hundred episodes
// of training and returns its path.
func trainedWeights(t *testing.T) string {
	t.Helper()
	net := ntuple.MustNew("8x4")
	learn.Train(context.Background(), net, learn.Config{Episodes: 200, Seed: 1, Threads: 1, Every: 200})
	path := filepath.Join(t.TempDir(), "w.td2048")
	if err := netfile.Save(path, net, netfile.Header{Game: "2048", Learner: "after", Episodes: 200}); err != nil {
		t.Fatal(err)
	}
	return path
}

// trainedThreesWeights saves a small Threes! network (four lines, a table
// set per hint) after a few hundred episodes and returns its path.
func trainedThreesWeights(t *testing.T) string {
	t.Helper()
	net := ntuple.MustNew("0123,4567,89ab,cdef+hint")
	if _, _, err := learn.TrainThrees(context.Background(), net, learn.Config{Episodes: 300, Seed: 1, Threads: 1, Every: 100}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "threes.td2048")
	if err := netfile.Save(path, net, netfile.Header{Game: "threes", Learner: "after", Episodes: 300}); err != nil {
		t.Fatal(err)
	}
	return path
}

// oneLine checks a failed run: its exit status and one line on stderr
// that contains want.
func oneLine(t *testing.T, args []string, wantCode int, want string) {
	t.Helper()
	code, out, errs := runCmd(t, args...)
	if code != wantCode || !strings.Contains(errs, want) || strings.Count(errs, "\n") != 1 {
		t.Errorf("%v: exit %d, stderr %q (stdout %q); want exit %d and one line with %q", args, code, errs, out, wantCode, want)
	}
}

func TestServeBadInvocations(t *testing.T) {
	w := trainedWeights(t)
	dir := t.TempDir()
	oneLine(t, []string{"serve", "--load", filepath.Join(t.TempDir(), "none.td2048")}, 1, "not found: train one")
	oneLine(t, []string{"serve", "--load", w, "extra"}, 2, "no arguments")
	oneLine(t, []string{"serve", "--load", w, "--move-time", "0s"}, 2, "--move-time")
	oneLine(t, []string{"serve", "--load", w, "--max-searches", "-1"}, 2, "--max-searches")
	oneLine(t, []string{"serve", "--load", filepath.Join(dir, "none")}, 1, "not found")
	oneLine(t, []string{"serve", "--load", w, "--log", filepath.Join(dir, "none.jsonl")}, 1, "metrics log: cannot open "+filepath.Join(dir, "none.jsonl")+": ")
	oneLine(t, []string{"serve", "--load", w, "--addr", "127.0.0.1:99999"}, 1, "cannot listen on 127.0.0.1:99999: ")
	// An empty address would listen on every interface, at a random port.
	oneLine(t, []string{"serve", "--load", w, "--addr", ""}, 2, "--addr is empty")
	// A port taken: said once, without the net package's layers.
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	oneLine(t, []string{"serve", "--load", w, "--addr", taken.Addr().String()}, 1, "cannot listen on "+taken.Addr().String()+": ")
	if _, _, errs := runCmd(t, "serve", "--load", w, "--addr", taken.Addr().String()); strings.Contains(errs, "bind:") || strings.Contains(errs, "listen tcp") {
		t.Errorf("taken port: %q", errs)
	}
	if code, _, _ := runCmd(t, "serve", "--nosuch"); code != 2 {
		t.Errorf("bad flag: exit %d", code)
	}
}

// TestServeCommand starts serve on a free port, plays through its API, and
// stops it with SIGINT as Ctrl-C would.
func TestServeCommand(t *testing.T) {
	w := trainedWeights(t)
	addrs := make(chan string, 1)
	serveStarted = func(a string) { addrs <- a }
	defer func() { serveStarted = nil }()
	type result struct {
		code      int
		out, errs string
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		code := run([]string{"serve", "--load", w, "--addr", "127.0.0.1:0"}, &env{stdout: &out, stderr: &errb, stdin: strings.NewReader("")})
		done <- result{code, out.String(), errb.String()}
	}()
	var addr string
	select {
	case addr = <-addrs:
	case r := <-done:
		t.Fatalf("serve ended: %+v", r)
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not start")
	}
	base := "http://" + addr
	resp, err := http.Get(base + "/api/info")
	if err != nil {
		t.Fatal(err)
	}
	var info struct {
		Network  string
		Episodes int64
		MaxDepth int
	}
	json.NewDecoder(resp.Body).Decode(&info)
	resp.Body.Close()
	if info.Network != "8x4" || info.Episodes != 200 || info.MaxDepth != 4 {
		t.Errorf("info: %+v", info)
	}
	resp, err = http.Post(base+"/api/agent", "application/json", strings.NewReader(`{"board":"2,2,0,4,0,8,0,0,0,0,0,0,0,0,0,2","depth":2}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"dir":"`) {
		t.Errorf("agent: %d %s", resp.StatusCode, body)
	}
	resp, err = http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(page), "<title>td2048</title>") {
		t.Errorf("page: %.200s", page)
	}

	interruptSelf(t)
	select {
	case r := <-done:
		if r.code != 0 || !strings.Contains(r.out, "serving "+base+"/") || !strings.HasSuffix(r.out, "stopped\n") || r.errs != "" {
			t.Errorf("serve: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.errs)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop on SIGINT")
	}
	if _, err := http.Get(base + "/api/info"); err == nil {
		t.Error("still serving after SIGINT")
	}
}

// startServe runs serve with args in-process and returns its base URL and
// a function that stops it with SIGINT and returns its output.
func startServe(t *testing.T, args ...string) (string, func() (int, string, string)) {
	t.Helper()
	addrs := make(chan string, 1)
	serveStarted = func(a string) { addrs <- a }
	type result struct {
		code      int
		out, errs string
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		code := run(append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), &env{stdout: &out, stderr: &errb, stdin: strings.NewReader("")})
		done <- result{code, out.String(), errb.String()}
	}()
	var addr string
	select {
	case addr = <-addrs:
	case r := <-done:
		t.Fatalf("serve ended: %+v", r)
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not start")
	}
	serveStarted = nil
	return "http://" + addr, func() (int, string, string) {
		t.Helper()
		interruptSelf(t)
		select {
		case r := <-done:
			return r.code, r.out, r.errs
		case <-time.After(10 * time.Second):
			t.Fatal("serve did not stop on SIGINT")
		}
		return 0, "", ""
	}
}

func postJSON(t *testing.T, url, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	return resp.StatusCode, v
}

// TestServeThrees: serve with Threes! weights offers Threes! alone: its
// games are Threes! games, and 2048 requests are refused.
func TestServeThrees(t *testing.T) {
	w := trainedThreesWeights(t)
	base, stop := startServe(t, "--load", w)
	resp, err := http.Get(base + "/api/info")
	if err != nil {
		t.Fatal(err)
	}
	var info struct {
		Games    []string
		Network  string
		Episodes int64
	}
	json.NewDecoder(resp.Body).Decode(&info)
	resp.Body.Close()
	if len(info.Games) != 1 || info.Games[0] != "threes" || info.Network != "0123,4567,89ab,cdef+hint" || info.Episodes != 300 {
		t.Errorf("info: %+v", info)
	}
	code, st := postJSON(t, base+"/api/new", `{"game":"threes","seed":5}`)
	if code != 200 || st["game"] != "threes" || st["next"] == nil || st["bag"] == nil || st["score"] == nil {
		t.Fatalf("new: %d %v", code, st)
	}
	hint, bag := int(st["next"].(float64)), st["bag"].([]any)
	bagJSON, _ := json.Marshal(bag)
	code, a := postJSON(t, base+"/api/agent", `{"game":"threes","board":"`+st["board"].(string)+`","next":`+strconv.Itoa(hint)+`,"bag":`+string(bagJSON)+`,"depth":2}`)
	if code != 200 || a["dir"] == nil {
		t.Fatalf("agent: %d %v", code, a)
	}
	code, m := postJSON(t, base+"/api/move", `{"game":"threes","board":"`+st["board"].(string)+`","next":`+strconv.Itoa(hint)+`,"bag":`+string(bagJSON)+`,"dir":"`+a["dir"].(string)+`","seed":5,"n":0}`)
	if code != 200 || m["legal"] != true || m["placed"] != float64(hint) {
		t.Fatalf("move: %d %v", code, m)
	}
	code, e := postJSON(t, base+"/api/new", `{"game":"2048"}`)
	if code != 400 || !strings.Contains(fmt.Sprint(e["error"]), "this server plays Threes! only") {
		t.Errorf("2048 game on a Threes! server: %d %v", code, e)
	}
	code, out, errs := stop()
	if code != 0 || !strings.Contains(out, "Threes! network 0123,4567,89ab,cdef+hint (after learner, 300 episodes)") || !strings.HasSuffix(out, "stopped\n") || errs != "" {
		t.Errorf("serve: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

// TestServe2048RefusesThrees: a 2048 server refuses Threes! requests.
func TestServe2048RefusesThrees(t *testing.T) {
	w := trainedWeights(t)
	base, stop := startServe(t, "--load", w)
	code, e := postJSON(t, base+"/api/new", `{"game":"threes"}`)
	if code != 400 || !strings.Contains(fmt.Sprint(e["error"]), "this server plays 2048 only") {
		t.Errorf("threes game on a 2048 server: %d %v", code, e)
	}
	if code, out, _ := stop(); code != 0 || !strings.Contains(out, "2048 network 8x4") {
		t.Errorf("serve: exit %d: %s", code, out)
	}
}

// TestServeInterruptHalfSent: Ctrl-C while a client has sent half a
// request stops serve at once and cleanly: exit 0, "stopped", nothing on
// stderr, rather than waiting out the grace and failing.
func TestServeInterruptHalfSent(t *testing.T) {
	w := trainedWeights(t)
	base, stop := startServe(t, "--load", w)
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "POST /api/hint HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{\"board\":")
	// Time for the server to read what came and to wait for the rest.
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	code, out, errs := stop()
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("serve took %v to stop", d)
	}
	if code != 0 || !strings.HasSuffix(out, "stopped\n") || errs != "" {
		t.Errorf("serve: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

// interruptSelf sends the test process SIGINT, as Ctrl-C in a terminal
// would, through os.Process (syscall.Kill does not exist on Windows,
// where a process cannot signal itself: the test is skipped there).
func interruptSelf(t *testing.T) {
	t.Helper()
	p, err := os.FindProcess(os.Getpid())
	if err == nil {
		err = p.Signal(os.Interrupt)
	}
	if err != nil {
		if runtime.GOOS == "windows" {
			t.Skipf("cannot interrupt itself here: %v", err)
		}
		t.Fatal(err)
	}
}
