// Package jsonerr words the errors of encoding/json for the people who
// wrote the file or the request: where the text stops being JSON, which
// field holds what kind of value, a number out of range, an unknown field,
// rather than json's own words (its Go types and "looking for beginning of
// value").
package jsonerr

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"unicode"
)

// Plain returns err, an error of json.Unmarshal or a json.Decoder, in
// plain words; any other error is returned as it is.
func Plain(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, io.ErrUnexpectedEOF), errors.As(err, &syn) && strings.Contains(syn.Error(), "unexpected end"):
		return errors.New("the JSON ends early (cut short?)")
	case syn != nil:
		return fmt.Errorf("not valid JSON at byte %d", syn.Offset)
	case errors.As(err, &typ):
		return typeError(typ)
	}
	if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return fmt.Errorf("unknown field %s", f)
	}
	if m, ok := strings.CutPrefix(err.Error(), "json: "); ok {
		return errors.New(m)
	}
	return err
}

// typeError says which field holds the wrong kind of value.
func typeError(e *json.UnmarshalTypeError) error {
	want := kind(e.Type)
	what := "the JSON value"
	if f := jsonPath(e.Field); f != "" {
		what = fmt.Sprintf("field %q", f)
	}
	if num, ok := strings.CutPrefix(e.Value, "number "); ok && isNumber(e.Type) {
		if isInteger(e.Type) && (strings.ContainsAny(num, ".eE") || want != "a whole number" && strings.HasPrefix(num, "-")) {
			return fmt.Errorf("%s: %s, want %s", what, num, want)
		}
		return fmt.Errorf("%s: %s is out of range", what, num)
	}
	return fmt.Errorf("%s: %s, want %s", what, article(e.Value), want)
}

// jsonPath is a field's path as the JSON names it: json's path without
// the names of embedded Go structs ("Summary.avg" is "avg"), which the
// JSON does not have (td2048's JSON keys are lower case).
func jsonPath(field string) string {
	var keep []string
	for _, p := range strings.Split(field, ".") {
		if p != "" && !unicode.IsUpper(rune(p[0])) {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, ".")
}

func isNumber(t reflect.Type) bool {
	return t != nil && (isInteger(t) || t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64)
}

// isInteger: reflect's kinds Int to Uint64 are the integer kinds, all
// but Uintptr.
func isInteger(t reflect.Type) bool {
	return t != nil && t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64
}

// kind names what a Go type holds in JSON's terms.
func kind(t reflect.Type) string {
	switch {
	case t == nil:
		return "another value"
	case isInteger(t) && t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uint64:
		return "a whole number, 0 or more"
	case isInteger(t):
		return "a whole number"
	case isNumber(t):
		return "a number"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return kind(t.Elem())
	}
	return "another value"
}

// article turns json's "array", "string", "number 1.5" into "a list", "a
// string", "1.5".
func article(v string) string {
	if a, ok := articles[v]; ok {
		return a
	}
	if num, ok := strings.CutPrefix(v, "number "); ok {
		return num
	}
	return v
}

var articles = map[string]string{"array": "a list", "object": "an object", "string": "a string", "bool": "true or false", "number": "a number"}
