// Command capi is td2048's C API, the native half of the Python package
// (python/td2048): built with
//
//	go build -buildmode=c-shared -o libtd2048.so ./capi
//
// it exports a few C functions over the library (games, session,
// netfile, search, internal/train) and holds no rule or learning of its
// own. Objects (environments, networks, runs) are opaque handles, ids in
// a table: a closed or unknown handle is an error, never a crash. Every
// function recovers from a panic and reports it as an error; an error is
// a one-line message written to the caller's buffer (errbuf, errlen) and
// a negative return value: errBad for an argument or a setting that
// cannot work (Python's ValueError), errClosed for a closed handle,
// errFail for anything else. Batches are contiguous buffers the caller
// owns: Go reads and writes them during the call and keeps no pointer.
package main

/*
#include <stdint.h>
#include <stdlib.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/td2048/td2048/internal/train"
)

func main() {}

// The negative results of a call that failed.
const (
	errBad    = -1 // a bad argument or setting
	errClosed = -2 // a closed or unknown handle
	errFail   = -3 // anything else
)

// badError is an argument or setting that cannot work.
type badError struct{ error }

func bad(format string, a ...any) error { return badError{fmt.Errorf(format, a...)} }

// closedError is a handle that is closed or was never made.
var closedError = errors.New("closed (or never opened)")

// handles are the objects the caller holds, by id: a sync.Map, whose
// reads (every call) take no lock.
var (
	handles    sync.Map // int64 -> object
	lastHandle atomic.Int64
	liveCount  atomic.Int64
)

// put registers o and returns its handle, 1 or more.
func put(o any) int64 {
	h := lastHandle.Add(1)
	handles.Store(h, o)
	liveCount.Add(1)
	return h
}

// get returns the object of handle h, of type T.
func get[T any](h C.int64_t) (T, error) {
	o, ok := handles.Load(int64(h))
	t, isT := o.(T)
	if !ok || !isT {
		return t, closedError
	}
	return t, nil
}

// callOn is call of f on the object of handle h, of type T.
func callOn[T any](h C.int64_t, errbuf *C.char, errlen C.int, f func(o T) (int64, error)) C.int64_t {
	return call(errbuf, errlen, func() (int64, error) {
		o, err := get[T](h)
		if err != nil {
			return 0, err
		}
		return f(o)
	})
}

// closer is an object with something to release when its handle is freed.
type closer interface{ close() }

// td_free releases the object of handle h; an unknown handle is ignored,
// so that freeing twice is harmless.
//
//export td_free
func td_free(h C.int64_t) {
	defer func() { recover() }()
	if o, ok := handles.LoadAndDelete(int64(h)); ok {
		liveCount.Add(-1)
		if c, ok := o.(closer); ok {
			c.close()
		}
	}
}

// td_live is the number of live handles (for tests of leaks).
//
//export td_live
func td_live() C.int64_t { return C.int64_t(liveCount.Load()) }

// call runs f, turning its error or panic into the C result: 0 (or f's
// non-negative result) on success, else a negative code with the message
// in errbuf.
func call(errbuf *C.char, errlen C.int, f func() (int64, error)) (r C.int64_t) {
	defer func() {
		if p := recover(); p != nil {
			r = report(errbuf, errlen, fmt.Errorf("td2048: internal error: %v", p))
		}
	}()
	n, err := f()
	if err != nil {
		return report(errbuf, errlen, err)
	}
	return C.int64_t(n)
}

// report writes err's message to errbuf and returns its code.
func report(errbuf *C.char, errlen C.int, err error) C.int64_t {
	if errbuf != nil && errlen > 0 {
		buf := unsafe.Slice((*byte)(unsafe.Pointer(errbuf)), int(errlen))
		n := copy(buf[:len(buf)-1], err.Error())
		buf[n] = 0
	}
	var b badError
	var fe *train.FieldError // a setting the spec's Validate refused
	switch {
	case errors.Is(err, closedError):
		return errClosed
	case errors.As(err, &b), errors.As(err, &fe):
		return errBad
	}
	return errFail
}

// setString hands s to the caller at *out, as a C string it frees with
// td_free_string.
func setString(out **C.char, s string) {
	if out != nil {
		*out = C.CString(s)
	}
}

// td_free_string frees a string a call handed over.
//
//export td_free_string
func td_free_string(s *C.char) { C.free(unsafe.Pointer(s)) }
