package replay

import (
	"testing"
)

// TestResolveInto3DSlices is the device probe of issue 21's H200 failure
// (resolve3d.go): for each format of probeFormats, a multisampled 2D
// image resolved into every slice of both levels of a 3D image that was
// cleared to another value must leave no slice holding the clear. It
// measures both create flags of the 3D image and both ways of writing a
// slice (vkCmdResolveImage per slice, as the replay records it; a resolve
// into a 2D scratch image copied into each slice, the workaround), logs
// every measurement (also one vkCmdResolveImage per slice), and fails naming each format, way and slice that
// kept the clear (or holds neither value). The probe's commands must
// raise no validation message.
func TestResolveInto3DSlices(t *testing.T) {
	d := sharedDevice(t)
	t.Logf("device %s (%s)", d.Info().Name, d.Info().Driver)
	for _, f := range probeFormats {
		for _, compat := range []bool{true, false} {
			for _, via := range probeWays {
				s, why, err := probeResolve3D(d, f, compat, via)
				if err != nil {
					t.Fatal(err)
				}
				if why != "" {
					t.Logf("%s: not measured: %s", f, why)
					continue
				}
				t.Logf("%s", s)
				if len(s.Kept) > 0 || len(s.Other) > 0 {
					t.Errorf("%s (2D_ARRAY_COMPATIBLE %v) by %s: slices that kept the 3D image's clear: %v; slices holding neither value: %v",
						s.Format, s.Compat, s.Via, s.Kept, s.Other)
				}
				if s.Slices != 6 {
					t.Errorf("%s: %d slices written to, want 6 (4 of level 0, 2 of level 1)", f, s.Slices)
				}
			}
		}
	}
	for _, m := range d.TakeMessages() {
		t.Errorf("validation: %s", m)
	}
}
