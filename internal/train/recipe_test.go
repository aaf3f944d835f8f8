package train

import (
	"strings"
	"testing"
)

// TestRecipes: every recipe names itself, cites its paper, and gives
// settings that pass Validate as a run of their own; Apply sets them
// where nothing was given and names them given, and --load keeps the
// file's network and values.
func TestRecipes(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Recipes {
		t.Run(r.Name, func(t *testing.T) {
			if seen[r.Name] || r.About == "" || r.Cite == "" {
				t.Errorf("repeated, or without about or cite")
			}
			seen[r.Name] = true
			s, given := Default(), Given{}
			s.Recipe = r.Name
			s.Complete(given)
			if _, err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			for _, k := range r.Keys() {
				if !given[k] || s.Text(k) != r.Set.Text(k) {
					t.Errorf("%s: %q, given %v; the recipe gives %q", k, s.Text(k), given[k], r.Set.Text(k))
				}
			}
			if !strings.HasPrefix(r.Flags(), "--network "+r.Set.Network) {
				t.Errorf("flags %q", r.Flags())
			}
		})
	}
	if _, err := LookupRecipe("otd-tc"); err != nil {
		t.Error(err)
	}
	if _, err := LookupRecipe("nope"); err == nil {
		t.Error("unknown recipe found")
	}
	s := Default()
	s.Recipe, s.Load, s.Alpha = "otd", "w.td2048", 0.05
	given := Given{"alpha": true, "load": true}
	s.Complete(given)
	if s.Network != "" || s.Init != 0 || s.Alpha != 0.05 || s.Update != "online" || given["network"] {
		t.Errorf("otd over --load and --alpha 0.05: %+v", s)
	}
}
