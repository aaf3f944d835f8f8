package main

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
)

func convertNet(t *testing.T, spec string) *ntuple.Network {
	t.Helper()
	net := ntuple.MustNew(spec)
	rng := rand.New(rand.NewPCG(11, 12))
	for i := range net.Weights() {
		net.Weights()[i] = float32(rng.NormFloat64() * 500)
	}
	return net
}

// TestConvertEveryWay converts td2048 -> a -> b -> td2048 for every pair of
// formats and wants the weights bit for bit, and the same values.
func TestConvertEveryWay(t *testing.T) {
	dir := t.TempDir()
	for _, spec := range []string{"0123,4567,0145", "8x4"} {
		t.Run(spec, func(t *testing.T) {
			orig := convertNet(t, spec)
			src := filepath.Join(dir, "src.td2048")
			if err := netfile.Save(src, orig, netfile.Header{Episodes: 77}); err != nil {
				t.Fatal(err)
			}
			kinds := []string{"td2048", "bin", "w"}
			for _, a := range kinds {
				t.Run(a, func(t *testing.T) {
					for _, b := range kinds {
						t.Run(b, func(t *testing.T) {
							pa, pb := filepath.Join(dir, "a."+a), filepath.Join(dir, "b."+b)
							end := filepath.Join(dir, "end.td2048")
							for _, step := range [][2]string{{src, pa}, {pa, pb}, {pb, end}} {
								os.Remove(step[1]) // convert replaces no file without --force
								code, out, errs := runCmd(t, "convert", step[0], step[1])
								if code != 0 {
									t.Fatalf("convert %s %s: exit %d: %s", step[0], step[1], code, errs)
								}
								if !strings.Contains(out, "-> "+step[1]) || !strings.Contains(out, "network "+orig.Spec().String()) {
									t.Errorf("output %q", out)
								}
							}
							got, h, err := netfile.LoadAny(end)
							if err != nil {
								t.Fatal(err)
							}
							if h.Game != "2048" || h.Learner != "after" {
								t.Errorf("header %+v", h)
							}
							if !got.Spec().Equal(orig.Spec()) {
								t.Fatalf("%s via %s, %s: network %s", spec, a, b, got.Spec())
							}
							for i, w := range orig.Weights() {
								if math.Float32bits(got.Weights()[i]) != math.Float32bits(w) {
									t.Fatalf("%s via %s, %s: weight %d is %v, want %v", spec, a, b, i, got.Weights()[i], w)
								}
							}
							rng := rand.New(rand.NewPCG(1, 2))
							for range 1000 {
								x := board.Board(rng.Uint64())
								if got.Estimate(x) != orig.Estimate(x) {
									t.Fatalf("V(%s) differs after conversion", x.Hex())
								}
							}
							got.Free()
						})
					}
				})
			}
		})
	}
}

// TestConvertFormats checks --to, detection by content and what the
// reference formats cannot hold.
func TestConvertFormats(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.td2048")
	netfile.Save(src, convertNet(t, "0123,4567"), netfile.Header{})
	// --to w into a name without .w: TDL2048+'s leading 'w', read back by content.
	odd := filepath.Join(dir, "model.dat")
	if code, _, errs := runCmd(t, "convert", src, odd, "--to", "w"); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	data, _ := os.ReadFile(odd)
	if len(data) == 0 || data[0] != 'w' {
		t.Fatalf("first byte %q", data[:1])
	}
	if code, out, errs := runCmd(t, "convert", odd, filepath.Join(dir, "x.bin")); code != 0 || !strings.Contains(out, "(TDL2048+ .w)") || !strings.Contains(out, "8 images") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}

	state := filepath.Join(dir, "state.td2048")
	netfile.Save(state, convertNet(t, "0123,4567"), netfile.Header{Learner: "state"})
	threes := filepath.Join(dir, "threes.td2048")
	netfile.Save(threes, convertNet(t, "0123,4567"), netfile.Header{Game: "threes"})
	noiso := filepath.Join(dir, "noiso.td2048")
	netfile.Save(noiso, convertNet(t, "0123,4567/noiso"), netfile.Header{})
	junk := filepath.Join(dir, "x.dat")
	os.WriteFile(junk, bytes.Repeat([]byte("not weights "), 20), 0o644)
	cut := filepath.Join(dir, "cut.w")
	runCmd(t, "convert", src, cut)
	data, _ = os.ReadFile(cut)
	os.WriteFile(cut, data[:len(data)-100], 0o644)

	out := filepath.Join(dir, "out.w")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"convert", src, filepath.Join(dir, "out")}, 2, "give --to"},
		{[]string{"convert", src, out, "--to", "png"}, 2, "want td2048, bin or w"},
		{[]string{"convert", src}, 2, "want IN and OUT"},
		{[]string{"convert", junk, out}, 1, "convert: " + junk + " is not a weight file td2048 knows: not td2048, 2048.bin or TDL2048+ .w"},
		{[]string{"convert", filepath.Join(dir, "missing"), out}, 1, "convert: cannot read " + filepath.Join(dir, "missing") + ": no such file"},
		{[]string{"convert", dir, filepath.Join(dir, "z.w")}, 1, "convert: cannot read " + dir + ": is a directory"},
		{[]string{"convert", cut, filepath.Join(dir, "y.td2048")}, 1, "cut short"},
		{[]string{"convert", state, out}, 1, "state-value weights"},
		{[]string{"convert", threes, out}, 1, "weights for threes"},
		{[]string{"convert", noiso, out}, 1, "without isomorphisms"},
	} {
		t.Run(c.want, func(t *testing.T) {
			code, stdout, errs := runCmd(t, c.args...)
			if code != c.code || stdout != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and one line with %q", c.args[1:], code, stdout, errs, c.code, c.want)
			}
		})
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a file was written from a refused conversion")
	}
	if code, _, errs := runCmd(t, "convert", state, out, "--force"); code != 0 {
		t.Errorf("--force: exit %d: %s", code, errs)
	}
}
