package main

import (
	"fmt"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/netfile"
)

// gameOf is the game named by --game ("" when neither the flag nor a file
// names one: the default game), a usage error when there is none.
func gameOf(name string) (*games.Game, error) {
	g, err := games.Lookup(name)
	if err != nil {
		return nil, usagef("--game: %v", err)
	}
	return g, nil
}

// gameOfFile is the game --game names or, when it is not given, the one
// the weights file load names (the default game when neither does; a
// reference-format file names none). A game the file names that this
// td2048 does not know is the file's error, not a usage error.
func gameOfFile(fs *flag.FlagSet, name, load string) (*games.Game, error) {
	if !fs.Changed("game") {
		if h, err := netfile.ReadHeader(load); err == nil && h.Game != "" {
			g, err := games.Lookup(h.Game)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", load, err)
			}
			return g, nil
		}
	}
	return gameOf(name)
}

// gameTitle is the title of the game of that name, or the name.
func gameTitle(name string) string {
	if g, err := games.Lookup(name); err == nil && name != "" {
		return g.Title
	}
	return name
}

// loadHelp is the help of the --load flag of a command that reads
// weights: what it does with them, and the file it reads when none is
// named (defaultLoad).
func loadHelp(what string) string {
	var files []string
	for _, g := range games.All() {
		if g.Name == games.Default {
			files = append(files, g.File)
		} else {
			files = append(files, fmt.Sprintf("%s with --game %s", g.File, g.Name))
		}
	}
	return fmt.Sprintf("%s (default: the game's file, %s)", what, strings.Join(files, "; "))
}

// defaultLoad gives --load, when it is not given, the file of the game
// --game names (the default game's when it names none): each game its
// own file, weights.td2048 or threes.td2048, as train saves them.
func defaultLoad(fs *flag.FlagSet, load *string, game string) error {
	g, err := gameOf(game)
	if err != nil {
		return err
	}
	if !fs.Changed("load") {
		*load = g.File
	}
	return nil
}
