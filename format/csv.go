package format

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/aliasplan/aliasplan/planner"
)

// IntervalBuffer is one buffer of an interval problem in MiniMalloc's CSV
// format: Size bytes live during [Lower, Upper).
type IntervalBuffer struct {
	ID           string // unique in its file, non-empty
	Lower, Upper int64  // 0 <= Lower < Upper
	Size         uint64 // > 0
	Alignment    uint64 // a power of two; 1 when the file has no alignment column
}

// csvColumns are the columns of a MiniMalloc CSV, in the order
// WriteSolution writes them.
var csvColumns = [...]string{"id", "lower", "upper", "size", "alignment", "offset"}

const (
	colID = iota
	colLower
	colUpper
	colSize
	colAlignment
	colOffset
)

// ReadIntervals reads an interval problem in MiniMalloc's CSV format: a
// header naming the columns id, lower, upper and size, optionally alignment
// and offset, in any order (names are case-insensitive), then one buffer
// per line. An offset column is a reference solution and is ignored. file
// names the input in errors.
//
// Errors are *GraphError values naming the file, the line (Item "line 7")
// and the rule: RuleSyntax (malformed CSV, a value that is not an
// integer), RuleMissingField (a required column is absent),
// RuleUnknownField (a column MiniMalloc does not define, or one given
// twice), RuleField (a negative value), RuleEmptyName (an empty id),
// RuleEmptyLifetime (upper <= lower), RuleZeroSize, RuleAlignment (not a
// power of two) and RuleDuplicateName (an id used twice; Resource names
// it). An I/O error is returned wrapped. The buffers come in file order.
func ReadIntervals(r io.Reader, file string) ([]IntervalBuffer, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	fail := func(line int, rule planner.Rule, format string, args ...any) *planner.GraphError {
		e := &planner.GraphError{File: file, Access: -1, Rule: rule, Detail: fmt.Sprintf(format, args...)}
		if line > 0 {
			e.Item = fmt.Sprintf("line %d", line)
		}
		return e
	}
	readErr := func(err error) error {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return fail(pe.Line, planner.RuleSyntax, "%v", pe.Err)
		}
		return fmt.Errorf("planner: %s: reading: %w", file, err)
	}

	header, err := cr.Read()
	if err == io.EOF {
		return nil, fail(0, planner.RuleSyntax, "empty file: want a header id,lower,upper,size")
	}
	if err != nil {
		return nil, readErr(err)
	}
	col := [len(csvColumns)]int{-1, -1, -1, -1, -1, -1}
	for i, name := range header {
		name = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(name, "\ufeff")))
		k := indexOf(csvColumns[:], name)
		switch {
		case k < 0:
			return nil, fail(1, planner.RuleUnknownField, "unknown column %q (want id, lower, upper, size, alignment, offset)", name)
		case col[k] >= 0:
			return nil, fail(1, planner.RuleUnknownField, "column %q given twice", name)
		}
		col[k] = i
	}
	for k := colID; k <= colSize; k++ {
		if col[k] < 0 {
			return nil, fail(1, planner.RuleMissingField, "no %q column", csvColumns[k])
		}
	}

	var bufs []IntervalBuffer
	firstLine := make(map[string]int)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return bufs, nil
		}
		if err != nil {
			return nil, readErr(err)
		}
		line, _ := cr.FieldPos(0)
		field := func(k int) string { return strings.TrimSpace(rec[col[k]]) }
		integer := func(k int) (uint64, *planner.GraphError) {
			s := field(k)
			v, err := strconv.ParseUint(s, 10, 64)
			if err == nil {
				return v, nil
			}
			if rest, neg := strings.CutPrefix(s, "-"); neg {
				if _, err := strconv.ParseUint(rest, 10, 64); err == nil || errors.Is(err, strconv.ErrRange) {
					return 0, fail(line, planner.RuleField, "%s %s is negative", csvColumns[k], s)
				}
			}
			if errors.Is(err, strconv.ErrRange) {
				return 0, fail(line, planner.RuleField, "%s %s does not fit in 64 bits", csvColumns[k], s)
			}
			return 0, fail(line, planner.RuleSyntax, "%s %q is not an integer", csvColumns[k], s)
		}
		b := IntervalBuffer{ID: field(colID), Alignment: 1}
		if b.ID == "" {
			return nil, fail(line, planner.RuleEmptyName, "empty id")
		}
		var lower, upper uint64
		var gerr *planner.GraphError
		if lower, gerr = integer(colLower); gerr != nil {
			return nil, gerr
		}
		if upper, gerr = integer(colUpper); gerr != nil {
			return nil, gerr
		}
		if b.Size, gerr = integer(colSize); gerr != nil {
			return nil, gerr
		}
		if col[colAlignment] >= 0 {
			if b.Alignment, gerr = integer(colAlignment); gerr != nil {
				return nil, gerr
			}
		}
		for _, v := range [...]struct {
			k int
			v uint64
		}{{colLower, lower}, {colUpper, upper}} {
			if v.v > 1<<63-1 {
				return nil, fail(line, planner.RuleField, "%s %d does not fit in an int64", csvColumns[v.k], v.v)
			}
		}
		b.Lower, b.Upper = int64(lower), int64(upper)
		switch {
		case b.Upper <= b.Lower:
			return nil, fail(line, planner.RuleEmptyLifetime, "buffer %q: lifetime [%d, %d) is empty (upper must exceed lower)", b.ID, b.Lower, b.Upper)
		case b.Size == 0:
			return nil, fail(line, planner.RuleZeroSize, "buffer %q: size is 0", b.ID)
		case !isPow2(b.Alignment):
			return nil, fail(line, planner.RuleAlignment, "buffer %q: alignment %d is not a power of two", b.ID, b.Alignment)
		}
		if first, dup := firstLine[b.ID]; dup {
			e := fail(line, planner.RuleDuplicateName, "id also used on line %d", first)
			e.Resource = b.ID
			return nil, e
		}
		firstLine[b.ID] = line
		bufs = append(bufs, b)
	}
}

func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}

// IntervalItems returns the items of bufs' interval problem, item i being
// bufs[i]; pass them to NewIntervalProblem.
func IntervalItems(bufs []IntervalBuffer) []planner.Item {
	items := make([]planner.Item, len(bufs))
	for i, b := range bufs {
		items[i] = planner.Item{Size: b.Size, Alignment: b.Alignment, Start: b.Lower, End: b.Upper}
	}
	return items
}

// WriteSolution writes bufs and their offsets in sol (item i being
// bufs[i]) as MiniMalloc CSV: the columns id, lower, upper, size, then
// alignment when some buffer's alignment is not 1, then offset. MiniMalloc
// has one address space, so a solution with more than one pool is an
// error: one with a MaxPoolSize its items outgrow, or whose items need more
// than 2^64-1 bytes at once (strategies then open another pool). Write
// errors are returned wrapped.
func WriteSolution(w io.Writer, bufs []IntervalBuffer, sol *planner.Solution) error {
	if len(sol.Offset) != len(bufs) || len(sol.Pool) != len(bufs) {
		return fmt.Errorf("planner: solution places %d items, want the %d buffers", len(sol.Offset), len(bufs))
	}
	if len(sol.PoolSizes) > 1 {
		return fmt.Errorf("planner: solution uses %d pools; MiniMalloc CSV has one address space, so a solution written to it must use one pool", len(sol.PoolSizes))
	}
	aligned := false
	for _, b := range bufs {
		aligned = aligned || b.Alignment != 1
	}
	cw := csv.NewWriter(w)
	rec := []string{"id", "lower", "upper", "size"}
	if aligned {
		rec = append(rec, "alignment")
	}
	rec = append(rec, "offset")
	if err := cw.Write(rec); err != nil {
		return fmt.Errorf("planner: writing solution: %w", err)
	}
	for i, b := range bufs {
		rec = append(rec[:0], b.ID, strconv.FormatInt(b.Lower, 10), strconv.FormatInt(b.Upper, 10), strconv.FormatUint(b.Size, 10))
		if aligned {
			rec = append(rec, strconv.FormatUint(b.Alignment, 10))
		}
		rec = append(rec, strconv.FormatUint(sol.Offset[i], 10))
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("planner: writing solution: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("planner: writing solution: %w", err)
	}
	return nil
}

func isPow2(x uint64) bool { return x != 0 && x&(x-1) == 0 }
