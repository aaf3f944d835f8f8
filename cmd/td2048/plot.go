package main

import (
	"fmt"
	"slices"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/internal/evalrun"
	"github.com/td2048/td2048/internal/plot"
)

func init() {
	register(&command{
		name:  "plot",
		args:  "LOG...",
		short: "draw learning curves (mean score, 2048/4096/... reach rates) from metrics logs, the course demo's printed output or TDL2048+'s, as PNG, SVG or PDF",
		example: `  td2048 plot weights.jsonl                      # curve.png
  td2048 plot a.jsonl b.jsonl --label "alpha 0.1,alpha 0.025" -o cmp.svg
  td2048 plot weights.jsonl tdl.txt --label td2048,TDL2048+   # beside TDL2048+'s output (./2048 -t 100 > tdl.txt)
  td2048 plot weights.jsonl demo.txt --label td2048,mine      # beside your course demo's (./2048 > demo.txt)`,
		setup: setupPlot,
	})
}

func setupPlot(fs *flag.FlagSet, e *env) func([]string) error {
	out := fs.StringP("out", "o", "curve.png", "output image: .png, .svg or .pdf")
	labels := fs.String("label", "", "comma-separated legend labels, one per LOG (default: the file names); a LOG is td2048's metrics log, or the saved output of a training run of the course demo, td2048 train or TDL2048+")
	title := fs.String("title", "", "the figure's title (default: \"Learning curve: RUN (network N)\", or \"Learning curves\")")
	force := fs.Bool("force", false, "replace an -o file that is not a figure td2048 drew (a photo, a paper)")
	dpi := fs.Int("dpi", plot.DefaultDPI, "PNG resolution in dots per inch; the figure stays 9 x 7.5 inches (300 for print)")
	return func(args []string) error {
		if len(args) == 0 {
			return usagef("no metrics log given (td2048 plot LOG... -o curve.png)")
		}
		format, err := plot.Format(*out)
		if err != nil {
			return usagef("-o %v", err)
		}
		if fs.Changed("dpi") && format != "png" {
			return usagef("--dpi is for PNG figures; %s is %s, a vector format", *out, strings.ToUpper(format))
		}
		if *dpi < 1 || *dpi > 2400 {
			return usagef("--dpi %d: want 1 to 2400", *dpi)
		}
		// An image is redrawn from its logs, so an earlier figure may be
		// replaced; anything else (a log, weights) is not, without --force.
		release, err := claimOutput(*out, "out", "image", *force)
		if err != nil {
			return err
		}
		defer release()
		names := make([]string, len(args)) // none: ReadLog's labels
		if *labels != "" {
			names = strings.Split(*labels, ",")
			if len(names) != len(args) {
				return usagef("--label has %s for %s", evalrun.Counted(len(names), "label"), evalrun.Counted(len(args), "log"))
			}
		}
		var series []plot.Series
		for i, path := range args {
			s, err := plot.ReadLog(path, strings.TrimSpace(names[i]))
			if err != nil {
				return err
			}
			series = append(series, s)
		}
		if games := plot.Games(series); len(games) > 1 {
			var names []string
			for _, g := range games {
				var logs []string
				for i, s := range series {
					if slices.Contains(plot.Games(series[i:i+1]), g) {
						logs = append(logs, s.Label)
					}
				}
				names = append(names, fmt.Sprintf("%s (%s)", gameTitle(g), strings.Join(logs, ", ")))
			}
			fmt.Fprintf(e.stderr, "td2048 plot: warning: one figure mixes the games %s: their scores and tiles do not compare\n",
				strings.Join(names, " and "))
		}
		if err := plot.Save(*out, plot.Options{Title: *title, DPI: *dpi}, series...); err != nil {
			return err
		}
		blocks := 0
		for _, s := range series {
			blocks += len(s.Records)
		}
		fmt.Fprintf(e.stdout, "%s: %s, %s\n", *out, evalrun.Counted(len(series), "log"), evalrun.Counted(blocks, "block"))
		return nil
	}
}
