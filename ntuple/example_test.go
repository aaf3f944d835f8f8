package ntuple_test

import (
	"fmt"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/ntuple"
)

// A network is made from a spec (a name or hex patterns); V(board) is the
// sum of each pattern's weight on each of the board's 8 images. Update
// moves each of the 16 lookups by a 16th of the step and returns the value
// summed as it goes; a weight that several images read (here the empty
// rows' weight) moves once per image, so the value moves by more than the
// step.
func Example() {
	spec, err := ntuple.ParseSpec("0123,4567")
	if err != nil {
		panic(err)
	}
	net, err := ntuple.New(spec)
	if err != nil {
		panic(err)
	}
	defer net.Free()
	fmt.Println(net.Spec(), net.Lookups(), "lookups,", len(net.Weights()), "weights")
	b, _ := board.Parse("2,4,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,0")
	fmt.Println(net.Estimate(b))
	v := net.Update(b, 1.6)
	fmt.Printf("%.2f %.2f\n", v, net.Estimate(b))
	// Output:
	// 2x4 16 lookups, 131072 weights
	// 0
	// 3.70 5.80
}
