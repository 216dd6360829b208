// Command aliasplan plans transient GPU memory aliasing for Vulkan render
// graphs, places interval problems, verifies plan files and compares the
// placement strategies. Run `aliasplan --help` for the commands.
//
// Exit status: 0 on success, 1 when check finds violations, 2 on bad input
// or usage. Every error is one line on stderr naming the file, the item and
// the rule; no output file is left behind by a failed run.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/aliasplan/aliasplan/internal/suggest"
)

// Exit statuses.
const (
	exitOK         = 0
	exitViolations = 1 // check: the plan breaks a rule; replay: digests differ or validation reported
	exitBadInput   = 2 // bad input, bad usage, or any other failure
	exitUnknown    = 3 // solve --capacity: neither fits nor proven not to, within the limit
)

const usage = `aliasplan plans transient GPU memory aliasing for Vulkan render graphs.

Usage:
  aliasplan plan [GRAPH.json]        plan a graph (no file: the embedded sample
                                     frame); summary on stdout, -o plan file,
                                     --svg/--html picture of memory over time
  aliasplan solve PROBLEM.csv        place an interval problem (MiniMalloc CSV);
                                     CSV with an offset column on stdout
  aliasplan check GRAPH.json PLAN.json
                                     verify a plan file against its graph
  aliasplan bench FILES...           every strategy on every graph (.json) and
                                     problem (.csv): peak, lower bound, gap, time
  aliasplan sample                   write the embedded sample frame as a graph file
  aliasplan replay [GRAPH.json]      run the frame's real work on the Vulkan device,
                                     aliased and unaliased: digests, GPU time

Strategies: firstfit (default), bestfit, exact.
Run 'aliasplan COMMAND -h' for a command's flags.
Exit status: 0 ok, 1 check found violations (solve --capacity: proven not
to fit), 2 bad input or usage, 3 solve --capacity: unknown within the limit.
File formats and exit statuses in full: docs/formats.md.
`

func main() {
	if os.Getenv("GOGC") == "" {
		// Large frames' heaps are mostly the closure and an interference
		// matrix, pointer-free, which a collection marks at no cost:
		// collecting at 50% growth instead of 100% keeps the peak near
		// the live bytes (60,000 commands: 0.88 GB instead of 1.10 GB)
		// for no measurable CPU (docs/decisions.md).
		debug.SetGCPercent(50)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one command line and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitBadInput
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "-h", "-help", "--help", "help":
		if len(rest) > 0 && cmd == "help" {
			return run([]string{rest[0], "-h"}, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	c := newSubcommand(cmd)
	if c == nil {
		if s, ok := suggest.Closest(cmd, subcommands); ok {
			return report(usageErrorf("", "unknown command %q (did you mean %s?)", cmd, s), stderr)
		}
		return report(usageErrorf("", "unknown command %q (want %s)", cmd, strings.Join(subcommands, ", ")), stderr)
	}
	files, err := c.parse(rest, stdout)
	if err == nil {
		err = c.run(files, stdout, stderr)
	}
	return report(err, stderr)
}

// subcommands lists the commands, in help order.
var subcommands = []string{"plan", "solve", "check", "bench", "sample", "replay"}

// newSubcommand returns the named command with its flags defined, or nil.
func newSubcommand(name string) *command {
	switch name {
	case "plan":
		return planCommand()
	case "solve":
		return solveCommand()
	case "check":
		return checkCommand()
	case "bench":
		return benchCommand()
	case "sample":
		return sampleCommand()
	case "replay":
		return replayCommand()
	}
	return nil
}

// report prints err (if any) and returns the exit status it calls for.
func report(err error, stderr io.Writer) int {
	var ue *usageError
	var ve *violationsError
	var rf *replayFailedError
	var ce *capacityError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ce):
		return ce.status // solve printed its summary
	case errors.As(err, &rf):
		fmt.Fprintf(stderr, "aliasplan: %s\n", rf.msg)
		return exitViolations
	case errors.Is(err, errHelp):
		return exitOK
	case errors.As(err, &ue):
		prefix := "aliasplan"
		if ue.cmd != "" {
			prefix += " " + ue.cmd
		}
		fmt.Fprintf(stderr, "%s: %s\n", prefix, ue.msg)
		if ue.cmd != "" {
			fmt.Fprintf(stderr, "run 'aliasplan %s -h' for usage\n", ue.cmd)
		} else {
			fmt.Fprintln(stderr, "run 'aliasplan --help' for usage")
		}
		return exitBadInput
	case errors.As(err, &ve):
		for _, v := range ve.violations {
			fmt.Fprintf(stderr, "aliasplan: %s: %s\n", ve.file, oneLine(trimPkg(v.Error())))
		}
		noun := "violations"
		if len(ve.violations) == 1 {
			noun = "violation"
		}
		if ve.capped {
			fmt.Fprintf(stderr, "aliasplan: %s: stopped after %d %s (--max-violations): the plan does not hold\n", ve.file, len(ve.violations), noun)
		} else {
			fmt.Fprintf(stderr, "aliasplan: %s: %d %s: the plan does not hold\n", ve.file, len(ve.violations), noun)
		}
		return exitViolations
	}
	// Validate reports every broken rule of a graph at once: one line each.
	for _, e := range splitErrors(err) {
		fmt.Fprintf(stderr, "aliasplan: %s\n", oneLine(trimPkg(e.Error())))
	}
	return exitBadInput
}

// errHelp is returned after a command printed its help on request.
var errHelp = errors.New("help requested")

// usageError is a malformed command line.
type usageError struct {
	cmd string // the subcommand, or "" for the top level
	msg string
}

func (e *usageError) Error() string { return e.msg }

func usageErrorf(cmd, format string, args ...any) error {
	return &usageError{cmd: cmd, msg: fmt.Sprintf(format, args...)}
}

// violationsError carries what check found wrong with a plan file.
type violationsError struct {
	file       string
	violations []error
	capped     bool // the list stopped at --max-violations: there may be more
}

func (e *violationsError) Error() string {
	return fmt.Sprintf("%s: %d violation(s)", e.file, len(e.violations))
}

// trimPkg drops the leading "planner: " (or another package prefix the
// library puts on its errors): the CLI names itself instead.
func trimPkg(msg string) string {
	for _, p := range []string{"planner: ", "exact: ", "barriers: ", "vulkan: ", "aliasplan: "} {
		if rest, ok := strings.CutPrefix(msg, p); ok {
			return rest
		}
	}
	return msg
}

// oneLine keeps an error on one line whatever it wraps.
func oneLine(msg string) string {
	return strings.ReplaceAll(strings.TrimRight(msg, "\n"), "\n", "; ")
}
