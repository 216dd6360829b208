package vk

import "slices"

// Named reports whether vk names l: ParseLayout(l.String()) gives l back.
// Without building the name or a map lookup (planner.Validate runs it per
// image per frame): l is in the table and not one of the values whose
// name parses to another (none today; computed once).
func (l Layout) Named() bool {
	_, ok := enumName(layoutTable, l)
	return ok && !slices.Contains(layoutMisnamed, l)
}

// Named reports whether vk names f (UNDEFINED included):
// ParseFormat(f.String()) gives f back.
func (f Format) Named() bool {
	return f.info() != nil && !slices.Contains(formatMisnamed, f)
}

// layoutMisnamed and formatMisnamed are the table values whose name
// parses to another value (a name given twice).
var (
	layoutMisnamed = misnamed(func(yield func(Layout, string) bool) {
		for _, e := range layoutTable {
			if !yield(e.value, e.name) {
				return
			}
		}
	}, ParseLayout)
	formatMisnamed = misnamed(func(yield func(Format, string) bool) {
		for _, e := range formatTable {
			if !yield(e.value, e.name) {
				return
			}
		}
	}, ParseFormat)
)

func misnamed[T comparable](all func(yield func(T, string) bool), parse func(string) (T, bool)) []T {
	var out []T
	for v, n := range all {
		if w, ok := parse(n); !ok || w != v {
			out = append(out, v)
		}
	}
	return out
}
