package main

import (
	"bytes"
	"strings"
	"testing"
)

// Issue 19, Why 5: U+202E in a name reversed the summary's line, and
// other controls reached the terminal raw.
func TestSummaryTextEscapes(t *testing.T) {
	s := &summary{Input: "frame\x1b[2J.json", Strategy: "firstfit", Requirements: "device evil\u202e (Vulkan 1.3)",
		Resources: statusCounts{Dedicated: 2, Imported: 1},
		Unpooled: []unpooledEntry{{Name: "rlo\u202egpj.exe", Status: "dedicated"}, {Name: "nul\x00", Status: "dedicated"},
			{Name: "bad\xff", Status: "imported"}}}
	var b bytes.Buffer
	s.text(&b)
	out := b.String()
	for _, raw := range []string{"\u202e", "\x00", "\x1b", "\xff"} {
		if strings.Contains(out, raw) {
			t.Errorf("summary carries %q raw:\n%s", raw, out)
		}
	}
	for _, want := range []string{`rlo\u202egpj.exe`, `nul\x00`, `bad\xff`, `frame\x1b[2J.json`, `device evil\u202e`} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %s:\n%s", want, out)
		}
	}
}
