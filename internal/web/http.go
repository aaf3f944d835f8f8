package web

// HTTP hygiene and limits: the headers every answer carries, the loopback
// host check, the API's routing, bodies read whole within limits, JSON
// answers and errors, and the places requests wait for.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/td2048/td2048/internal/jsonerr"
)

// ServeHTTP checks the host, sets the headers every answer carries and
// routes the request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'")
	if s.cfg.LoopbackOnly && !loopbackHost(r.Host) {
		if strings.HasPrefix(r.URL.Path, "/api/") {
			jsonError(w, http.StatusMisdirectedRequest, "this server answers only requests for a loopback host (localhost, 127.0.0.1, [::1])")
		} else {
			http.Error(w, "this server answers only requests for a loopback host", http.StatusMisdirectedRequest)
		}
		return
	}
	s.mux.ServeHTTP(w, r)
}

// loopbackHost reports whether a Host header names this machine.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// An apiHandler answers one API request: body is the request's body,
// read whole (nil for a GET). Its answer is written as JSON, its error as
// fail writes it.
type apiHandler func(r *http.Request, body []byte) (any, error)

// api registers a JSON handler for one method and path. A POST's body is
// read whole first, under the connection's read deadline
// (Serve's ReadTimeout), and only then does the request take a place
// among the requests in progress: a client sending slowly ties up its own
// connection, never a place that other requests wait for.
func (s *Server) api(method, p string, h apiHandler) {
	s.routes[p] = method
	s.mux.HandleFunc(method+" "+p, func(w http.ResponseWriter, r *http.Request) {
		var body []byte
		if method == http.MethodPost {
			var err error
			if body, err = readBody(w, r); err != nil {
				fail(w, err)
				return
			}
		}
		if !s.acquire(r.Context(), s.requests) {
			fail(w, errBusy)
			return
		}
		defer func() { <-s.requests }()
		v, err := h(r, body)
		if err != nil {
			fail(w, err)
			return
		}
		writeJSON(w, http.StatusOK, v)
	})
}

// apiFallback answers API paths that match no route: 405 for a known path
// with another method, else 404, both as JSON.
func (s *Server) apiFallback(w http.ResponseWriter, r *http.Request) {
	if m, ok := s.routes[r.URL.Path]; ok {
		w.Header().Set("Allow", m)
		jsonError(w, http.StatusMethodNotAllowed, fmt.Sprintf("%s wants %s, not %s", r.URL.Path, m, r.Method))
		return
	}
	jsonError(w, http.StatusNotFound, fmt.Sprintf("no API at %s", r.URL.Path))
}

// acquire takes a place in sem, waiting at most QueueWait.
func (s *Server) acquire(ctx context.Context, sem chan struct{}) bool {
	select {
	case sem <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(s.cfg.QueueWait)
	defer t.Stop()
	select {
	case sem <- struct{}{}:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

func jsonError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]string{"error": msg})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code, b = http.StatusInternalServerError, []byte(`{"error":"cannot encode the answer"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(append(b, '\n'))
}

// A requestError is a bad request: its status and message.
type requestError struct {
	code int
	msg  string
}

func (e *requestError) Error() string { return e.msg }

// errBusy answers a request that found no place free within QueueWait
// (fail asks the client to retry in a second).
var errBusy = &requestError{http.StatusServiceUnavailable, "the server is busy: try again in a moment"}

func badRequest(format string, a ...any) error {
	return &requestError{http.StatusBadRequest, fmt.Sprintf(format, a...)}
}

// readBody reads a request's JSON body whole, at most MaxBody bytes,
// refusing other content types. A body that does not come within the
// connection's read deadline is refused with 408 (503 when the server is
// stopping and cut the read short).
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || ct != "application/json" {
		return nil, &requestError{http.StatusUnsupportedMediaType, "the body must be JSON (Content-Type: application/json)"}
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		var netErr net.Error
		switch {
		case errors.As(err, &tooBig):
			return nil, &requestError{http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is larger than %d bytes", MaxBody)}
		case errors.As(err, &netErr) && netErr.Timeout() && errors.Is(context.Cause(r.Context()), errStopping):
			return nil, &requestError{http.StatusServiceUnavailable, errStopping.Error()}
		case errors.As(err, &netErr) && netErr.Timeout():
			return nil, &requestError{http.StatusRequestTimeout, "the body came too slowly"}
		}
		return nil, badRequest("reading the body: %v", err)
	}
	return body, nil
}

// decode reads one JSON object from body into v, refusing unknown fields
// and trailing data.
func decode(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return badRequest("the body is empty: want a JSON object")
		}
		return badRequest("bad JSON: %v", jsonerr.Plain(err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return badRequest("bad JSON: data after the object")
	}
	return nil
}

// fail answers a request error (or any other error as 500).
func fail(w http.ResponseWriter, err error) {
	if re, ok := errors.AsType[*requestError](err); ok {
		if re == errBusy {
			w.Header().Set("Retry-After", "1")
		}
		jsonError(w, re.code, re.msg)
		return
	}
	jsonError(w, http.StatusInternalServerError, err.Error())
}
