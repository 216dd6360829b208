package vk

// Named reports whether vk names l: ParseLayout(l.String()) gives l back.
// Without building the name (planner.Validate runs it per image per frame).
func (l Layout) Named() bool { return namedIn(layoutTable, l, layoutByName) }

// Named reports whether vk names f (UNDEFINED included):
// ParseFormat(f.String()) gives f back.
func (f Format) Named() bool {
	e := f.info()
	if e == nil {
		return false
	}
	v, ok := formatByName[e.name]
	return ok && v == f
}

func namedIn[T maskValue](table []nameValue[T], v T, byName map[string]T) bool {
	n, ok := enumName(table, v)
	if !ok {
		return false
	}
	w, ok := byName[n]
	return ok && w == v
}
