package main

import (
	"fmt"
	"io"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/format"
)

const sampleHelp = `Usage: aliasplan sample [flags]

Writes the embedded sample frame (a deferred frame: shadow cascades,
G-buffer, SSAO, lighting, bloom chain, TAA with imported history, tonemap
into an imported backbuffer) as a graph file, to edit and plan. Its
resources carry no requirements: plan estimates them with a profile.

Flags:
  -o FILE            write to FILE instead of stdout
  --resolution WxH   frame size (default 1920x1080)
`

func sampleCommand() *command {
	cmd := newCommand("sample", sampleHelp)
	var out, resolution string
	cmd.fs.StringVar(&out, "o", "", "")
	cmd.fs.StringVar(&resolution, "resolution", "1920x1080", "")
	cmd.run = func(files []string, stdout, stderr io.Writer) error {
		return sample(files, stdout, stderr, out, resolution)
	}
	return cmd
}

func sample(files []string, stdout, stderr io.Writer, out, resolution string) error {
	if len(files) != 0 {
		return usageErrorf("sample", "takes no files, got %q", files[0])
	}
	w, h, err := parseResolution(resolution)
	if err != nil {
		return usageErrorf("sample", "--resolution: %v", err)
	}
	g := aliasplan.SampleFrame(w, h)
	write := func(w io.Writer) error { return format.WriteGraph(w, &g.Graph) }
	if out == "" {
		return write(stdout)
	}
	if err := checkOutputDir(out); err != nil {
		return err
	}
	var outs outputs
	defer outs.abort()
	if err := outs.add(out, write); err != nil {
		return err
	}
	if err := outs.commit(); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote %s\n", out)
	return nil
}
