package train

import (
	"reflect"
	"slices"
	"strings"
	"time"

	flag "github.com/spf13/pflag"
)

// A Field is one setting of a spec struct, as its tags describe it: its
// toml key (a plan's key and, with - for _, its flag), its help, group
// and arg (the word of the help that names the value), and its rule, of
// the rule tag its table reads.
type Field[R any] struct {
	Key, Flag, Help, Group, Arg string
	Rule                        R
	NonEmpty                    bool // a file name flag that refuses "" (flag:"nonempty")
	index                       []int
}

// A Table lists the settings of a spec struct in order: train's Spec
// and evalrun's share how their fields make flags and plan keys.
type Table[R any] []Field[R]

// NewTable reads the fields of struct type t, those of the structs it
// embeds in their place; each needs its toml, help, group (one of
// groups) and ruleTag tags, the last a key of rules.
func NewTable[R any](t reflect.Type, ruleTag string, rules map[string]R, groups []string) Table[R] {
	var tab Table[R]
	for _, f := range reflect.VisibleFields(t) {
		if f.Anonymous || !f.IsExported() {
			continue
		}
		key := f.Tag.Get("toml")
		rule, ok := rules[f.Tag.Get(ruleTag)]
		if key == "" || !ok || f.Tag.Get("help") == "" || !slices.Contains(groups, f.Tag.Get("group")) {
			panic(t.String() + "." + f.Name + " lacks its toml, " + ruleTag + ", group or help tag")
		}
		tab = append(tab, Field[R]{Key: key, Flag: FlagOf(key), Help: f.Tag.Get("help"), Group: f.Tag.Get("group"), Arg: f.Tag.Get("arg"),
			Rule: rule, NonEmpty: f.Tag.Get("flag") == "nonempty", index: f.Index})
	}
	return tab
}

// Lookup is the field of that toml key.
func (t Table[R]) Lookup(key string) (Field[R], bool) {
	for _, f := range t {
		if f.Key == key {
			return f, true
		}
	}
	return Field[R]{}, false
}

// Keys lists the fields' toml keys, in order.
func (t Table[R]) Keys() []string {
	k := make([]string, len(t))
	for i, f := range t {
		k[i] = f.Key
	}
	return k
}

// Of is the field f of the struct p points to, settable.
func (f Field[R]) Of(p any) reflect.Value { return reflect.ValueOf(p).Elem().FieldByIndex(f.index) }

// Addr is the address of the field of that toml key in the struct p
// points to, for decoders to set (false when there is no such field).
func (t Table[R]) Addr(p any, key string) (any, bool) {
	f, ok := t.Lookup(key)
	if !ok {
		return nil, false
	}
	return f.Of(p).Addr().Interface(), true
}

// AddFlags defines a flag for each field on fs, setting the struct p
// points to: named by its toml key (- for _), its value in p as default,
// its help as help (help, when not nil, gives each one's instead, and
// false for no flag), with the arg word in backquotes (pflag names the
// value by it: --save FILE rather than --save string), and with grouped
// its group as its GroupAnnotation.
func (t Table[R]) AddFlags(fs *flag.FlagSet, p any, help func(Field[R]) (string, bool), grouped bool) {
	for _, f := range t {
		if help != nil {
			h, ok := help(f)
			if !ok {
				continue
			}
			f.Help = h
		}
		if f.Arg != "" {
			f.Help = strings.Replace(f.Help, f.Arg, "`"+f.Arg+"`", 1)
		}
		switch v := f.Of(p).Addr().Interface().(type) {
		case *string:
			if f.NonEmpty {
				fs.Var((*nonEmpty)(v), f.Flag, f.Help)
			} else {
				fs.StringVar(v, f.Flag, *v, f.Help)
			}
		case *Episode:
			fs.StringVar((*string)(v), f.Flag, string(*v), f.Help)
		case *int:
			fs.IntVar(v, f.Flag, *v, f.Help)
		case *float64:
			fs.Float64Var(v, f.Flag, *v, f.Help)
		case *bool:
			fs.BoolVar(v, f.Flag, *v, f.Help)
		case *Duration:
			fs.DurationVar((*time.Duration)(v), f.Flag, time.Duration(*v), f.Help)
		case **uint64:
			fs.Var(Seed{v}, f.Flag, f.Help)
		case flag.Value:
			fs.Var(v, f.Flag, f.Help)
		default:
			panic("train: no flag for the field " + f.Key)
		}
		if grouped {
			fs.SetAnnotation(f.Flag, GroupAnnotation, []string{f.Group})
		}
	}
}

// Given are the fields whose flags were set on fs.
func (t Table[R]) Given(fs *flag.FlagSet) Given {
	g := Given{}
	for _, f := range t {
		if fs.Changed(f.Flag) {
			g[f.Key] = true
		}
	}
	return g
}
