package replay

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/aliasplan/aliasplan"
	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan"
)

// The replay tests follow package vulkan's GPU tests: whatever device the
// loader offers (lavapipe in CI), validation with synchronization
// validation on, any message fails; without a device they skip, loudly,
// unless ALIASPLAN_REQUIRE_VULKAN=1 makes them fail;
// ALIASPLAN_VULKAN_DEVICE picks a device by name substring.

const requireEnv = "ALIASPLAN_REQUIRE_VULKAN"

var unavailable error

func TestMain(m *testing.M) {
	if os.Getenv("XDG_RUNTIME_DIR") == "" {
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("xdg-runtime-%d", os.Getuid()))
		if os.MkdirAll(dir, 0o700) == nil {
			os.Setenv("XDG_RUNTIME_DIR", dir)
		}
	}
	d, err := vulkan.Open(vulkan.Config{Validation: true, Replay: true, Device: os.Getenv("ALIASPLAN_VULKAN_DEVICE")})
	if err != nil {
		unavailable = err
		verdict := "SKIPPED"
		if os.Getenv(requireEnv) == "1" {
			verdict = "FAILING (" + requireEnv + "=1)"
		}
		fmt.Fprintf(os.Stderr, "\n"+
			"################################################################\n"+
			"## aliasplan/vulkan/replay: NO USABLE VULKAN DEVICE: GPU TESTS %s\n"+
			"## %v\n"+
			"## Install lavapipe and the validation layer: scripts/install-vulkan.sh\n"+
			"################################################################\n\n", verdict, err)
	} else {
		d.Close()
	}
	os.Exit(m.Run())
}

func openDevice(t testing.TB) *vulkan.Device {
	t.Helper()
	if unavailable != nil {
		if os.Getenv(requireEnv) == "1" {
			t.Fatalf("no usable Vulkan device and %s=1: %v", requireEnv, unavailable)
		}
		t.Skipf("SKIP: NO USABLE VULKAN DEVICE, GPU test not run: %v", unavailable)
	}
	d, err := vulkan.Open(vulkan.Config{Validation: true, Replay: true, Device: os.Getenv("ALIASPLAN_VULKAN_DEVICE")})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Error(err)
		}
		for _, m := range d.TakeMessages() {
			t.Errorf("validation (at teardown): %s", m)
		}
	})
	return d
}

// prepare makes a Replayer for g and plans g with its source.
func prepare(t testing.TB, d *vulkan.Device, g *p.Graph) (*Replayer, *p.Plan) {
	t.Helper()
	r, err := New(d, g)
	if err != nil {
		t.Fatalf("replay.New: %v", err)
	}
	t.Cleanup(r.Close)
	plan, err := aliasplan.New(aliasplan.Options{Source: r.Source(), MaxPoolSize: d.Info().MaxMemoryAllocationSize}).Plan(&aliasplan.Graph{Graph: *g})
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	return r, plan
}

// compare replays g both ways and fails on any difference or message.
func compare(t testing.TB, d *vulkan.Device, g *p.Graph, runs int) *Report {
	t.Helper()
	r, plan := prepare(t, d, g)
	rep, err := r.Compare(plan, Config{Runs: runs})
	if err != nil {
		t.Fatalf("Compare: %v", err)
	}
	for _, m := range rep.Mismatches {
		t.Errorf("mismatch: %s", m)
	}
	for _, m := range rep.Messages {
		t.Errorf("validation: %s", m)
	}
	if rep.ValidationMessages != 0 && len(rep.Messages) == 0 {
		t.Errorf("%d validation messages", rep.ValidationMessages)
	}
	return rep
}
