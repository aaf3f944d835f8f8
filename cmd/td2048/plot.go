package main

import (
	"fmt"
	flag "github.com/spf13/pflag"
	"strings"

	"github.com/td2048/td2048/plot"
)

func init() {
	register(&command{
		name:  "plot",
		args:  "LOG...",
		short: "draw learning curves (mean score, 2048/4096/... reach rates) from metrics logs as PNG or SVG",
		setup: setupPlot,
	})
}

func setupPlot(fs *flag.FlagSet, e *env) func([]string) error {
	out := fs.StringP("out", "o", "curve.png", "output image: .png or .svg")
	labels := fs.String("label", "", "comma-separated legend labels, one per LOG (default: the file names)")
	return func(args []string) error {
		if len(args) == 0 {
			return usagef("no metrics log given (td2048 plot LOG... -o curve.png)")
		}
		if _, err := plot.Format(*out); err != nil {
			return usagef("-o %v", err)
		}
		var names []string
		if *labels != "" {
			names = strings.Split(*labels, ",")
			if len(names) != len(args) {
				return usagef("--label has %d labels for %d logs", len(names), len(args))
			}
		}
		var series []plot.Series
		for i, path := range args {
			label := ""
			if names != nil {
				label = strings.TrimSpace(names[i])
			}
			s, err := plot.ReadLog(path, label)
			if err != nil {
				return err
			}
			series = append(series, s)
		}
		if err := plot.Save(*out, series...); err != nil {
			return err
		}
		blocks := 0
		for _, s := range series {
			blocks += len(s.Records)
		}
		fmt.Fprintf(e.stdout, "%s: %d logs, %d blocks\n", *out, len(series), blocks)
		return nil
	}
}
