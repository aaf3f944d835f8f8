package buildinfo

import (
	"runtime"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	for _, c := range []struct {
		b    Info
		want string
	}{
		{Info{Version: "(devel)", Go: "go1.26.8"}, "(devel), go1.26.8"},
		{Info{Version: "v1.2.3", Revision: "0123456789abcdef", Time: "2025-01-02T03:04:05Z", Go: "go1.26.8"}, "v1.2.3 (commit 0123456789ab, 2025-01-02T03:04:05Z), go1.26.8"},
		{Info{Version: "(devel)", Revision: "0123", Modified: true, Go: "go1.26.8"}, "(devel) (commit 0123, modified), go1.26.8"},
	} {
		t.Run(c.want, func(t *testing.T) {
			if got := c.b.String(); got != c.want {
				t.Errorf("String = %q, want %q", got, c.want)
			}
		})
	}
}

// TestSame: builds differ by version, commit, toolchain or platform; the
// executable tells builds apart only where the commit does not name the
// code (none recorded, or a modified checkout).
func TestSame(t *testing.T) {
	clean := Info{Version: "v1", Revision: "abc", Go: "go1.26.8", Platform: "linux/amd64", Executable: "e1"}
	devel := Info{Version: "(devel)", Go: "go1.26.8", Platform: "linux/amd64", Executable: "e1"}
	for _, c := range []struct {
		name string
		a, b Info
		same bool
	}{
		{"identical", clean, clean, true},
		{"clean commit, other executable", clean, with(clean, func(b *Info) { b.Executable = "e2" }), true},
		{"other commit", clean, with(clean, func(b *Info) { b.Revision = "abd" }), false},
		{"other version", clean, with(clean, func(b *Info) { b.Version = "v2" }), false},
		{"other toolchain", clean, with(clean, func(b *Info) { b.Go = "go1.27" }), false},
		{"other platform", clean, with(clean, func(b *Info) { b.Platform = "linux/arm64" }), false},
		{"modified", clean, with(clean, func(b *Info) { b.Modified = true }), false},
		{"no commit, same executable", devel, devel, true},
		{"no commit, other executable", devel, with(devel, func(b *Info) { b.Executable = "e2" }), false},
		{"modified, other executable", with(clean, func(b *Info) { b.Modified = true }), with(clean, func(b *Info) { b.Modified, b.Executable = true, "e2" }), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Same(c.a, c.b); got != c.same {
				t.Errorf("%s: Same = %v", c.name, got)
			}
		})
	}
	if d := devel.Describe(); !strings.Contains(d, "executable e1") || strings.Contains(clean.Describe(), "executable") {
		t.Errorf("Describe: %q, %q", d, clean.Describe())
	}
}

func with(b Info, f func(*Info)) Info {
	f(&b)
	return b
}

func TestCurrent(t *testing.T) {
	b := Current()
	if b.Go != runtime.Version() || !strings.HasPrefix(b.Platform, runtime.GOOS+"/"+runtime.GOARCH) || len(b.Executable) != 64 {
		t.Fatalf("Current = %+v", b)
	}
	if v := Version(); !strings.HasSuffix(v, ", "+b.Go) {
		t.Fatalf("Version = %q", v)
	}
	Stamp("v9.9.9")
	defer Stamp("")
	if v := Version(); !strings.HasPrefix(v, "v9.9.9") {
		t.Fatalf("stamped: Version = %q", v)
	}
}
