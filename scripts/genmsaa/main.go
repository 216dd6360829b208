// Command genmsaa writes proptest.MSAAFrame, a forward+ frame with 4×
// multisampling, as a graph file (SPEC §5), for replaying MSAA at full
// size (scripts/h200-prepare.sh writes the 1080p and 4K ones into
// .vk/frames):
//
//	go run ./scripts/genmsaa -size 1920x1080 -o forwardplus-msaa-1080p.json
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/proptest"
)

func main() {
	size := flag.String("size", "1920x1080", "extent WIDTHxHEIGHT")
	out := flag.String("o", "", "output file (required)")
	flag.Parse()
	var w, h uint32
	if _, err := fmt.Sscanf(*size, "%dx%d", &w, &h); err != nil || w < 4 || h < 4 || *out == "" {
		fmt.Fprintln(os.Stderr, "genmsaa: want -size WIDTHxHEIGHT (each at least 4) and -o FILE")
		os.Exit(2)
	}
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "genmsaa:", err)
		os.Exit(1)
	}
	if err := aliasplan.WriteGraph(f, &aliasplan.Graph{Graph: *proptest.MSAAFrame(w, h)}); err != nil {
		fmt.Fprintln(os.Stderr, "genmsaa:", *out+":", err)
		os.Exit(1)
	}
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "genmsaa:", err)
		os.Exit(1)
	}
}
