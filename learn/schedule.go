package learn

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// A Schedule gives the learning rate of each episode: steps by episode
// count ("0:0.1,200000:0.05", lowering alpha as learning converges),
// optionally scaled down when the block averages stop rising. Its exported
// state is saved in checkpoints.
type Schedule struct {
	Steps []Step `json:"steps"`
	// Plateau: when the mean of the last PlateauBlocks block averages has
	// not beaten the best such mean for PlateauBlocks blocks, the rate is
	// multiplied by PlateauFactor. Off when PlateauBlocks is 0.
	PlateauFactor float64 `json:"plateau_factor,omitempty"`
	PlateauBlocks int     `json:"plateau_blocks,omitempty"`
	// Floor is the lowest rate the plateau cuts take a step's rate to
	// (0: none); a step whose own rate is lower keeps it.
	Floor float64 `json:"floor,omitempty"`

	Scale  float64   `json:"scale"`            // product of the plateau cuts so far
	Best   float64   `json:"best,omitempty"`   // best windowed mean so far
	Since  int       `json:"since,omitempty"`  // blocks since Best improved
	Recent []float64 `json:"recent,omitempty"` // the last block averages
}

// A Step sets the rate from an episode on.
type Step struct {
	Episode int     `json:"episode"`
	Alpha   float64 `json:"alpha"`
}

// Constant is the schedule of one rate.
func Constant(alpha float64) *Schedule {
	return &Schedule{Steps: []Step{{0, alpha}}, Scale: 1}
}

// maxAlpha bounds the learning rate: alpha is the step of the whole value,
// so a rate above 1 overshoots every target and drives the weights to
// infinity.
const maxAlpha = 1.0

// CheckAlpha refuses a learning rate that is not a number from 0 to
// maxAlpha.
func CheckAlpha(a float64) error {
	if !(a >= 0 && a <= maxAlpha) {
		return fmt.Errorf("learning rate %v: want a number from 0 to %v (the course uses 0.1)", a, maxAlpha)
	}
	return nil
}

// ParseSchedule reads "EPISODE:ALPHA,..." (the first step may start later
// than 0: before it, base applies).
func ParseSchedule(s string, base float64) (*Schedule, error) {
	if err := CheckAlpha(base); err != nil {
		return nil, err
	}
	sc := Constant(base)
	if strings.TrimSpace(s) == "" {
		return sc, nil
	}
	seen := map[int]bool{}
	for _, part := range strings.Split(s, ",") {
		e, a, ok := strings.Cut(strings.TrimSpace(part), ":")
		ep, err1 := strconv.Atoi(strings.TrimSpace(e))
		al, err2 := strconv.ParseFloat(strings.TrimSpace(a), 64)
		if !ok || err1 != nil || err2 != nil || ep < 0 || !(al >= 0) {
			return nil, fmt.Errorf("alpha schedule %q: want EPISODE:ALPHA pairs like 0:0.1,200000:0.05", s)
		}
		if err := CheckAlpha(al); err != nil {
			return nil, fmt.Errorf("alpha schedule %q: %w", s, err)
		}
		if seen[ep] {
			return nil, fmt.Errorf("alpha schedule %q: episode %d twice", s, ep)
		}
		seen[ep] = true
		if ep == 0 {
			sc.Steps[0].Alpha = al
		} else {
			sc.Steps = append(sc.Steps, Step{ep, al})
		}
	}
	sort.SliceStable(sc.Steps, func(i, j int) bool { return sc.Steps[i].Episode < sc.Steps[j].Episode })
	return sc, nil
}

// SetPlateau turns on the cut on plateaus: "FACTOR:BLOCKS" like "0.5:10".
func (s *Schedule) SetPlateau(spec string) error {
	f, b, ok := strings.Cut(spec, ":")
	factor, err1 := strconv.ParseFloat(f, 64)
	blocks, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || !(factor > 0 && factor < 1) || blocks < 1 {
		return fmt.Errorf("plateau %q: want FACTOR:BLOCKS with 0 < FACTOR < 1, like 0.5:10", spec)
	}
	s.PlateauFactor, s.PlateauBlocks = factor, blocks
	return nil
}

// Alpha is the rate for episode i (counted from 0).
func (s *Schedule) Alpha(i int) float32 {
	a := s.Steps[0].Alpha
	for _, st := range s.Steps[1:] {
		if i >= st.Episode {
			a = st.Alpha
		}
	}
	if a*s.Scale < s.Floor {
		return float32(min(a, s.Floor))
	}
	return float32(a * s.Scale)
}

// Observe takes a finished block's average and reports whether the rate
// was cut.
func (s *Schedule) Observe(avg float64) bool {
	if s.PlateauBlocks == 0 {
		return false
	}
	s.Recent = append(s.Recent, avg)
	if len(s.Recent) > s.PlateauBlocks {
		s.Recent = s.Recent[1:]
	}
	if len(s.Recent) < s.PlateauBlocks {
		return false
	}
	mean := 0.0
	for _, v := range s.Recent {
		mean += v
	}
	mean /= float64(len(s.Recent))
	if mean > s.Best {
		s.Best, s.Since = mean, 0
		return false
	}
	if s.Since++; s.Since < s.PlateauBlocks {
		return false
	}
	s.Scale *= s.PlateauFactor
	s.Best, s.Since, s.Recent = 0, 0, nil
	return true
}

// String describes the schedule for people.
func (s *Schedule) String() string {
	var parts []string
	for _, st := range s.Steps {
		parts = append(parts, fmt.Sprintf("%d:%g", st.Episode, st.Alpha))
	}
	d := strings.Join(parts, ",")
	if len(s.Steps) == 1 {
		d = strconv.FormatFloat(s.Steps[0].Alpha, 'g', -1, 64)
	}
	if s.PlateauBlocks > 0 {
		d += fmt.Sprintf(", x%g after %d blocks without progress", s.PlateauFactor, s.PlateauBlocks)
		if s.Floor > 0 {
			d += fmt.Sprintf(" down to %g", s.Floor)
		}
	}
	if s.Scale != 1 {
		d += fmt.Sprintf(" (scaled by %g so far)", s.Scale)
	}
	return d
}
