// Package buildinfo says which build of td2048 is running: the module
// version, the commit it was built from and the toolchain, as the Go
// toolchain recorded them in the executable, and a checksum of the
// executable itself for builds whose commit does not tell their code.
// Results record it, so that results of different builds are not mixed
// unnoticed.
package buildinfo

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
)

// Info identifies a build.
type Info struct {
	// Version is the module version: v1.2.3 when installed by version,
	// "(devel)" when built from a checkout.
	Version string `json:"version"`
	// Revision is the VCS commit the build was made from, "" when the
	// toolchain recorded none (go build -buildvcs=false, or no checkout).
	Revision string `json:"revision,omitempty"`
	// Time is the commit's time, RFC 3339.
	Time string `json:"time,omitempty"`
	// Modified: the checkout had changes not committed.
	Modified bool `json:"modified,omitempty"`
	// Go is the toolchain, like go1.26.8.
	Go string `json:"go"`
	// Platform is GOOS/GOARCH, and the amd64 level when not v1: floating
	// point arithmetic may round differently from one to another.
	Platform string `json:"platform"`
	// Executable is the SHA-256 of the running executable, in hex, ""
	// when it could not be read.
	Executable string `json:"executable_sha256,omitempty"`
}

// String is the build as td2048 version prints it: the module version,
// the commit (short), whether modified, the commit's time, the toolchain.
func (b Info) String() string {
	v := b.Version
	if rev := b.Revision; rev != "" {
		v += " (commit " + rev[:min(12, len(rev))]
		if b.Modified {
			v += ", modified"
		}
		if b.Time != "" {
			v += ", " + b.Time
		}
		v += ")"
	}
	return v + ", " + b.Go
}

// Describe is String with the platform, and the executable's checksum
// where the commit does not tell the code (see Same).
func (b Info) Describe() string {
	s := b.String() + ", " + b.Platform
	if !b.revisionTells() && b.Executable != "" {
		s += ", executable " + b.Executable[:min(12, len(b.Executable))]
	}
	return s
}

// revisionTells: the commit names the code built (a clean checkout).
func (b Info) revisionTells() bool { return b.Revision != "" && !b.Modified }

// Same reports whether a and b are the same build: the same version,
// commit, toolchain and platform, and, when there is no commit or the
// checkout was modified, the same executable.
func Same(a, b Info) bool {
	if a.Version != b.Version || a.Revision != b.Revision || a.Modified != b.Modified || a.Go != b.Go || a.Platform != b.Platform {
		return false
	}
	return a.revisionTells() || a.Executable == b.Executable
}

// stamped is the version set by Stamp.
var stamped string

// Stamp sets the version this build reports in place of the module
// version the toolchain recorded, for a build stamped at link time (go
// build -ldflags "-X main.buildVersion=v1.2.3" where the build context has
// no VCS information); "" keeps the recorded one. Call it before Current.
func Stamp(version string) { stamped = version }

// recorded is the build as the toolchain recorded it in the executable.
func recorded() (Info, bool) {
	b := Info{Version: "(unknown)", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return b, false
	}
	b.Version, b.Go = bi.Main.Version, bi.GoVersion
	switch {
	case stamped != "":
		b.Version = stamped
	case b.Version == "":
		b.Version = "(devel)"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		case "GOAMD64":
			if s.Value != "v1" {
				b.Platform += " " + s.Value
			}
		}
	}
	return b, true
}

var current = sync.OnceValue(func() Info {
	b, _ := recorded()
	b.Executable = executableSum()
	return b
})

// Current is the running build; the executable is read once.
func Current() Info { return current() }

func executableSum() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Version is the running build's String ("(unknown)" when the toolchain
// recorded nothing), without reading the executable.
func Version() string {
	b, ok := recorded()
	if !ok {
		return "(unknown)"
	}
	return b.String()
}
