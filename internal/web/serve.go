package web

// Serving: the http.Server's timeouts, and the prompt, clean shutdown.

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
)

// errStopping is the cause of the requests' contexts' end when Serve
// shuts down.
var errStopping = errors.New("the server is stopping")

// Serve answers on ln, with timeouts and limits fit for a page and its
// small API, until ctx is cancelled, then shuts down cleanly and
// promptly: it stops accepting connections, closes the idle ones, and
// abandons the requests still coming in (a half-sent request's headers or
// body do not hold the server up: its connection's reads fail at once);
// the requests under way (their contexts cancelled) may finish for at
// most grace, and any still running then are cut off. Serve returns nil
// once every handler has returned, so that the caller may free what they
// use.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, grace time.Duration) error {
	base, stopping := context.WithCancelCause(context.Background())
	defer stopping(nil)
	var (
		mu      sync.Mutex
		running int // handlers running
		idle    = sync.NewCond(&mu)
		conns   = map[net.Conn]http.ConnState{}
		closing bool // the shutdown hook ran
	)
	stop := func(c net.Conn, st http.ConnState) {
		switch st {
		case http.StateNew:
			c.Close()
		case http.StateActive:
			c.SetReadDeadline(time.Now())
		}
	}
	srv := &http.Server{
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
		BaseContext:       func(net.Listener) context.Context { return base },
	}
	srv.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		running++
		mu.Unlock()
		defer func() {
			mu.Lock()
			if running--; running == 0 {
				idle.Broadcast()
			}
			mu.Unlock()
		}()
		h.ServeHTTP(w, r)
	})
	srv.ConnState = func(c net.Conn, st http.ConnState) {
		mu.Lock()
		defer mu.Unlock()
		if st == http.StateClosed || st == http.StateHijacked {
			delete(conns, c)
		} else {
			conns[c] = st
			if closing { // accepted, or its request begun, as the hook ran
				stop(c, st)
			}
		}
	}
	// Once the listener is closed, a connection that is not idle is
	// reading a request's headers or body, or has read them all. One with
	// no request yet (new) is closed: a read deadline would not do, as
	// net/http sets its own when it starts reading the headers, and under
	// load that can come after this hook. In one whose request has begun
	// (active), the next read fails now. Shutdown closes the idle ones
	// itself.
	srv.RegisterOnShutdown(func() {
		mu.Lock()
		defer mu.Unlock()
		closing = true
		for c, st := range conns {
			stop(c, st)
		}
	})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	stopping(errStopping)
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close() // grace is over: cut off what still runs
	}
	err := <-done
	mu.Lock()
	for running > 0 {
		idle.Wait()
	}
	mu.Unlock()
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}
