//go:build unix

package main

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSecondSIGTERMIgnored: once a first SIGTERM has interrupted an
// evaluation, more SIGTERMs do not end the process before it has recorded
// its games. Slurm sends a job step two at its time limit (one for the
// limit, one as it ends the job); the second used to kill eval at once,
// losing the record the first one asked for. The check runs in a child
// process, which the old code's second SIGTERM killed.
func TestSecondSIGTERMIgnored(t *testing.T) {
	if os.Getenv("TD2048_SIGTERM_CHILD") == "1" {
		ctx, stop := interruptible()
		defer stop()
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
		<-ctx.Done()
		for range 50 {
			syscall.Kill(os.Getpid(), syscall.SIGTERM)
			time.Sleep(2 * time.Millisecond)
		}
		os.Stdout.WriteString("survived the SIGTERMs after the first\n")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSecondSIGTERMIgnored$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TD2048_SIGTERM_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "survived the SIGTERMs after the first") {
		t.Errorf("a second SIGTERM after the first: %v\n%s", err, out)
	}
}
