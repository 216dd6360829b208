// Command genframe writes a random frame (proptest.RandomFrame) as a graph
// file, for scale measurements with `aliasplan plan`:
//
//	go run ./scripts/genframe -commands 10000 -seed 1 -o /tmp/frame-10000.json
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"github.com/aliasplan/aliasplan/format"
	"github.com/aliasplan/aliasplan/proptest"
)

func main() {
	n := flag.Int("commands", 10000, "commands in the frame")
	seed := flag.Uint64("seed", 1, "generator seed")
	out := flag.String("o", "", "output file (required)")
	flag.Parse()
	if *out == "" || *n <= 0 {
		fmt.Fprintln(os.Stderr, "genframe: -o FILE and -commands N > 0 are required")
		os.Exit(2)
	}
	if err := write(*out, *n, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "genframe:", err)
		os.Exit(1)
	}
}

func write(path string, n int, seed uint64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := format.WriteGraph(w, proptest.RandomFrame(seed, n)); err != nil {
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
