package vk

import "testing"

// TestNamed: Named agrees with the round trip through the name for every
// value in the tables and around them.
func TestNamed(t *testing.T) {
	for v := Layout(0); v < 2000; v++ {
		p, ok := ParseLayout(v.String())
		if want := ok && p == v; v.Named() != want {
			t.Errorf("layout %d: Named %v, round trip %v", v, v.Named(), want)
		}
	}
	for _, e := range layoutTable {
		p, ok := ParseLayout(e.value.String())
		if want := ok && p == e.value; e.value.Named() != want {
			t.Errorf("layout %s: Named %v, round trip %v", e.name, e.value.Named(), want)
		}
	}
	for v := Format(0); v < 2000; v++ {
		p, ok := ParseFormat(v.String())
		if want := ok && p == v; v.Named() != want {
			t.Errorf("format %d: Named %v, round trip %v", v, v.Named(), want)
		}
	}
	for _, e := range formatTable {
		p, ok := ParseFormat(e.value.String())
		if want := ok && p == e.value; e.value.Named() != want {
			t.Errorf("format %s: Named %v, round trip %v", e.name, e.value.Named(), want)
		}
	}
}
