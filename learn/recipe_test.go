package learn

import (
	"testing"

	"github.com/td2048/td2048/ntuple"
)

// TestRecipes: every recipe's settings parse and fit together.
func TestRecipes(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Recipes {
		if seen[r.Name] || r.About == "" || r.Cite == "" {
			t.Errorf("recipe %q: repeated, or without about or cite", r.Name)
		}
		seen[r.Name] = true
		spec, err := ntuple.ParseSpec(r.Network)
		if err != nil {
			t.Errorf("%s: %v", r.Name, err)
			continue
		}
		if _, err := ParseMode(r.Update); err != nil {
			t.Errorf("%s: %v", r.Name, err)
		}
		sh, err := ParseShaping(r.Shaping)
		if err != nil {
			t.Errorf("%s: %v", r.Name, err)
		}
		if err := CheckShaping(sh, spec, AfterState); err != nil {
			t.Errorf("%s: %v", r.Name, err)
		}
		if err := CheckStages(spec, AfterState, r.Promote); err != nil {
			t.Errorf("%s: %v", r.Name, err)
		}
		if CheckAlpha(r.Alpha) != nil || (r.CoherenceFrom > 0 && (CheckAlpha(r.TCAlpha) != nil || r.TCAlpha == 0 || r.CoherenceFrom >= 1 || r.Coherence)) {
			t.Errorf("%s: rates %v, %v from %v", r.Name, r.Alpha, r.TCAlpha, r.CoherenceFrom)
		}
	}
	if _, err := LookupRecipe("otd-tc"); err != nil {
		t.Error(err)
	}
	if _, err := LookupRecipe("nope"); err == nil {
		t.Error("unknown recipe found")
	}
}
