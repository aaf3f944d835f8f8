package learn

import (
	"fmt"
	"strconv"
	"strings"
)

// Mode is how a Trace turns an episode into updates. In every mode an
// update of after-state s'_t toward a target G moves each weight it reads by
// alpha*(G - V)/(its lookups), V being V(s'_t) now unless said otherwise.
// R_k is the reward of the move that made s'_k, and R_T (T steps) the
// reward of a move that ended the game at once (0 otherwise).
//
//   - Backward TD(0) (the zero Mode, the course's rule): after the episode,
//     from the last step down, G_{T-1} = R_T and G_t = R_{t+1} + V'(s'_{t+1}),
//     V' the value just updated.
//   - steps n > 1 (n-step TD): G_t = R_{t+1} + ... + R_{t+n} + V(s'_{t+n}),
//     or the plain sum of the rewards after s'_t when t+n >= T.
//   - lambda L > 0 alone (TD(lambda), the untruncated lambda-return,
//     computed backward): G_{T-1} = R_T,
//     G_t = R_{t+1} + L G_{t+1} + (1-L) V'(s'_{t+1}).
//   - lambda L > 0 and steps n > 1 (the lambda-return truncated at n
//     steps): z = R_{t+n} + V(s'_{t+n}) when t+n < T, else z = R_T and
//     the steps run from T-1; then for k down to t+1,
//     z = R_k + L z + (1-L) V(s'_k), all V read when the target is made,
//     and G_t = z. Backward makes the targets after the episode from the
//     last step down; online makes each as soon as s'_{t+n} is chosen.
//   - online: each after-state learns as soon as its target is known,
//     during the episode, as the research framework TDL2048+ does by
//     default. With TD(0), s'_t learns when s'_{t+1} is chosen, toward
//     R_{t+1} + V(s'_{t+1}) as valued for the choice, against V(s'_t)
//     either as it was valued when s'_t was chosen (TDL2048+'s fast mode)
//     or valued again just before the update (its forward mode): Value
//     says which. With n > 1, s'_t learns when s'_{t+n} is chosen, against
//     a fresh V(s'_t). The last after-states learn when the episode ends.
//   - delay (online truncated lambda, after Jaskowski 2018's delayed
//     TD(lambda)): the same targets and times as online truncated lambda,
//     but every V is the one computed when its after-state was chosen, so
//     an update costs no reading of weights beyond its own step (online
//     truncated lambda reads n values again for each). It is the sum of
//     the n TD errors after s'_t, each weighted by L^k, applied n moves
//     late.
//
// The modes follow docs/methods.md section 4 (TDL2048+'s `fast`, `step`,
// `step-backward`, `lambda`, `lambda-forward` and `lambda-backward`);
// delayed is td2048's.
type Mode struct {
	online bool
	steps  int     // n of n-step TD, or where lambda is truncated; 0 or 1 is TD(0)
	lambda float32 // TD(lambda) when > 0
	delay  bool    // with online: truncated lambda on the values of the choices
	// value is which V(s'_t) online TD(0) updates against (valuing).
	value valuing
}

// valuing is which value of s'_t an online TD(0) update moves from: the
// one computed when s'_t was chosen, or one read again just before the
// update. They differ when the update of s'_{t-1}, made in between,
// stepped weights s'_t reads too; at temporal coherence's rate of 1 the
// stale error is applied in full (docs/methods.md section 4). So TDL2048+
// values again in every online mode but plain TD(0) (its fast mode: no
// TC, one stage, no shaping), and so does td2048 by default.
type valuing uint8

const (
	// valueDefault is TDL2048+'s choice for the run: the value of the
	// choice for plain single-stage TD(0) without shaping, a fresh value
	// with temporal coherence, stages or shaping ("online").
	valueDefault valuing = iota
	// valueChoice always takes the value of the choice (TDL2048+'s
	// -tt fast: "fast"), except where another trainer's step can come in
	// between on a coherent network (threads, episodes in turn): there it
	// reads again, or the run falls to random play.
	valueChoice
	// valueFresh always reads the value again (TDL2048+'s -tt forward:
	// "forward").
	valueFresh
)

// truncated reports a lambda-return cut at n steps.
func (m Mode) truncated() bool { return m.lambda > 0 && (m.steps > 1 || m.online) }

// delayed reports delayed updates (delay counts only with online).
func (m Mode) delayed() bool { return m.delay && m.online }

// n is the number of steps after s'_t its target reaches: steps, or
// defaultLambdaSteps for online lambda without them.
func (m Mode) n() int {
	if m.lambda > 0 && m.online && m.steps <= 1 {
		return defaultLambdaSteps
	}
	return max(m.steps, 1)
}

// defaultLambdaSteps is where online lambda is truncated when no nstep is
// given, as TDL2048+ does (its -N defaults to 5 once -l is on).
const defaultLambdaSteps = 5

// String names the mode as ParseMode reads it.
func (m Mode) String() string {
	s, _ := m.head()
	if m.lambda > 0 {
		s += ",lambda=" + strconv.FormatFloat(float64(m.lambda), 'g', -1, 32)
	}
	if m.steps > 1 {
		s += ",nstep=" + strconv.Itoa(m.steps)
	}
	return s
}

// Describe is the mode in words, for a run's header.
func (m Mode) Describe() string {
	what := "TD(0)"
	switch {
	case m.truncated():
		what = fmt.Sprintf("TD(lambda %g) truncated at %d steps", m.lambda, m.n())
	case m.lambda > 0:
		what = fmt.Sprintf("TD(lambda %g)", m.lambda)
	case m.steps > 1:
		what = fmt.Sprintf("%d-step TD", m.steps)
	}
	_, how := m.head()
	return what + ", " + how
}

// head is the mode's first word as ParseMode reads it, and how it
// updates in words.
func (m Mode) head() (string, string) {
	switch {
	case m.delayed():
		return "delayed", "delayed online updates on the values of the choices"
	case m.online && m.value == valueChoice:
		return "fast", "online updates from the values of the choices (fast)"
	case m.online && m.value == valueFresh:
		return "forward", "online updates from values read again (forward)"
	case m.online:
		return "online", "online updates"
	}
	return "backward", "backward episode updates"
}

// ModeNames are the update modes ParseMode reads, the default first (for
// help and completion).
var ModeNames = []string{"backward", "online", "fast", "forward", "delayed"}

// ParseMode reads "backward", "online", "fast", "forward" or "delayed"
// (fast and forward are online with value valueChoice and valueFresh),
// optionally followed by
// ",nstep=N" and ",lambda=L": "online,nstep=5", "backward,lambda=0.5"
// (untruncated), "backward,lambda=0.5,nstep=5", "online,lambda=0.5" (cut
// at defaultLambdaSteps, Mode.n), "delayed,lambda=0.5,nstep=3". Lambda 0, or a
// lambda cut at one step, is TD(0).
func ParseMode(s string) (Mode, error) {
	var m Mode
	parts := strings.Split(strings.TrimSpace(s), ",")
	switch parts[0] {
	case "backward", "":
	case "online":
		m.online = true
	case "fast":
		m.online, m.value = true, valueChoice
	case "forward":
		m.online, m.value = true, valueFresh
	case "delayed":
		m.online, m.delay = true, true
	default:
		return m, fmt.Errorf("update mode %q: want backward, online, fast, forward or delayed, then optionally ,nstep=N and ,lambda=L", s)
	}
	var hasLambda bool
	for _, p := range parts[1:] {
		k, v, _ := strings.Cut(p, "=")
		switch k {
		case "nstep":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 64 {
				return m, fmt.Errorf("update mode %q: nstep wants 1 to 64", s)
			}
			m.steps = n
		case "lambda":
			l, err := strconv.ParseFloat(v, 32)
			if err != nil || !(l >= 0 && l <= 1) {
				return m, fmt.Errorf("update mode %q: lambda wants 0 to 1", s)
			}
			m.lambda, hasLambda = float32(l), true
		default:
			return m, fmt.Errorf("update mode %q: unknown %q (want nstep=N or lambda=L)", s, p)
		}
	}
	if m.steps == 1 && !hasLambda {
		m.steps = 0 // one step is TD(0), which String writes without it
	}
	if m.delay && !hasLambda {
		return m, fmt.Errorf("update mode %q: delayed wants lambda=L (and nstep=N, default %d)", s, defaultLambdaSteps)
	}
	if hasLambda && (m.lambda == 0 || m.steps == 1) {
		return Mode{online: m.online, value: m.value}, nil // TD(0)
	}
	if m.value == valueChoice && m.n() > 1 {
		return m, fmt.Errorf("update mode %q: fast is online TD(0) on the values of the choices; n-step and lambda updates read values again (use online)", s)
	}
	return m, nil
}

// value is V(s'_i) with the current weights.
func (t *Trace) value(i int) float32 {
	s := &t.steps[i]
	if t.direct {
		return t.net.EstimateStage(int(s.stage), s.after)
	}
	return t.net.Sum(t.idx[i*t.lookups : (i+1)*t.lookups])
}

// update moves V(s'_i) by u and returns its updated value (each weight
// read right after its own step, as Network.Add does).
func (t *Trace) update(i int, u float32) float32 {
	s := &t.steps[i]
	if t.direct {
		return t.net.UpdateStage(int(s.stage), s.after, u)
	}
	return t.net.Add(t.idx[i*t.lookups:(i+1)*t.lookups], u)
}

// learnStep moves V(s'_i) toward target, from its value v, and returns the
// updated value; observe, when set (tests), sees every target.
func (t *Trace) learnStep(i int, target, v float32) float32 {
	if t.observe != nil {
		t.observe(i, target)
	}
	return t.update(i, t.alpha*(target-v))
}

// backwardGeneral learns the trace after the episode in the n-step and
// lambda modes, from the last step down (Mode).
func (t *Trace) backwardGeneral(final float32) bool {
	T := len(t.steps)
	reward := func(k int) float32 { // R_k, R_T = final
		if k >= T {
			return final
		}
		return t.steps[k].reward
	}
	if t.Mode.truncated() { // TDL2048+'s lambda-backward: the last n first
		n := t.Mode.n()
		for i := T - 1; i >= 0; i-- {
			var z float32
			if i+n < T {
				z = t.lambdaDown(reward(i+n)+t.value(i+n), i+n-1, i)
			} else {
				z = t.lambdaDown(final, T-1, i)
			}
			t.learnStep(i, z, t.value(i))
			if !finite(z) {
				return false
			}
		}
		return true
	}
	if t.Mode.lambda > 0 || t.Mode.steps <= 1 { // lambda 0 is TD(0)
		l := t.Mode.lambda
		g := final
		for i := T - 1; i >= 0; i-- {
			v := t.learnStep(i, g, t.value(i))
			if i > 0 {
				g = reward(i) + l*g + (1-l)*v
			}
		}
		return finite(g)
	}
	n := t.Mode.steps
	var sum float32 // R_{i+1} + ... + R_{min(i+n, T)}
	for i := T - 1; i >= 0; i-- {
		sum += reward(i + 1)
		if i+n+1 <= T {
			sum -= reward(i + n + 1)
		}
		g := sum
		if i+n < T {
			g += t.value(i + n)
		}
		t.learnStep(i, g, t.value(i))
		if !finite(g) {
			return false
		}
	}
	return true
}

// lambdaDown runs the truncated lambda recursion from z for k = hi down
// to lo+1: z = R_k + L z + (1-L) V(s'_k), V fresh unless delay.
func (t *Trace) lambdaDown(z float32, hi, lo int) float32 {
	l := t.Mode.lambda
	for k := hi; k > lo; k-- {
		var v float32
		if t.Mode.delayed() {
			v = t.steps[k].value
		} else {
			v = t.value(k)
		}
		z = t.steps[k].reward + (l*z + (1-l)*v) // TDL2048+'s grouping
	}
	return z
}

// own is V(s'_i) for its online update: the value of its choice in the
// modes that keep it (TD(0) unless fresh, delayed unless racing), else
// read again.
func (t *Trace) own(i int) float32 {
	if t.Mode.delayed() && !t.racing() || t.Mode.n() == 1 && !t.fresh() {
		return t.steps[i].value
	}
	return t.value(i)
}

// online learns the steps whose targets the last Push made known.
func (t *Trace) online() {
	T := len(t.steps)
	n := t.Mode.n()
	i := T - 1 - n // s'_i's target ends with s'_{T-1}, just chosen
	if i < 0 {
		return
	}
	if t.Mode.truncated() {
		last := &t.steps[T-1]
		t.learnStep(i, t.lambdaDown(last.reward+last.value, T-2, i), t.own(i))
		return
	}
	g := t.steps[T-1].value
	for k := i + 1; k <= T-1; k++ {
		g += t.steps[k].reward
	}
	t.learnStep(i, g, t.own(i)) // TD(0): the value of the choice or read again (fresh)
}

// fresh reports whether online TD(0) values s'_t again before its update
// instead of using its value at the choice (TDL2048+'s forward mode rather
// than its fast one): as Mode.Value says, and always when racing.
func (t *Trace) fresh() bool {
	switch t.Mode.value {
	case valueFresh:
		return true
	case valueChoice:
		return t.racing()
	}
	return t.net.Coherent() || t.net.Staged() || t.shaped // racing implies Coherent
}

// racing reports a coherent network shared by several trainers, threads
// or episodes played in turn. Between a choice and its update another
// trainer may have stepped s'_t's weights, and at TC's rate of up to 1 an
// error computed from the stale value is applied on top of that step in
// full (docs/speed.md, "Measurements behind the code"). Such a trace
// always values again, even in the fast and delayed modes.
func (t *Trace) racing() bool { return (t.net.Shared() || t.interleaved) && t.net.Coherent() }

// onlineEnd learns the last after-states of an online episode: each the
// plain sum of the rewards after it (truncated lambda: its recursion from
// R_T at the last step), the earliest first, as TDL2048+ does
// (with n > 1 they may share weights and each reads a fresh value, so the
// order shows in the weights).
func (t *Trace) onlineEnd(final float32) bool {
	T := len(t.steps)
	n := t.Mode.n()
	lo := max(T-n, 0)
	if t.Mode.truncated() {
		for i := lo; i < T; i++ {
			t.learnStep(i, t.lambdaDown(final, T-1, i), t.own(i))
		}
		return T == 0 || finite(t.value(T-1))
	}
	g := final // R_{lo+1} + ... + R_T; rewards are integers, so the sums are exact
	for i := lo + 1; i < T; i++ {
		g += t.steps[i].reward
	}
	for i := lo; i < T; i++ {
		t.learnStep(i, g, t.own(i))
		if i+1 < T {
			g -= t.steps[i+1].reward
		}
	}
	return finite(g) && (T == 0 || finite(t.value(T-1)))
}
