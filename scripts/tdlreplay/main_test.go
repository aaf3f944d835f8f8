package main

import (
	"testing"

	"github.com/td2048/td2048/board"
)

// The C++ standard's check of std::mt19937: the 10000th number from the
// default seed 5489 is 4123659995.
func TestMT19937(t *testing.T) {
	m := newMT(5489)
	var x uint32
	for range 10000 {
		x = m.next()
	}
	if x != 4123659995 {
		t.Errorf("10000th number %d, want 4123659995", x)
	}
	if first := newMT(5489).next(); first != 3499211612 {
		t.Errorf("first number %d, want 3499211612", first)
	}
}

// TDL2048+'s tile placement, by hand: the ((u>>16) mod empty)-th empty
// cell, a 4 when u mod 10 is 0; a new game's two cells from u's low bits.
func TestPlacement(t *testing.T) {
	// u = 3499211612 = 0xd091bb5c: k = 0xbb5c, i = 12, j = (12+1+(0xbb5>>0)%15)%16;
	// 0xbb5 = 2997, 2997 % 15 = 12, so j = 25 % 16 = 9; (u>>16) % 100 = 53393 % 100 = 93: both 2s.
	if b := start(newMT(5489)); b != board.Board(1<<(4*12)|1<<(4*9)) {
		t.Errorf("start %016x", uint64(b))
	}
	// Next u from seed 5489 is 581869302 = 0x22ae9bf6: (u>>16) = 0x22ae = 8878;
	// on a board with cells 0 and 1 full (14 empty), 8878 % 14 = 2 -> the
	// third empty cell, 4; u % 10 = 2: a 2.
	m := newMT(5489)
	m.next()
	if b := spawn(board.Board(0x11), m); b != board.Board(0x11|1<<(4*4)) {
		t.Errorf("spawn %016x", uint64(b))
	}
}
