package bench

import (
	"context"
	"runtime"
	"testing"
)

// shortSignature is the signature of the Short workload. It changes
// exactly when the rules, the network, learning or search change; when a
// change is meant to change behaviour, put the new value here and say so
// in the commit.
const shortSignature = 0x685235d7

func TestShortSignature(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a 4x6 network")
	}
	a, err := Run(context.Background(), Short)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Phases) != 3 || !a.Repeatable {
		t.Fatalf("result %+v", a)
	}
	for _, p := range a.Phases {
		if p.Moves <= 0 || p.Elapsed <= 0 {
			t.Fatalf("phase %+v", p)
		}
	}
	if runtime.GOARCH == "amd64" && a.Signature != shortSignature {
		t.Errorf("signature %08x, want %08x: behaviour changed (if on purpose, update shortSignature)", a.Signature, uint32(shortSignature))
	}
	// One episode fewer is another workload with another signature.
	c := Short
	c.Episodes--
	b, _ := Run(context.Background(), c)
	if b.Signature == a.Signature {
		t.Error("signature did not change with the workload")
	}
}
