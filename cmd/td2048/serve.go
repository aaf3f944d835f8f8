package main

import (
	"fmt"
	"net"
	"os"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/internal/evalrun"
	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/internal/web"
)

func init() {
	register(&command{
		name:  "serve",
		short: "a web page to watch the network play 2048 or Threes!, or play with its hints (loopback by default)",
		example: `  td2048 serve                                   # http://127.0.0.1:8048/
  td2048 serve --load 8x6.td2048 --log weights.jsonl --addr :8080   # on the network, with the training curve`,
		setup: setupServe,
	})
}

// serveStarted, when set (by tests), is told the address served.
var serveStarted func(addr string)

func setupServe(fs *flag.FlagSet, e *env) func([]string) error {
	p := evalrun.Play{Search: evalrun.DefaultSearch(1, 64<<20, 250*time.Millisecond), Compact: true}
	p.AddFlags(fs, map[string]string{
		"load":      "weights to play and advise with; their game is the page's",
		"depth":     "-", // each search deepens until its time is up
		"move_time": "time budget of one search request (the agent's move, a hint)",
		"cache":     "transposition table size shared by all requests (0 turns it off)",
	})
	addr := fs.String("addr", "127.0.0.1:8048", "address to listen on; a non-loopback address lets other machines in")
	logPath := fs.String("log", "", "metrics log of the training (train --log) whose curve the page draws")
	maxSearches := fs.Int("max-searches", 0, "searches running at once, at most (0: one per CPU); more wait, then get 503")
	threads := moveThreadsFlag(fs)
	return func(args []string) error {
		if len(args) != 0 {
			return usagef("serve takes no arguments, only flags (got %q)", args[0])
		}
		if err := checkThreads(*threads); err != nil {
			return err
		}
		given := evalrun.GivenFlags(fs)
		if err := p.Check(given, 1); err != nil {
			return usageOf(err)
		}
		switch {
		case p.MoveTime <= 0 || p.MoveTime > train.Duration(time.Minute):
			return usagef("--move-time must be more than 0 and at most 1m")
		case *maxSearches < 0:
			return usagef("--max-searches must not be negative")
		case *addr == "":
			return usagef("--addr is empty: want HOST:PORT, like 127.0.0.1:8048 (:8048 for every interface)")
		}
		if *logPath != "" {
			if _, err := os.Stat(*logPath); err != nil {
				return fmt.Errorf("metrics log: %w", err) // before the weights, which may take a while
			}
		}
		p.Complete(given)
		l, err := p.Open(given)
		if err != nil {
			return usageOf(err)
		}
		nw, h, g := l.Net, l.Header, l.Game
		defer nw.Free()
		cfg := web.Config{
			Net: nw, Game: g.Name, Network: h.Network, Learner: h.Learner, Episodes: h.Episodes,
			LogPath: *logPath, MoveTime: time.Duration(p.MoveTime), TableBytes: int64(p.Cache),
			MaxSearches: *maxSearches, Threads: *threads, Downgrade: p.Downgrading(), Kind: l.Kind,
		}
		p.Apply(&cfg.MCTS, 0, true, given)
		// Listen before the page is built so that a taken port is told
		// first; catch SIGINT before serving so that Ctrl-C always shuts
		// down cleanly. Shutdown abandons half-sent requests and gives
		// those under way a few seconds; a second Ctrl-C meanwhile ends the
		// program at once.
		ctx, stop := interruptible()
		defer stop()
		ln, err := net.Listen("tcp", *addr)
		if err != nil {
			return listenError(*addr, err)
		}
		tcp, _ := ln.Addr().(*net.TCPAddr)
		cfg.LoopbackOnly = tcp != nil && tcp.IP.IsLoopback()
		srv, err := web.New(cfg)
		if err != nil {
			ln.Close()
			return err
		}
		fmt.Fprintf(e.stdout, "%s network %s (%s learner, %d episodes) from %s, weights %s\n", g.Title, h.Network, h.Learner, h.Episodes, p.Load, describeWeights(nw))
		writeNotes(e.stdout, l.Note, nw, p.Downgrading())
		if !cfg.LoopbackOnly {
			fmt.Fprintf(e.stderr, "td2048 serve: warning: %s is not a loopback address: anyone who can reach this machine can use the page\n", ln.Addr())
		}
		fmt.Fprintf(e.stdout, "serving http://%s/ (Ctrl-C stops)\n", ln.Addr())
		if serveStarted != nil {
			serveStarted(ln.Addr().String())
		}
		if err := web.Serve(ctx, ln, srv, 5*time.Second); err != nil {
			return fmt.Errorf("serve: %v", err)
		}
		fmt.Fprintln(e.stdout, "stopped")
		return nil
	}
}

// listenError words a failure to listen on addr without the layers of
// the net package ("listen tcp ...: bind: ...").
func listenError(addr string, err error) error {
	if oe, ok := err.(*net.OpError); ok {
		err = oe.Err
	}
	if se, ok := err.(*os.SyscallError); ok {
		err = se.Err
	}
	return fmt.Errorf("cannot listen on %s: %v", addr, err)
}
