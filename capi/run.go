package main

/*
#include <stdint.h>
*/
import "C"

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/internal/evalrun"
	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/stats"
)

// A job is a long call (a training run, an evaluation) under way in a
// goroutine of its own: the caller waits for it in small steps
// (td_job_wait), reads what it reported so far (td_job_events), stops it
// (td_job_stop) and reads its result (td_job_result). Freeing it stops
// it and waits for its end.
type job struct {
	mu     sync.Mutex
	events []json.RawMessage
	done   chan struct{}
	result []byte
	err    error
	cancel context.CancelFunc
}

func newJob() (*job, context.Context) {
	ctx, cancel := context.WithCancel(context.Background())
	return &job{events: []json.RawMessage{}, done: make(chan struct{}), cancel: cancel}, ctx
}

// run runs f in a goroutine, keeping its result as JSON, or its error.
func (j *job) run(f func() (any, error)) {
	go func() {
		defer close(j.done)
		defer func() {
			if p := recover(); p != nil {
				b, _ := json.Marshal(p)
				j.err = errors.New("td2048: internal error: " + string(b))
			}
		}()
		res, err := f()
		if err == nil {
			j.result, err = json.Marshal(res)
		}
		j.err = err
	}()
}

// event records an event for the caller.
func (j *job) event(e any) {
	b, err := json.Marshal(e)
	if err != nil {
		return
	}
	j.mu.Lock()
	j.events = append(j.events, b)
	j.mu.Unlock()
}

func (j *job) close() {
	j.cancel()
	<-j.done
}

// td_job_wait waits up to ms milliseconds for the job's end: 1 when it
// has ended, 0 when it is still under way.
//
//export td_job_wait
func td_job_wait(h C.int64_t, ms C.int, errbuf *C.char, errlen C.int) C.int64_t {
	return callOn(h, errbuf, errlen, func(j *job) (int64, error) {
		select {
		case <-j.done:
			return 1, nil
		case <-time.After(time.Duration(ms) * time.Millisecond):
			return 0, nil
		}
	})
}

// td_job_stop asks the job to stop (a training run saves first).
//
//export td_job_stop
func td_job_stop(h C.int64_t) {
	if j, err := get[*job](h); err == nil {
		j.cancel()
	}
}

// td_job_events hands over the events reported since the last call, as
// a JSON array.
//
//export td_job_events
func td_job_events(h C.int64_t, out **C.char, errbuf *C.char, errlen C.int) C.int64_t {
	return callOn(h, errbuf, errlen, func(j *job) (int64, error) {
		j.mu.Lock()
		ev := j.events
		j.events = []json.RawMessage{} // an empty array, not null
		j.mu.Unlock()
		b, err := json.Marshal(ev)
		setString(out, string(b))
		return int64(len(ev)), err
	})
}

// td_job_result hands over the result of an ended job as JSON, or its
// error.
//
//export td_job_result
func td_job_result(h C.int64_t, out **C.char, errbuf *C.char, errlen C.int) C.int64_t {
	return callOn(h, errbuf, errlen, func(j *job) (int64, error) {
		<-j.done
		if j.err != nil {
			return 0, j.err
		}
		setString(out, string(j.result))
		return 0, nil
	})
}

// td_train_start opens the training run of settings, a JSON object of
// train.Spec's keys (a sweep plan's: "episodes", "alpha", "recipe", ...),
// each one given, checked as td2048 train checks its flags, and starts
// it. It reports its header as train prints it ({"header": text}),
// each block ({"block": done, "text": the block as train prints it,
// "record": its metrics-log record}) and warnings ({"warning": message})
// as events; its result is train's closing line's
// figures.
//
//export td_train_start
func td_train_start(settings *C.char, errbuf *C.char, errlen C.int) C.int64_t {
	return call(errbuf, errlen, func() (int64, error) {
		s := train.Default()
		given, err := setFields(C.GoString(settings), s.Field, train.Keys())
		if err != nil {
			return 0, err
		}
		r, err := train.Open(s, given, train.Options{})
		if err != nil {
			return 0, err
		}
		j, ctx := newJob()
		var head bytes.Buffer
		r.WriteHeader(&head)
		j.event(map[string]any{"header": head.String()})
		j.run(func() (any, error) {
			defer r.Close()
			res, err := r.Train(ctx, trainEvents{j, r.Game})
			if err != nil {
				return nil, err
			}
			return map[string]any{"episodes": res.Episodes, "elapsed": res.Elapsed.Seconds(), "moves": res.Moves,
				"done": res.Done, "total": res.Total, "interrupted": res.Interrupted, "limited": res.Limited,
				"save": r.Spec.Save, "log": r.LogPath, "seed": *r.Spec.Seed}, nil
		})
		return put(j), nil
	})
}

// setFields sets, from settings, a JSON object, the field of each key
// (field gives its address), decoded as JSON, and returns the keys given;
// a key that is not among keys, the settings of the call, is refused.
func setFields(settings string, field func(key string) (any, bool), keys []string) (train.Given, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(settings), &m); err != nil {
		return nil, bad("settings: %v", err)
	}
	given := train.Given{}
	for k, v := range m {
		ptr, ok := field(k)
		if !ok || !slices.Contains(keys, k) {
			return nil, bad("unknown setting %q: want one of %v", k, keys)
		}
		if err := json.Unmarshal(v, ptr); err != nil {
			return nil, bad("--%s %s: %v", train.FlagOf(k), v, err)
		}
		given[k] = true
	}
	return given, nil
}

// trainEvents reports a run's blocks and warnings as a job's events.
type trainEvents struct {
	j *job
	g *games.Game
}

func (t trainEvents) Block(done int, b *stats.Block, rec stats.Record, wall time.Duration) {
	var text bytes.Buffer
	t.g.WriteBlock(&text, done, b, wall)
	t.j.event(map[string]any{"block": done, "text": text.String(), "record": rec})
}

func (t trainEvents) Tick(learn.Snapshot) {}

func (t trainEvents) Warn(msg string) { t.j.event(map[string]any{"warning": msg}) }

// td_eval_start starts an evaluation of the network of handle h with
// settings, a JSON object of evalrun.Spec's keys (a sweep plan's [eval]
// table's: "games", "depth", "move_time", "search", "seed", ...), each
// one given, checked as td2048 eval checks its flags; its result is the
// statistics block: the figures of a metrics-log record and the block as
// eval prints it.
//
//export td_eval_start
func td_eval_start(h C.int64_t, settings *C.char, errbuf *C.char, errlen C.int) C.int64_t {
	return call(errbuf, errlen, func() (int64, error) {
		// The weights are the network's: "load" and "game" are not settings here.
		s := evalrun.Default()
		keys := slices.DeleteFunc(evalrun.Keys(), func(k string) bool { return k == "load" || k == "game" })
		given, err := setFields(C.GoString(settings), s.Field, keys)
		if err != nil {
			return 0, err
		}
		var r *evalrun.Run
		var g *games.Game
		// Under the network's lock, as the evaluation: a td_free meanwhile
		// waits for it, or comes first and the call fails as closed.
		err = use(h, func(o *net) (err error) {
			s.Game, given["game"], g = o.g.Name, true, o.g
			r, err = evalrun.Open(s, given, evalrun.Options{Loaded: &evalrun.Loaded{Game: o.g, Net: o.n, Header: o.h, Kind: o.kind}})
			return err
		})
		if err != nil {
			return 0, err
		}
		j, ctx := newJob()
		j.run(func() (any, error) {
			defer r.Close()
			var ev games.Evaluation
			var network string
			err := use(h, func(o *net) (err error) {
				network = o.n.Spec().String()
				ev, _, err = r.Evaluate(ctx, nil)
				return err
			})
			if err != nil && ctx.Err() == nil {
				return nil, err
			}
			var text bytes.Buffer
			g.WriteEval(&text, &ev)
			rec := stats.NewRecord(int64(ev.Block.Games), &ev.Block, g.Value)
			rec.MovesPerSec = float64(ev.Moves) / max(ev.Elapsed.Seconds(), 1e-9)
			rec.Elapsed, rec.Seed, rec.Network, rec.Game = ev.Elapsed.Seconds(), r.Seed, network, g.Name
			return map[string]any{"record": rec, "text": text.String(), "moves": ev.Moves, "search": r.Result.Search,
				"interrupted": ctx.Err() != nil}, nil
		})
		return put(j), nil
	})
}
