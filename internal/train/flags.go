package train

import (
	"errors"
	"math/rand/v2"
	"strconv"

	flag "github.com/spf13/pflag"
)

// AddFlags defines a flag for each field of s on fs, named by its toml
// key (with - for _), with its help tag as help, its group tag as its
// GroupAnnotation and its value in s as default; parsing fs sets the
// fields.
func (s *Spec) AddFlags(fs *flag.FlagSet) { fields.AddFlags(fs, s, nil, true) }

// GroupAnnotation is the flag annotation AddFlags gives each flag: its
// field's group (Groups), for help to show the flags by group.
const GroupAnnotation = "group"

// GivenFlags are the fields whose flags were set on fs.
func GivenFlags(fs *flag.FlagSet) Given { return fields.Given(fs) }

// nonEmpty is a file name flag that refuses an empty name.
type nonEmpty string

func (n *nonEmpty) String() string { return string(*n) }
func (n *nonEmpty) Type() string   { return "string" }
func (n *nonEmpty) Set(v string) error {
	if v == "" {
		return errors.New("want a file name")
	}
	*n = nonEmpty(v)
	return nil
}

// A Seed is a seed flag: random (nil) unless given; a Spec's --seed, and
// the seed of the commands that play.
type Seed struct{ p **uint64 }

// NewSeed is a seed flag of its own, not yet given.
func NewSeed() Seed { return Seed{new(*uint64)} }

func (s Seed) String() string {
	if *s.p == nil {
		return ""
	}
	return strconv.FormatUint(**s.p, 10)
}

func (s Seed) Type() string { return "uint" }

func (s Seed) Set(v string) error {
	x, err := strconv.ParseUint(v, 0, 64)
	if err != nil {
		return errors.New("seed " + strconv.Quote(v) + " is not an unsigned integer")
	}
	*s.p = &x
	return nil
}

// Value is the seed, drawn from the system (and kept) if none was given.
func (s Seed) Value() uint64 {
	if *s.p == nil {
		sd := rand.Uint64() >> 1
		*s.p = &sd
	}
	return **s.p
}
