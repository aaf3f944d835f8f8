package main

import (
	"fmt"
	flag "github.com/spf13/pflag"
	"github.com/td2048/td2048/games"
	"net"
	"os"
	"time"

	"github.com/td2048/td2048/internal/web"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
)

// loadPlayable loads the weights of play and serve (--load, or the file
// defaultLoad names) for the game their header names (a reference-format
// file, which names none, is 2048's) unless name (--game) names one,
// checked as train and eval check them, held as pf says, and refuses a
// --downgrade the game has no tiles for. It returns the game and the
// learner, and a note for people when the weights are not held as asked.
func loadPlayable(fs *flag.FlagSet, load *string, name string, pf *playFlags, sf *searchFlags) (*ntuple.Network, netfile.Header, *games.Game, learn.Kind, string, error) {
	if err := defaultLoad(fs, load, name); err != nil {
		return nil, netfile.Header{}, nil, 0, "", err
	}
	g, err := gameOfFile(fs, name, *load)
	if err != nil {
		return nil, netfile.Header{}, nil, 0, "", err
	}
	if err := sf.checkGame(g); err != nil { // before the weights, which may take a while
		return nil, netfile.Header{}, nil, 0, "", err
	}
	net, h, kind, note, err := loadFor(*load, g, pf.weights())
	return net, h, g, kind, note, err
}

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
	load := fs.String("load", "", loadHelp("weights to play and advise with; their game is the page's"))
	gameName := fs.String("game", "", "2048 or threes (default: the loaded file's, else 2048)")
	addr := fs.String("addr", "127.0.0.1:8048", "address to listen on; a non-loopback address lets other machines in")
	logPath := fs.String("log", "", "metrics log of the training (train --log) whose curve the page draws")
	moveTime := fs.Duration("move-time", 250*time.Millisecond, "time budget of one search request (the agent's move, a hint)")
	maxSearches := fs.Int("max-searches", 0, "searches running at once, at most (0: one per CPU); more wait, then get 503")
	cache := byteSize(64 << 20)
	fs.Var(&cache, "cache", "transposition table size shared by all requests (0 turns it off)")
	var pf playFlags
	pf.define(fs, "threads")
	var sf searchFlags
	sf.defineDowngrade(fs)
	return func(args []string) error {
		if len(args) != 0 {
			return usagef("serve takes no arguments, only flags (got %q)", args[0])
		}
		if err := pf.check("threads"); err != nil {
			return err
		}
		if err := sf.checkDowngrade(); err != nil {
			return err
		}
		if *moveTime <= 0 || *moveTime > time.Minute {
			return usagef("--move-time must be more than 0 and at most 1m")
		}
		if *maxSearches < 0 {
			return usagef("--max-searches must not be negative")
		}
		if *addr == "" {
			return usagef("--addr is empty: want HOST:PORT, like 127.0.0.1:8048 (:8048 for every interface)")
		}
		if *logPath != "" {
			if _, err := os.Stat(*logPath); err != nil {
				return fmt.Errorf("metrics log: %w", err) // before the weights, which may take a while
			}
		}
		nw, h, g, kind, note, err := loadPlayable(fs, load, *gameName, &pf, &sf)
		if err != nil {
			return err
		}
		defer nw.Free()
		cfg := web.Config{
			Net: nw, Game: g.Name, Network: h.Network, Learner: h.Learner, Episodes: h.Episodes,
			LogPath: *logPath, MoveTime: *moveTime, TableBytes: int64(cache),
			MaxSearches: *maxSearches, Threads: pf.threads, Downgrade: sf.downgradeOpt(), Kind: kind,
		}
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
		url := "http://" + ln.Addr().String() + "/"
		fmt.Fprintf(e.stdout, "%s network %s (%s learner, %d episodes) from %s, weights %s\n", g.Title, h.Network, h.Learner, h.Episodes, *load, describeWeights(nw))
		writeNotes(e.stdout, note, nw, sf.downgradeOpt())
		if !cfg.LoopbackOnly {
			fmt.Fprintf(e.stderr, "td2048 serve: warning: %s is not a loopback address: anyone who can reach this machine can use the page\n", ln.Addr())
		}
		fmt.Fprintf(e.stdout, "serving %s (Ctrl-C stops)\n", url)
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
