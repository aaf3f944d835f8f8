package jsonerr

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

type Summary struct {
	Avg float64 `json:"avg"`
}

type rec struct {
	Summary
	N     int    `json:"n"`
	Seed  uint64 `json:"seed"`
	Board string `json:"board"`
	Bag   []int  `json:"bag"`
}

func TestPlain(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"avg":NaN}`, "not valid JSON at byte 8"},
		{`{"avg":1`, "the JSON ends early (cut short?)"},
		{`{`, "the JSON ends early (cut short?)"},
		{`[]`, "the JSON value: a list, want an object"},
		{`"x"`, "the JSON value: a string, want an object"},
		{`{"avg":1e400}`, `field "avg": 1e400 is out of range`},
		{`{"avg":"x"}`, `field "avg": a string, want a number`},
		{`{"n":1.5}`, `field "n": 1.5, want a whole number`},
		{`{"n":99999999999999999999}`, `field "n": 99999999999999999999 is out of range`},
		{`{"seed":-1}`, `field "seed": -1, want a whole number, 0 or more`},
		{`{"board":5}`, `field "board": a number, want a string`},
		{`{"bag":"x"}`, `field "bag": a string, want a list`},
		{`{"bag":[1.5]}`, `field "bag": 1.5, want a whole number`},
		{`{"foo":1}`, `unknown field "foo"`},
	} {
		dec := json.NewDecoder(strings.NewReader(c.in))
		dec.DisallowUnknownFields()
		var r rec
		err := dec.Decode(&r)
		if err == nil {
			t.Fatalf("%s: decoded", c.in)
		}
		got := Plain(err).Error()
		if got != c.want {
			t.Errorf("%s: %q, want %q (json: %v)", c.in, got, c.want, err)
		}
		if strings.Contains(got, "json") || strings.Contains(got, "Go ") || strings.Contains(got, "float64") {
			t.Errorf("%s: %q names json's internals", c.in, got)
		}
	}
	if Plain(nil) != nil {
		t.Error("Plain(nil) is not nil")
	}
	other := errors.New("disk full")
	if Plain(other) != other {
		t.Error("another error is not returned as it is")
	}
}
