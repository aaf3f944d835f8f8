package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"td2048/learn"
	"td2048/netfile"
	"td2048/ntuple"
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
	oneLine(t, []string{"serve", "--load", w, "--log", filepath.Join(dir, "none.jsonl")}, 1, "metrics log")
	oneLine(t, []string{"serve", "--load", w, "--addr", "127.0.0.1:99999"}, 1, "listen")
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

	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
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
