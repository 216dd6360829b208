package main

import (
	"errors"
	"flag"
	"fmt"
	"github.com/aliasplan/aliasplan/cmd/aliasplan/internal/picture"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/aliasplan/aliasplan/internal/suggest"
	"github.com/aliasplan/aliasplan/planner"
)

// command is one subcommand's flag set and help text.
type command struct {
	name string
	help string // shown by -h; the flags are listed in it by hand, kept short
	fs   *flag.FlagSet
	// run does the work with the positional arguments, once the flags
	// (bound to variables run sees) are parsed.
	run func(files []string, stdout, stderr io.Writer) error
}

func newCommand(name, help string) *command {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported by parse; help by -h
	return &command{name: name, help: help, fs: fs}
}

// parse parses args, which may mix flags and positional arguments in any
// order ("plan frame.json -o plan.json"), and returns the positional ones.
// -h prints the help on stdout and returns errHelp.
func (c *command) parse(args []string, stdout io.Writer) ([]string, error) {
	flags, pos := c.reorder(args)
	if err := c.fs.Parse(flags); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, c.help)
			return nil, errHelp
		}
		if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
			return nil, usageErrorf(c.name, "%s", c.unknownFlag(name, flags))
		}
		return nil, usageErrorf(c.name, "%v", err)
	}
	return append(c.fs.Args(), pos...), nil
}

// unknownFlag says that the flag name is not defined, written with as many
// dashes as the user wrote it, and names c's flag closest to it
// ("unknown flag --stratgy (did you mean --strategy?)").
func (c *command) unknownFlag(name string, args []string) string {
	dashes := "--"
	for _, a := range args {
		n, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if n == name && strings.HasPrefix(a, "-") {
			dashes = a[:len(a)-len(strings.TrimLeft(a, "-"))]
			break
		}
	}
	var names []string
	c.fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if s, ok := suggest.Closest(name, names); ok {
		return fmt.Sprintf("unknown flag %s%s (did you mean %s%s?)", dashes, name, dashes, s)
	}
	return fmt.Sprintf("unknown flag %s%s", dashes, name)
}

// reorder splits args into flags (with their values) and positional
// arguments, so that flags may follow the files. "--" ends the flags; "-"
// alone is a positional argument (standard input).
func (c *command) reorder(args []string) (flags, pos []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return flags, append(pos, args[i+1:]...)
		case len(a) < 2 || a[0] != '-':
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		f := c.fs.Lookup(name)
		if f == nil {
			continue // Parse reports it
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			continue
		}
		if i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	return flags, pos
}

// thresholdOption is --dedicated-threshold as Options.DedicatedThreshold:
// on the command line 0 turns the rule off (SPEC §3), where the Go zero
// value means the 64 MiB default.
func thresholdOption(v sizeValue) uint64 {
	if v == 0 {
		return planner.NoDedicatedThreshold
	}
	return uint64(v)
}

// sizeValue is a byte count flag: plain bytes or a number with a unit
// (KiB, MiB, GiB, TiB; KB, MB, GB, TB; B).
type sizeValue uint64

func (s *sizeValue) String() string { return formatSize(uint64(*s)) }

func (s *sizeValue) Set(v string) error {
	n, err := parseSize(v)
	if err != nil {
		return err
	}
	*s = sizeValue(n)
	return nil
}

var sizeUnits = []struct {
	suffix string
	mult   float64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
	{"B", 1},
}

// parseSize reads "65536", "64MiB", "1.5GiB" or "64 MiB".
func parseSize(v string) (uint64, error) {
	t := strings.TrimSpace(v)
	mult := 1.0
	for _, u := range sizeUnits {
		if rest, ok := strings.CutSuffix(t, u.suffix); ok {
			t, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	if mult == 1 {
		if n, err := strconv.ParseUint(t, 10, 64); err == nil {
			return n, nil
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, fmt.Errorf("%q is not a size (bytes, or a number with KiB, MiB, GiB, TiB, KB, MB, GB or TB)", v)
	}
	b := f * mult
	if b >= 1<<64 {
		return 0, fmt.Errorf("size %q is too large", v)
	}
	if b != math.Trunc(b) {
		return 0, fmt.Errorf("size %q is not a whole number of bytes", v)
	}
	return uint64(b), nil
}

// formatSize writes n in the largest binary unit that keeps it exact, so
// that the value reads back the same (64MiB, 1000, 1.5KiB).
func formatSize(n uint64) string {
	for _, u := range []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return fmt.Sprintf("%d%s", n>>u.shift, u.suffix)
		}
	}
	return strconv.FormatUint(n, 10)
}

// mib formats a byte count for people, as the picture labels do.
func mib(n uint64) string { return picture.MiB(n) }

// exactFlags are the exact strategy's limits, on every command that can
// select it.
type exactFlags struct {
	timeLimit time.Duration
	nodeLimit int64
	capacity  uint64 // solve and bench --capacity: exact answers "fits in C?"
}

func (e *exactFlags) register(fs *flag.FlagSet, defaultTime time.Duration) {
	fs.DurationVar(&e.timeLimit, "time-limit", defaultTime, "")
	fs.Int64Var(&e.nodeLimit, "node-limit", 0, "")
}

// sourceFlags choose where requirements come from.
type sourceFlags struct {
	profile string
	device  string
}

// register defines --profile, and --device when withDevice is set.
func (s *sourceFlags) register(fs *flag.FlagSet, withDevice bool) {
	fs.StringVar(&s.profile, "profile", planner.ProfileH200.Name, "")
	s.device = "none"
	if withDevice {
		fs.StringVar(&s.device, "device", "none", "")
	}
}

// profileNames lists the built-in profiles for messages.
func profileNames() string {
	var names []string
	for _, p := range planner.Profiles {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}

// orderFlags choose the ordering mode: --order dag|execution|budget and
// --budget SIZE (a budget alone selects the budget order).
type orderFlags struct {
	order     string
	budget    sizeValue
	budgetSet bool // --budget given, even as 0
}

func (o *orderFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&o.order, "order", "dag", "")
	fs.Func("budget", "", func(v string) error {
		o.budgetSet = true
		return o.budget.Set(v)
	})
}

// resolve returns the ordering and budget the flags ask for.
func (o *orderFlags) resolve(cmd string) (planner.Ordering, uint64, error) {
	ord, ok := planner.ParseOrdering(o.order)
	if !ok {
		return 0, 0, usageErrorf(cmd, "--order %q: want dag, execution or budget", o.order)
	}
	b := uint64(o.budget)
	switch {
	case o.budgetSet && b == 0:
		return 0, 0, usageErrorf(cmd, "--budget 0: a budget is a pooled-byte size > 0 (leave --budget out to plan without one)")
	case b != 0 && ord == planner.OrderDAG:
		ord = planner.OrderBudget
	case b != 0 && ord == planner.OrderExecution:
		return 0, 0, usageErrorf(cmd, "--budget with --order execution: a budget keeps the DAG order where it suffices (leave out --order)")
	case b == 0 && ord == planner.OrderBudget:
		return 0, 0, usageErrorf(cmd, "--order budget needs --budget SIZE")
	}
	return ord, b, nil
}
