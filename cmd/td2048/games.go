package main

import "github.com/td2048/td2048/games"

// gameOf is the game named by --game ("" when neither the flag nor a file
// names one: the default game), a usage error when there is none.
func gameOf(name string) (*games.Game, error) {
	g, err := games.Lookup(name)
	if err != nil {
		return nil, usagef("--game: %v", err)
	}
	return g, nil
}

// gameTitle is the title of the game of that name, or the name.
func gameTitle(name string) string {
	if g, err := games.Lookup(name); err == nil && name != "" {
		return g.Title
	}
	return name
}
