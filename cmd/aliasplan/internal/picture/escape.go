package picture

import (
	"fmt"
	"html"
	"strings"
	"unicode/utf8"
)

// Printable returns s with what neither XML nor a terminal may receive
// written as Go escapes, so that the reader sees what the string holds:
// invalid UTF-8 bytes as \xNN; C0 and C1 controls, DEL, the
// bidirectional embeddings, overrides, isolates and marks, the line and
// paragraph separators and the noncharacters U+FFFE and U+FFFF as \xNN or
// \uNNNN; a backslash stays as it is. planner.Validate refuses such names
// (rule name-characters), so this is the second line, for plans and
// graphs that never passed through it. keepNewline keeps '\n' (SVG
// tooltips use it as a line break).
func Printable(s string, keepNewline bool) string {
	if !needsEscape(s, keepNewline) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' && keepNewline:
			b.WriteByte('\n')
		case unprintable(r) && r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unprintable(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func needsEscape(s string, keepNewline bool) bool {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return true
			}
		}
		if unprintable(r) && !(r == '\n' && keepNewline) {
			return true
		}
	}
	return false
}

// unprintable is the set planner.Validate refuses in names.
func unprintable(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r < 0xa0,
		r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069,
		r == 0x2028, r == 0x2029, r == 0xfffe, r == 0xffff:
		return true
	}
	return false
}

// esc escapes text for XML and HTML: markup characters as entities, the
// rest as Printable (newlines kept).
func esc(s string) string { return html.EscapeString(Printable(s, true)) }
