package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/aliasplan/aliasplan/internal/datadir"
	"github.com/aliasplan/aliasplan/vulkan"
	"github.com/rogpeppe/go-internal/testscript"
)

var updateScripts = flag.Bool("update", false, "rewrite the scripts' cmp files with the actual output")

// TestMain lets scripts run "aliasplan" as a command: testscript re-runs
// this test binary as it.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"aliasplan": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
		// exits N aliasplan ARGS... runs aliasplan and succeeds when it
		// exits with status N, so that scripts check the status exactly.
		"exits": func() {
			if len(os.Args) < 3 || os.Args[2] != "aliasplan" {
				fmt.Fprintln(os.Stderr, "usage: exits N aliasplan ARGS...")
				os.Exit(100)
			}
			code := run(os.Args[3:], os.Stdout, os.Stderr)
			if fmt.Sprint(code) != os.Args[1] {
				fmt.Fprintf(os.Stderr, "exits: aliasplan exited with status %d, want %s\n", code, os.Args[1])
				os.Exit(100)
			}
			os.Exit(0)
		},
	})
}

// TestScripts runs testdata/script/*.txtar: every subcommand through the
// binary, the README's commands, and every bad-input case. Conditions:
// [shared] holds when the held-out data set exists (its path is in
// $SHARED; internal/datadir: without it the test fails under
// ALIASPLAN_REQUIRE_DATA=1); $TESTDATA is the repository's test data; [vulkan] when a Vulkan device opens (lavapipe will do). Commands: "empty DIR" fails unless DIR has no entries (no
// output file, no temporary file left behind); "lines N FILE" checks that
// stdout or stderr (FILE) has N lines.
func TestScripts(t *testing.T) {
	shared, haveShared := datadir.HeldOutDir(t)
	if !haveShared && datadir.Required() {
		t.Fatalf("held-out data set %s not found, and $%s is set: the [shared] script lines must run", shared, datadir.EnvRequire)
	}
	testdata := datadir.Repo(t)
	haveVulkan := sync.OnceValue(func() bool {
		d, err := vulkan.Open(vulkan.Config{})
		if err != nil {
			return false
		}
		d.Close()
		return true
	})
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *updateScripts,
		Setup: func(env *testscript.Env) error {
			env.Setenv("SHARED", shared)
			env.Setenv("TESTDATA", testdata)
			// Under -race every exec'd binary sleeps a second at exit
			// (the race runtime's atexit_sleep_ms) unless told not to.
			env.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "shared":
				return haveShared, nil
			case "vulkan":
				return haveVulkan(), nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"empty": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 {
					ts.Fatalf("usage: empty DIR")
				}
				entries, err := os.ReadDir(ts.MkAbs(args[0]))
				ts.Check(err)
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				if neg != (len(names) > 0) {
					ts.Fatalf("%s holds %q", args[0], names)
				}
			},
			"lines": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 2 || neg {
					ts.Fatalf("usage: lines N stdout|stderr")
				}
				text := ts.ReadFile(args[1])
				got := strings.Count(text, "\n")
				if !strings.HasSuffix(text, "\n") && text != "" {
					got++
				}
				if fmt.Sprint(got) != args[0] {
					ts.Fatalf("%s has %d lines, want %s:\n%s", args[1], got, args[0], text)
				}
			},
		},
	})
}

// TestHelpNamesEveryFlag keeps the hand-written help texts accurate: every
// flag a command defines is in its help, and every flag its help names is
// defined.
func TestHelpNamesEveryFlag(t *testing.T) {
	for _, name := range subcommands {
		c := newSubcommand(name)
		defined := map[string]bool{}
		c.fs.VisitAll(func(f *flag.Flag) {
			defined[f.Name] = true
			spelled := "--" + f.Name
			if len(f.Name) == 1 {
				spelled = "-" + f.Name
			}
			if !strings.Contains(c.help, spelled+" ") && !strings.Contains(c.help, spelled+"\n") {
				t.Errorf("%s: help does not name %s", name, spelled)
			}
		})
		for _, word := range strings.Fields(c.help) {
			word = strings.Trim(word, "(),;:.")
			if strings.HasPrefix(word, "--") && len(word) > 2 {
				if !defined[strings.TrimPrefix(word, "--")] {
					t.Errorf("%s: help names %s, which is not defined", name, word)
				}
			}
		}
		if !strings.Contains(usage, "aliasplan "+name) {
			t.Errorf("top-level usage does not mention %s", name)
		}
		var out bytes.Buffer
		if code := run([]string{name, "-h"}, &out, &out); code != 0 || out.String() != c.help {
			t.Errorf("%s -h: exit %d, output %q", name, code, out.String())
		}
	}
}

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"0", 0, true},
		{"65536", 65536, true},
		{"64MiB", 64 << 20, true},
		{"64 MiB", 64 << 20, true},
		{"4GiB", 4 << 30, true},
		{"1.5KiB", 1536, true},
		{"2KB", 2000, true},
		{"1GB", 1e9, true},
		{"100B", 100, true},
		{"18446744073709551615", 1<<64 - 1, true},
		{"", 0, false},
		{"MiB", 0, false},
		{"-1", 0, false},
		{"1.5", 0, false},
		{"0.3B", 0, false},
		{"64mb", 0, false},
		{"1e30GiB", 0, false},
		{"NaN", 0, false},
	} {
		got, err := parseSize(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
	for _, n := range []uint64{0, 1, 1000, 1 << 10, 64 << 20, 3 << 29, 1 << 40, 1<<20 + 1} {
		if got, err := parseSize(formatSize(n)); err != nil || got != n {
			t.Errorf("parseSize(formatSize(%d) = %q) = %d, %v", n, formatSize(n), got, err)
		}
	}
}

func TestReorder(t *testing.T) {
	c := planCommand()
	for _, tc := range []struct {
		in          string
		flags, args string
	}{
		{"frame.json -o plan.json", "-o plan.json", "frame.json"},
		{"-o plan.json frame.json", "-o plan.json", "frame.json"},
		{"frame.json --svg=a.svg --strategy bestfit", "--svg=a.svg --strategy bestfit", "frame.json"},
		{"- --format json", "--format json", "-"},
		{"--unknown x", "--unknown", "x"},
		{"-o a -- -b.json", "-o a", "-b.json"},
		{"--svg", "--svg", ""},
	} {
		flags, args := c.reorder(strings.Fields(tc.in))
		if strings.Join(flags, " ") != tc.flags || strings.Join(args, " ") != tc.args {
			t.Errorf("reorder(%q) = %q, %q; want %q, %q", tc.in, flags, args, tc.flags, tc.args)
		}
	}
}
