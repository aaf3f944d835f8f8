package board

// The directions of a slide, numbered alike in every game (packages
// rules/game2048, rules/threes and session name them too).
const (
	Up = iota
	Right
	Down
	Left
)

// DirNames are the directions' names in direction order.
var DirNames = [4]string{"up", "right", "down", "left"}
