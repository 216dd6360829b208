package replay

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
	"github.com/aliasplan/aliasplan/vk"
)

// TestResolveInto3DSlices is the device probe of issue 21's H200 failure
// (resolve3d.go): for each format of probeFormats, a multisampled 2D
// image resolved into every slice of both levels of a 3D image that was
// cleared to another value, with and without 2D_ARRAY_COMPATIBLE, by each
// way of probeWays (one vkCmdResolveImage with a region per slice, as the
// replay records it by default; one call per slice; a resolve into a 2D
// scratch image copied into each slice). It logs every measurement and
// names the slices that kept the clear (or hold neither value). It fails
// where no way writes every slice of a format as the replay makes its 3D
// images (2D_ARRAY_COMPATIBLE: New would refuse), and, with
// ALIASPLAN_STRICT_3D_RESOLVE=1 (scripts/h200-standin.sh's first run),
// for every way that leaves a slice unwritten: the driver's defect
// itself. On the H200 (session 10) the default way writes slice 0 of each
// level only. The probe's commands must raise no validation message.
func TestResolveInto3DSlices(t *testing.T) {
	d := sharedDevice(t)
	strict := os.Getenv("ALIASPLAN_STRICT_3D_RESOLVE") == "1"
	t.Logf("device %s (%s), strict %v", d.Info().Name, d.Info().Driver, strict)
	for _, f := range probeFormats {
		for _, compat := range []bool{true, false} {
			right := ""
			measured := false
			for _, via := range probeWays {
				s, why, err := probeResolve3D(d, f, compat, via)
				if err != nil {
					t.Fatal(err)
				}
				if why != "" {
					t.Logf("%s: not measured: %s", f, why)
					continue
				}
				measured = true
				t.Logf("%s", s)
				bad := len(s.Kept) > 0 || len(s.Other) > 0
				if bad {
					msg := fmt.Sprintf("%s (2D_ARRAY_COMPATIBLE %v) by %s: slices that kept the 3D image's clear: %v; slices holding neither value: %v",
						s.Format, s.Compat, s.Via, s.Kept, s.Other)
					if strict {
						t.Error(msg)
					} else {
						t.Log("driver defect: " + msg)
					}
				} else if right == "" {
					right = via
				}
				if s.Slices != 6 {
					t.Errorf("%s: %d slices written to, want 6 (4 of level 0, 2 of level 1)", f, s.Slices)
				}
			}
			switch {
			case !measured:
			case right == "" && compat:
				t.Errorf("%s: no way writes every slice of a 3D image (2D_ARRAY_COMPATIBLE, as the replay makes them): New refuses its resolves", f)
			case right == "":
				t.Logf("%s without 2D_ARRAY_COMPATIBLE: no way writes every slice", f)
			default:
				t.Logf("%s (2D_ARRAY_COMPATIBLE %v): the first way writing every slice: %s", f, compat, right)
			}
		}
	}
	for _, m := range d.TakeMessages() {
		t.Errorf("validation: %s", m)
	}
}

// TestResolve3DWorkaround exercises the run-time check of New
// (resolve3d.go) on any device by simulating a driver's defect in every
// vkCmdResolveImage into a 3D image (the probe's included), on the frames
// with resolves into 3D images (a resolve of two images of the graph; a
// lone resolve into every level of a 3D image; the first generated frame
// whose first kind is stand-in-transfers, standInSeed):
//   - a call writes only its first region: the probe chooses one call per
//     slice, and the frames replay with equal digests and no validation
//     message;
//   - the same with the workaround off (noSliceCalls): the unwritten
//     slices differ between runs under the pool poison (poison.go): the
//     H200's failure (standin.read, volume.read);
//   - slices other than 0 never written (the H200's defect): the probe
//     chooses the 2D scratch image and copies, chained through RESOLVE by
//     the replay's own barriers: equal digests, no validation message, and
//     the plan's barriers to RESOLVE moved to CLEAR still raise hazards;
//   - the scratch way fails too: New refuses naming the defect.
func TestResolve3DWorkaround(t *testing.T) {
	d := sharedDevice(t)
	forget := func() {
		resolve3DVerdicts.Range(func(k, _ any) bool { resolve3DVerdicts.Delete(k); return true })
	}
	t.Cleanup(func() { simulatedDefect, noSliceCalls = defectNone, false; forget() })
	frames := map[string]func() *p.Graph{
		"resolve-3d":        transferFrames["resolve-3d"],
		"blit-resolve-lone": transferFrames["blit-resolve-lone"],
		"generated":         func() *p.Graph { return proptest.ReplayFrame(standInSeed(t)) },
	}
	replay := func(t *testing.T, g *p.Graph) (*Replayer, *p.Plan, *Report) {
		r, plan := prepare(t, d, g)
		rep, err := r.Compare(plan, Config{Runs: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Messages) != 0 || rep.ValidationMessages != 0 {
			t.Errorf("%d validation messages: %v", rep.ValidationMessages, rep.Messages)
		}
		return r, plan, rep
	}
	const f = vk.FormatR8G8B8A8Unorm
	// The device's own way, with nothing simulated: a simulated defect
	// can only push the choice later (the H200 needs the scratch way
	// already: docs/replay.md).
	forget()
	v, ok, err := resolve3DVerdictOf(d, f)
	if err != nil || !ok {
		t.Fatalf("probing %s: %v (ok %v)", f, err, ok)
	}
	own, ok := v.way()
	if !ok {
		t.Skipf("SKIP (device defect, not a pass): %s writes no way every slice of a 3D %s image: %v", d.Info().Name, f, v.probes)
	}
	t.Logf("%s: the device's own way for %s: %d", d.Info().Name, f, own)
	for _, name := range mapsKeys(frames) {
		t.Run(name, func(t *testing.T) {
			forget()
			simulatedDefect, noSliceCalls = defectFirstRegion, false
			r, _, rep := replay(t, frames[name]())
			if want := max(wayCalls, own); r.k.sliceWay[f] != want {
				t.Errorf("one call writing its first region only: sliceWay %v, want way %d (one call per slice, or the device's own way if later)", r.k.sliceWay, want)
			}
			for _, m := range rep.Mismatches {
				t.Errorf("one call per slice: mismatch: %s", m)
			}
			noSliceCalls = true
			r, _, rep = replay(t, frames[name]())
			t.Logf("workaround off: %d mismatches (poison %v)", len(rep.Mismatches), r.poison)
			if r.poison && rep.DigestsEqual {
				t.Errorf("without the workaround the simulated defect leaves slices unwritten, yet the digests agree under the poison")
			}
			noSliceCalls = false

			forget()
			simulatedDefect = defectSlices
			r, plan, rep := replay(t, frames[name]())
			if r.k.sliceWay[f] != wayScratch {
				t.Errorf("slices other than 0 never written: sliceWay %v, want the scratch way (%d)", r.k.sliceWay, wayScratch)
			}
			for _, m := range rep.Mismatches {
				t.Errorf("through scratch: mismatch: %s", m)
			}
			controls := 0
			for k, b := range plan.Barriers {
				if b.Kind != p.Hazard || b.DstStages&vk.StageResolve == 0 || firstUse(r.g, plan, k) {
					continue
				}
				hazards := wrongStage(t, r, plan, k, vk.StageClear, nil)
				controls++
				what := r.g.Commands[b.Before].Name + "/" + r.g.Resources[b.Resource].Name
				t.Logf("through scratch: %s: barrier to CLEAR instead of %s: %d hazards", what, b.DstStages, hazards)
				if hazards == 0 {
					t.Errorf("through scratch: %s: a barrier to the wrong stage raised no hazard: the replay's own barriers order what the plan's should", what)
				}
			}
			t.Logf("through scratch: %d wrong-stage controls", controls)

			forget()
			simulatedDefect = defectScratch
			_, err := New(d, frames[name]())
			var ue *UnsupportedError
			if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "leaves slices of a 3D") {
				t.Fatalf("New with every way failing: %v, want a refusal naming the defect", err)
			}
			t.Logf("refused: %v", err)
		})
	}
}

// standInSeed is the first seed whose proptest.ReplayFrame has the
// stand-in-transfers kind first (it resolves into a 3D image); the seed
// moves whenever proptest.ReplayKinds grows.
func standInSeed(t *testing.T) uint64 {
	for s := uint64(1); s <= uint64(2*len(proptest.ReplayKinds)); s++ {
		if proptest.ReplayFrameKinds(s)[0] == "stand-in-transfers" {
			return s
		}
	}
	t.Fatal("no seed has the stand-in-transfers kind first")
	return 0
}
