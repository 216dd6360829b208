// Package suggest finds the known name closest to a mistyped one, for "did
// you mean" in error messages (--stratgy → --strategy, COMPUTE_SHADERR →
// COMPUTE_SHADER).
//
// Closeness is the optimal-string-alignment edit distance (insertions,
// deletions, substitutions and swaps of two neighbours count one each),
// ignoring case. Cost: O(len(name)·len(candidate)) time per candidate, one
// row pair of scratch; no state.
package suggest

import "strings"

// Closest returns the candidate closest to name, and whether one is close
// enough to suggest: within 1 edit for names of up to 4 letters, 2 up to 9,
// and one more per 5 letters after that, and fewer edits than name has
// letters; or, failing that, the only candidate that name is a prefix of
// (3 letters or more: --strat → --strategy). Ties go to the earlier
// candidate, so the answer is deterministic. A candidate equal to name
// (ignoring case) is returned too: COMPUTE_shader gets COMPUTE_SHADER.
func Closest(name string, candidates []string) (string, bool) {
	if name == "" {
		return "", false
	}
	lower := strings.ToLower(name)
	best, bestDist := "", -1
	for _, c := range candidates {
		d := distance(lower, strings.ToLower(c))
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	n := len([]rune(name))
	if bestDist >= 0 && bestDist <= 1+n/5 && bestDist < n {
		return best, true
	}
	if n >= 3 {
		prefixed := ""
		for _, c := range candidates {
			if strings.HasPrefix(strings.ToLower(c), lower) {
				if prefixed != "" {
					return "", false
				}
				prefixed = c
			}
		}
		if prefixed != "" {
			return prefixed, true
		}
	}
	return "", false
}

// distance is the optimal-string-alignment distance between a and b.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// Three rows: two back (for swaps), one back, current.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
