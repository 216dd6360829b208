// Command genframe writes a generated frame as a graph file, or a
// generated interval problem as a MiniMalloc CSV, for scale measurements
// with `aliasplan plan` and `aliasplan solve`:
//
//	go run ./scripts/genframe -commands 10000 -seed 1 -o /tmp/frame-10000.json
//	go run ./scripts/genframe -shape tokens -n 30000 -o /tmp/tokens-30000.json
//	go run ./scripts/genframe -shape disjoint -n 1000000 -o /tmp/disjoint-1m.csv
//	go run ./scripts/genframe -shape tiling -n 1000000 -o /tmp/tiling-1m.csv
//
// Shapes (proptest): random (RandomFrame, -commands), tokens (TokenPasses:
// two passes of -n buffers ordered by a token), disjoint
// (DisjointIntervals: -n buffers whose lifetimes never overlap), tiling
// (Tiling: a zero-waste tiling of -n buffers).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/aliasplan/aliasplan/format"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
)

func main() {
	shape := flag.String("shape", "random", "random, tokens, disjoint or tiling")
	commands := flag.Int("commands", 10000, "random: commands in the frame")
	n := flag.Int("n", 30000, "tokens: buffers per pass; disjoint, tiling: buffers")
	seed := flag.Uint64("seed", 1, "generator seed")
	out := flag.String("o", "", "output file (required)")
	flag.Parse()
	var gen func(io.Writer) error
	size := *n
	switch *shape {
	case "random":
		size = *commands
		gen = func(w io.Writer) error { return format.WriteGraph(w, proptest.RandomFrame(*seed, *commands)) }
	case "tokens":
		gen = func(w io.Writer) error { return format.WriteGraph(w, proptest.TokenPasses(*seed, *n)) }
	case "disjoint":
		gen = func(w io.Writer) error { return writeIntervals(w, proptest.DisjointIntervals(*seed, *n)) }
	case "tiling":
		gen = func(w io.Writer) error { return writeIntervals(w, proptest.Tiling(*seed, *n)) }
	default:
		fmt.Fprintf(os.Stderr, "genframe: unknown -shape %q\n", *shape)
		os.Exit(2)
	}
	if *out == "" || size <= 0 {
		fmt.Fprintln(os.Stderr, "genframe: -o FILE and a size > 0 are required")
		os.Exit(2)
	}
	if err := write(*out, gen); err != nil {
		fmt.Fprintln(os.Stderr, "genframe:", err)
		os.Exit(1)
	}
}

// writeIntervals writes items as a MiniMalloc CSV with an alignment
// column; ids are the item indexes.
func writeIntervals(w io.Writer, items []planner.Item) error {
	if _, err := io.WriteString(w, "id,lower,upper,size,alignment\n"); err != nil {
		return err
	}
	for i, it := range items {
		if _, err := fmt.Fprintf(w, "%d,%d,%d,%d,%d\n", i, it.Start, it.End, it.Size, it.Alignment); err != nil {
			return err
		}
	}
	return nil
}

func write(path string, gen func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := gen(w); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}
