package replay

import (
	"fmt"
	"strings"

	p "github.com/aliasplan/aliasplan/planner"
)

// Multisampled images in compute shaders: texelFetch of a sampler2DMS
// (usampler2DMS) and imageLoad / imageStore of an image2DMS, one slot per
// layer, element z its sample, as in the vertex and fragment shaders.
// Compute parts that use one run comp_ms.spv (replay.comp with N_MS 1
// and EXTRA); every other compute part keeps comp.spv / comp_x.spv, which
// declare none.

// usesMS says whether a part with masks m has a multisampled slot.
func usesMS(m specMasks) bool {
	for _, c := range []category{catS2MS, catS2MSU} {
		if m[c] != 0 {
			return true
		}
	}
	for c := catIMSRGBA8; c <= catIWMSU; c++ {
		if m[c] != 0 {
			return true
		}
	}
	return m[catIWMSI] != 0 // sint.go
}

// compModule names the compute module for a part with masks m.
func compModule(m specMasks) string {
	if usesFmtless(m) { // fmtless.go
		return fmtlessModule(m)
	}
	if usesMS(m) {
		return "comp_ms.spv"
	}
	return variant("comp.spv", needsExtra(m, false))
}

// msComputeDevice refuses multisampled images in compute parts on
// lavapipe, naming it: llvmpipe (Mesa 22.3) crashes (SIGSEGV) creating a
// compute pipeline from a shader that declares multisampled images
// (measured: comp_ms.spv, TestMSAACompute), so the replay does not try.
func (k *kit) msComputeDevice(g *p.Graph, ws []work) error {
	info := k.dev.Info()
	if !k.noMSCompute() {
		return nil
	}
	for i := range ws {
		pt := ws[i].parts[stCompute]
		if pt == nil {
			continue
		}
		for _, s := range pt.slots {
			if s.cat != catS2MS && s.cat != catS2MSU && !s.cat.isMSStorage() {
				continue
			}
			cmd := &g.Commands[ws[i].cmd]
			return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[s.res].Name, Access: describe(g, findAccess(cmd, s.res)),
				Reason: fmt.Sprintf("%s (driver %q) crashes creating compute pipelines whose shader declares multisampled images (Mesa 22.3's llvmpipe); other devices replay them (comp_ms.spv)", info.Name, info.Driver)}
		}
	}
	return nil
}

// noMSCompute says whether the device is lavapipe (llvmpipe), where the
// compute stage gets no multisampled bindings and comp_ms.spv no module:
// a compute descriptor set layout with multisampled bindings crashes its
// ordinary compute pipelines too (measured: TestGenericFrame, SIGSEGV).
func (k *kit) noMSCompute() bool {
	info := k.dev.Info()
	return strings.Contains(strings.ToLower(info.Name+" "+info.Driver), "llvmpipe")
}

// size is c.size(st) on k's device: no multisampled compute slots where
// noMSCompute.
func (k *kit) size(c category, st stage) int {
	if c.isFmtless() && !k.fmtlessOn(st) { // fmtless.go
		return 0
	}
	if st == stCompute && (c == catS2MS || c == catS2MSU || c.isMSStorage()) && k.noMSCompute() {
		return 0
	}
	return c.size(st)
}
