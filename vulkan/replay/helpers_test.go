package replay

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aliasplan/aliasplan"
	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
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
	code := m.Run()
	closeShared()
	os.Exit(code)
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

var shared struct {
	sync.Mutex
	d *vulkan.Device
}

// sharedDevice is openDevice for tests that replay many graphs: one
// device for the whole test binary, opened on first use and closed by
// TestMain. The NVIDIA driver with the validation layer refuses
// vkCreateInstance (VK_ERROR_INCOMPATIBLE_DRIVER) after about 30
// instances in one process, so a device per subtest cannot replay 50
// generated frames on the H200. Each use checks, at its end, that it left
// no object alive and no validation message behind. Only with
// ALIASPLAN_SHARE_DEVICE=1 (the H200 scripts set it): on lavapipe a second
// Replayer on one device crashed pipeline creation (docs/replay.md), so
// there every use gets its own device as before.
func sharedDevice(t testing.TB) *vulkan.Device {
	t.Helper()
	if unavailable != nil || os.Getenv("ALIASPLAN_SHARE_DEVICE") != "1" {
		return openDevice(t) // skips or fails as it says when there is no device
	}
	shared.Lock()
	if shared.d == nil {
		d, err := vulkan.Open(vulkan.Config{Validation: true, Replay: true, Device: os.Getenv("ALIASPLAN_VULKAN_DEVICE")})
		if err != nil {
			shared.Unlock()
			t.Fatalf("Open: %v", err)
		}
		shared.d = d
	}
	d := shared.d
	for _, m := range d.TakeMessages() {
		t.Logf("validation (left by an earlier test, not counted here): %s", m)
	}
	t.Cleanup(func() {
		defer shared.Unlock()
		if a, b, i := d.Live(); a+b+i != 0 {
			t.Errorf("left alive: %d allocations, %d buffers, %d images", a, b, i)
		}
		for _, m := range d.TakeMessages() {
			t.Errorf("validation (at teardown): %s", m)
		}
	})
	return d
}

func closeShared() {
	if shared.d != nil {
		if err := shared.d.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "replay tests: closing the shared device:", err)
		}
		shared.d = nil
	}
}

// prepare makes a Replayer for g and plans g with its source.
func prepare(t testing.TB, d *vulkan.Device, g *p.Graph) (*Replayer, *p.Plan) {
	t.Helper()
	return prepareWith(t, d, g, aliasplan.Options{})
}

// prepareWith is prepare planning with opts (its Source and MaxPoolSize
// are the replayer's and the device's).
func prepareWith(t testing.TB, d *vulkan.Device, g *p.Graph, opts aliasplan.Options) (*Replayer, *p.Plan) {
	t.Helper()
	r, err := New(d, g)
	if err != nil {
		t.Fatalf("replay.New: %v", err)
	}
	t.Cleanup(r.Close)
	opts.Source, opts.MaxPoolSize = r.Source(), d.Info().MaxMemoryAllocationSize
	plan, err := aliasplan.New(opts).Plan(&aliasplan.Graph{Graph: *g})
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

// wrongStage runs plan once with barrier k's destination stages replaced
// by wrong (a wrong-stage control) and returns the synchronization hazards
// the layer raised, quirks left out, that keep accepts (nil: all).
func wrongStage(t testing.TB, r *Replayer, plan *p.Plan, k int, wrong vk.Stage, keep func(vulkan.Message) bool) int {
	t.Helper()
	broken := *plan
	broken.Barriers = slices.Clone(plan.Barriers)
	broken.Barriers[k].DstStages = wrong
	_, msgs, err := r.RunPlan(&broken, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	rest, _ := SplitQuirks(msgs)
	hazards := 0
	for _, m := range rest {
		if strings.HasPrefix(m.ID, "SYNC-HAZARD-") && (keep == nil || keep(m)) {
			hazards++
		}
	}
	return hazards
}

// clobberDiff runs plan intact (it must raise no message but the
// driver's SPIR-V warnings) and with y placed over x (clobber), and
// returns the commands whose digests differ between the two runs.
func clobberDiff(t *testing.T, r *Replayer, g *p.Graph, plan *p.Plan) []string {
	t.Helper()
	good, msgs, err := r.RunPlan(plan, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	if rest, _ := SplitQuirks(msgs); len(slices.DeleteFunc(rest, func(m vulkan.Message) bool { return driverSPIRVWarning(m.Text) })) != 0 {
		t.Fatalf("the intact plan has messages: %v", rest)
	}
	bad, _, err := r.RunPlan(clobber(t, g, plan, "x", "y"), 1, false)
	if err != nil {
		t.Fatal(err)
	}
	return r.Diff(good, bad)
}

// diffHas says whether command cmd is among the differences diff.
func diffHas(diff []string, cmd string) bool {
	return slices.ContainsFunc(diff, func(s string) bool { return strings.Contains(s, fmt.Sprintf("%q", cmd)) })
}
