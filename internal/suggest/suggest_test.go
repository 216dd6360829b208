package suggest

import "testing"

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"", "abc", 3},
		{"strategy", "strategy", 0},
		{"stratgy", "strategy", 1},   // deletion
		{"strateggy", "strategy", 1}, // insertion
		{"strbtegy", "strategy", 1},  // substitution
		{"startegy", "strategy", 1},  // swap of neighbours
		{"kitten", "sitting", 3},
		{"ca", "abc", 3}, // OSA, not Damerau: no edit of a swapped pair
	} {
		if got := distance(tc.a, tc.b); got != tc.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestClosest(t *testing.T) {
	flags := []string{"strategy", "order", "budget", "svg", "html", "o", "time-limit", "node-limit"}
	stages := []string{"COMPUTE_SHADER", "FRAGMENT_SHADER", "VERTEX_SHADER", "ALL_TRANSFER", "TRANSFER", "COPY"}
	for _, tc := range []struct {
		name       string
		candidates []string
		want       string
		ok         bool
	}{
		{"stratgy", flags, "strategy", true},
		{"startegy", flags, "strategy", true},
		{"strat", flags, "strategy", true}, // the only candidate it begins
		{"time-limt", flags, "time-limit", true},
		{"ordr", flags, "order", true},
		{"svgg", flags, "svg", true},
		{"x", flags, "", false},      // one letter: never "did you mean o?"
		{"colour", flags, "", false}, // nothing near
		{"limit", flags, "", false},  // prefix of none, too far from both limits
		{"COMPUTE_SHADERR", stages, "COMPUTE_SHADER", true},
		{"compute_shader", stages, "COMPUTE_SHADER", true}, // case
		{"FRAGMNT_SHADR", stages, "FRAGMENT_SHADER", true},
		{"TRANSFR", stages, "TRANSFER", true},
		{"RAYTRACING", stages, "", false},
		{"", stages, "", false},
		{"abc", nil, "", false},
	} {
		got, ok := Closest(tc.name, tc.candidates)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Closest(%q) = %q, %v; want %q, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}
