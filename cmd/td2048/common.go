package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"time"

	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
)

// seedFlag is a seed that is random unless given.
type seedFlag struct {
	set bool
	v   uint64
}

func (s *seedFlag) String() string {
	if !s.set {
		return ""
	}
	return strconv.FormatUint(s.v, 10)
}

func (s *seedFlag) Type() string { return "uint" }

func (s *seedFlag) Set(v string) error {
	x, err := strconv.ParseUint(v, 0, 64)
	if err != nil {
		return fmt.Errorf("seed %q is not an unsigned integer", v)
	}
	s.v, s.set = x, true
	return nil
}

// value returns the seed, drawing one from the system if none was given.
func (s *seedFlag) value() uint64 {
	if !s.set {
		s.v, s.set = rand.Uint64()>>1, true
	}
	return s.v
}

// loadNet loads weights for game (td2048's format, the course demo's
// 2048.bin or TDL2048+'s .w, told apart by content), checking the network
// when spec is set.
func loadNet(path, game string, spec *ntuple.Spec) (*ntuple.Network, netfile.Header, error) {
	net, h, err := netfile.LoadAny(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, h, fmt.Errorf("%s not found: train one with td2048 train, or name another with --load", path)
	}
	if err != nil {
		return nil, h, fmt.Errorf("load %v", err)
	}
	if err := netfile.Expect(path, h, game, "", spec); err != nil {
		net.Free()
		return nil, h, err
	}
	return net, h, nil
}

func parseLearner(s string) (learn.Kind, error) {
	k, err := learn.ParseKind(s)
	if err != nil {
		return 0, usagef("%v", err)
	}
	return k, nil
}

// describe is a network's one-line description.
func describe(spec ntuple.Spec) string {
	var ps string
	for i, p := range spec.Patterns {
		if i > 0 {
			ps += " "
		}
		ps += ntuple.PatternString(p)
	}
	iso := "8 isomorphisms"
	if !spec.Iso {
		iso = "no isomorphisms"
	}
	return fmt.Sprintf("%s (%s, %s, %s)", spec, ps, iso, mib(int64(spec.Weights())*4))
}

func mib(bytes int64) string {
	if bytes >= 1<<20 {
		return fmt.Sprintf("%d MiB", bytes>>20)
	}
	return fmt.Sprintf("%d KiB", (bytes+1023)>>10)
}

// rate formats moves per second.
func rate(moves int64, d time.Duration) string {
	r := float64(moves) / max(d.Seconds(), 1e-9)
	switch {
	case r >= 1e6:
		return fmt.Sprintf("%.2fM", r/1e6)
	case r >= 1e3:
		return fmt.Sprintf("%.1fk", r/1e3)
	}
	return fmt.Sprintf("%.0f", r)
}
