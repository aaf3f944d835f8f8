//go:build !unix

package bench

import "time"

// CPUTime is not measured where getrusage is missing (Windows): it reads
// zero.
func CPUTime() time.Duration { return 0 }
