package train

import (
	"fmt"
	"io"

	"github.com/td2048/td2048/learn"
)

// WriteHeader prints what the run is, before its first block, as the
// train command does.
func (r *Run) WriteHeader(w io.Writer) {
	s, g, st := &r.Spec, r.Game, &r.State
	fmt.Fprintf(w, "td2048 train\n")
	fmt.Fprintf(w, "game = %s\nnetwork = %s\n", g.Title, r.Net.Spec().Describe())
	switch {
	case s.Resume != "":
		fmt.Fprintf(w, "resumed = %s (%d of %d episodes done)\n", s.Resume, st.Done, s.Episodes)
	case s.Load != "":
		fmt.Fprintf(w, "loaded = %s (%d episodes)\n", s.Load, r.Loaded.Episodes)
	}
	learner := "after-state " + r.Mode.Describe()
	if r.Net.Coherent() {
		learner += ", temporal coherence"
	}
	if r.Kind == learn.State {
		learner = "state TD(0), backward episode updates"
	}
	fmt.Fprintf(w, "learner = %s\nalpha = %s\ntotal = %d\nthreads = %d\nseed = %d\n", learner, r.State.Schedule, s.Episodes, s.Threads, *s.Seed)
	if s.Interleave > 1 {
		fmt.Fprintf(w, "interleave = %d episodes per thread\n", s.Interleave)
	}
	if a := learn.AdaptChoices(s.Threads, s.Interleave); a != "" && r.Adapt {
		fmt.Fprintf(w, "adapt = %s, whichever trains faster as the run goes\n", a)
	}
	if s.Init != 0 && s.Resume == "" {
		fmt.Fprintf(w, "init = every board valued at %g (optimistic)\n", s.Init)
	}
	if rc, err := LookupRecipe(s.Recipe); err == nil && s.Resume == "" {
		fmt.Fprintf(w, "recipe = %s (%s)\n", rc.Name, rc.Cite)
	}
	if s.Promote {
		fmt.Fprintf(w, "promotion = a stage first entered starts from the stage below's weights\n")
	}
	if sh := r.Shaping; sh != (learn.Shaping{}) {
		fmt.Fprintf(w, "shaping = %s\n", sh.Describe())
	}
	if c := r.CoherenceFrom; c > 0 {
		fmt.Fprintf(w, "coherence = temporal coherence from episode %d\n", c)
	}
	if r.LogPath != "" {
		fmt.Fprintf(w, "log = %s\n", r.LogPath)
	}
	if s.Plot != "" {
		fmt.Fprintf(w, "plot = %s\n", s.Plot)
	}
}
