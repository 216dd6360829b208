package replay

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
	"github.com/aliasplan/aliasplan/vk"
)

// texelEvent is one access of one texel (or buffer word) by the work of
// one command, as the shaders and attachments perform it (common.glsl's
// element mapping): the brute-force twin of selfrace.go's touches.
type texelEvent struct {
	piece, inv int  // events of one (piece, inv) are in program order
	write      bool // else a read
	load       int  // a pass's load operation: its pass + 1 (0: not one)
	output     int  // a fragment's colour output: its pass + 1
}

type texelKey struct {
	res                         p.ResourceID
	level, layer, x, y, z, word uint32
}

// simulate lists every texel event of w's shader and attachment work
// (transfers as one agent each), texel by texel.
func simulate(g *p.Graph, w *work) map[texelKey][]texelEvent {
	m := map[texelKey][]texelEvent{}
	piece := 0
	slotTexel := func(s *slot, e uint32) texelKey {
		r := &g.Resources[s.res]
		if r.Kind == p.KindBuffer {
			return texelKey{res: s.res, word: e}
		}
		x, y, z := e%s.w, (e/s.w)%s.h, e/(s.w*s.h)
		k := texelKey{res: s.res, level: s.level, x: x, y: y}
		switch {
		case s.layer >= 0:
			k.layer, k.z = uint32(s.layer), z // z: the sample
		case s.lv.layers > 0:
			k.layer = s.lv.layer0 + z
		default:
			k.layer = z // a 2D array's layer, a 3D image's slice
		}
		return k
	}
	for _, op := range append(append([]copyOp(nil), w.clears...), w.copies...) {
		piece++
		for i, id := range []p.ResourceID{op.src, op.dst} {
			if id < 0 {
				continue
			}
			sp := op.srcSpan
			if i == 1 {
				sp = op.dstSpan
				if op.src < 0 {
					sp = op.sp
				}
			}
			for _, k := range spanKeys(g, id, sp) {
				m[texelKey{res: k.res, level: k.level, layer: k.layer}] = append(m[texelKey{res: k.res, level: k.level, layer: k.layer}], texelEvent{piece: piece, write: i == 1})
			}
		}
	}
	if pt := w.parts[stCompute]; pt != nil {
		piece++
		n := pt.maxCount()
		for e := uint64(0); e < n; e++ {
			for i := range pt.slots {
				s := &pt.slots[i]
				if e < s.count() {
					k := slotTexel(s, uint32(e))
					m[k] = append(m[k], texelEvent{piece: piece, inv: int(e), write: s.flags&fWrite != 0})
				}
			}
		}
	}
	if !w.graphics {
		return m
	}
	for k := range w.passes {
		ps := &w.passes[k]
		piece++
		np := ps.width * ps.height
		quiet := quietDraw(w, ps, true)
		if pt := w.parts[stFragment]; pt != nil {
			for pix := uint32(0); pix < np; pix++ {
				for i := range pt.slots {
					s := &pt.slots[i]
					if quiet && w.gfxWritten[s.res] {
						continue
					}
					e0, step := pix, np
					if s.flags&fOwn != 0 {
						j := cats[s.cat].offset + s.index
						if ps.own[j>>5]&(1<<(j&31)) == 0 {
							continue
						}
						step = uint32(s.count())
					}
					for e := uint64(e0); e < s.count(); e += uint64(step) {
						key := slotTexel(s, uint32(e))
						m[key] = append(m[key], texelEvent{piece: piece, inv: int(pix), write: s.flags&fWrite != 0})
					}
				}
				for _, c := range ps.colors {
					key := texelKey{res: w.colors[c.att].res, level: c.level, layer: c.layer, x: pix % ps.width, y: pix / ps.width}
					m[key] = append(m[key], texelEvent{piece: piece, inv: int(pix), write: true, output: k + 1})
				}
			}
		}
		piece++
		for _, c := range ps.colors {
			a := w.colors[c.att]
			if w.ownSubs[subKey{a.res, c.level, c.layer}] && !a.read {
				continue // LOAD_OP_NONE: no access
			}
			for pix := uint32(0); pix < np; pix++ {
				key := texelKey{res: a.res, level: c.level, layer: c.layer, x: pix % ps.width, y: pix / ps.width}
				m[key] = append(m[key], texelEvent{piece: piece, write: !(a.read && !a.clear), load: k + 1})
			}
		}
	}
	return m
}

// ordered says whether the device keeps a before b or b before a: one
// invocation's program order, or a pass's load operation before its
// fragments' outputs.
func ordered(a, b texelEvent) bool {
	return a.piece == b.piece && a.inv == b.inv || a.load != 0 && a.load == b.output || b.load != 0 && b.load == a.output
}

// texelRaces lists the texels two unordered events touch, one writing.
func texelRaces(g *p.Graph, w *work) []string {
	var out []string
	for k, evs := range simulate(g, w) {
		for i := range evs {
			for j := i + 1; j < len(evs); j++ {
				if (evs[i].write || evs[j].write) && !ordered(evs[i], evs[j]) {
					out = append(out, fmt.Sprintf("%s mip %d layer %d (%d,%d): %+v / %+v", g.Resources[k.res].Name, k.level, k.layer, k.x, k.y, evs[i], evs[j]))
					j = len(evs)
				}
			}
		}
	}
	return out
}

// TestBloomTwinSelfRace: the GENERAL twin of the bloom chain samples the
// whole 6-mip image and renders into the whole image in one command (a
// pass per mip). The work the replay did for it before own-pixel reads
// read, in every pass, texels the other passes of the command write (and
// its own pass's texels at other pixels, beside a clearing load): races no
// barrier orders, which gave the H200 differing digests. Texel by texel
// (simulate) that work races, and selfRace names it; with own-pixel reads
// no texel races and every subresource of the image is still read.
func TestBloomTwinSelfRace(t *testing.T) {
	g, err := Scale(readFrame(t, rangedFrame(t, "bloom-general")), 8)
	if err != nil {
		t.Fatal(err)
	}
	g = concreteGraph(replayGraph(g))
	down1 := p.CommandID(-1)
	for c := range g.Commands {
		if g.Commands[c].Name == "bloom.down1" {
			down1 = p.CommandID(c)
		}
	}
	rawWork = true
	raw, err := analyzeCommand(g, down1)
	rawWork = false
	if err != nil {
		t.Fatal(err)
	}
	if races := texelRaces(g, &raw); len(races) == 0 {
		t.Errorf("the work without own-pixel reads does not race (the simulation misses the race)")
	} else {
		t.Logf("without own-pixel reads: %d racing texels, e.g. %s", len(races), races[0])
	}
	var ue *UnsupportedError
	if err := selfRace(g, &raw); !errors.As(err, &ue) || !strings.Contains(ue.Reason, "no order between them") {
		t.Errorf("selfRace on the racing work: %v", err)
	}
	for c := range g.Commands {
		w, err := analyzeCommand(g, p.CommandID(c))
		if err != nil {
			t.Fatalf("%s: %v", g.Commands[c].Name, err)
		}
		if races := texelRaces(g, &w); len(races) > 0 {
			t.Errorf("%s: %d racing texels, e.g. %s", w.name, len(races), races[0])
		}
		if w.name != "bloom.down1" {
			continue
		}
		// Every mip is still read: in the pass that renders it, at each pixel.
		read := map[uint32]bool{}
		for _, s := range w.parts[stFragment].slots {
			if g.Resources[s.res].Name == "bloom" && s.flags&fOwn != 0 {
				read[s.level] = true
			}
		}
		if len(read) != 6 {
			t.Errorf("own-pixel reads of %d mips, want 6", len(read))
		}
	}
}

// TestSelfRaceNamed: a command whose work would race with itself and that
// own-pixel reads cannot fix (a fragment read of what the command's
// compute part writes) is refused by name.
func TestSelfRaceNamed(t *testing.T) {
	g := &p.Graph{}
	im := g.AddImage("img", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 16, Height: 16, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
		Tiling: vk.TilingOptimal, Usage: vk.ImageUsageSampled | vk.ImageUsageStorage})
	g.AddCommand("both",
		p.Access{Resource: im, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral},
		p.Access{Resource: im, Stages: vk.StageFragmentShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutGeneral})
	_, err := analyzeCommand(g, 0)
	var ue *UnsupportedError
	if !errors.As(err, &ue) || ue.Command != "both" || ue.Resource != "img" || !strings.Contains(ue.Reason, "compute dispatch") {
		t.Fatalf("got %v, want a named refusal", err)
	}
}

// TestSelfRaceAgreesWithTexels: every command the replay accepts in the
// ranged frames, their GENERAL twins, random ranged graphs and the
// generated frames has no racing texel (simulate covers compute, fragment,
// attachments and transfers; vertex reads are checked by selfRace alone).
func TestSelfRaceAgreesWithTexels(t *testing.T) {
	var graphs []*p.Graph
	var names []string
	for _, f := range rangedFrames {
		for _, twin := range []string{"", "-general"} {
			g, err := Scale(readFrame(t, rangedFrame(t, f+twin)), 8)
			if err != nil {
				t.Fatal(err)
			}
			writeFirst(g)
			graphs, names = append(graphs, g), append(names, f+twin)
		}
	}
	for s := uint64(1); s <= 23; s++ {
		graphs, names = append(graphs, randomRangedGraph(s), proptest.ReplayFrame(s)), append(names, fmt.Sprint("ranged-", s), fmt.Sprint("generated-", s))
	}
	for i, g := range graphs {
		g = concreteGraph(replayGraph(g))
		for c := range g.Commands {
			w, err := analyzeCommand(g, p.CommandID(c))
			if err != nil {
				continue // refused: not replayed
			}
			if races := texelRaces(g, &w); len(races) > 0 {
				t.Errorf("%s: %s: %d racing texels, e.g. %s", names[i], w.name, len(races), races[0])
			}
		}
	}
}

// TestOwnPixelReads replays a command that samples a whole 3-mip image
// and blends into all of it (GENERAL, one pass per mip): own-pixel reads
// with loaded attachments, on any device. Zero messages, digests equal,
// and the work reads every mip at its own pixels.
func TestOwnPixelReads(t *testing.T) {
	g := &p.Graph{}
	im := g.AddImage("chain", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 32, Height: 32, Depth: 1, MipLevels: 3, ArrayLayers: 2, Samples: 1,
		Tiling: vk.TilingOptimal, Usage: vk.ImageUsageSampled | vk.ImageUsageColorAttachment})
	out := g.AddImage("out", p.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 32, Height: 32, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
		Tiling: vk.TilingOptimal, Usage: vk.ImageUsageColorAttachment, InitialLayout: vk.LayoutUndefined})
	g.Resources[out].Imported = true
	g.AddCommand("fill", p.Access{Resource: im, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutGeneral})
	g.AddCommand("feedback",
		p.Access{Resource: im, Stages: vk.StageFragmentShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutGeneral},
		p.Access{Resource: im, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentRead | vk.AccessColorAttachmentWrite, Layout: vk.LayoutGeneral})
	g.AddCommand("resolve",
		p.Access{Resource: im, Stages: vk.StageFragmentShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal},
		p.Access{Resource: out, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal})
	w, err := analyzeCommand(g, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.ownSubs) != 6 || len(w.passes) != 6 {
		t.Fatalf("feedback: %d own-pixel subresources in %d passes, want 6 in 6", len(w.ownSubs), len(w.passes))
	}
	if races := texelRaces(g, &w); len(races) > 0 {
		t.Fatalf("feedback races: %s", races[0])
	}
	rep := compare(t, sharedDevice(t), g, 1)
	if !rep.DigestsEqual {
		t.Errorf("digests differ")
	}
}

// TestSelfRaceVertexFragment: one buffer read and written by the vertex
// and the fragment stage of one draw (vertex v touches word v, fragment p
// word p, unordered) is refused naming both.
func TestSelfRaceVertexFragment(t *testing.T) {
	g := &p.Graph{}
	b := g.AddBuffer("out", p.BufferDesc{Size: 1024, Usage: vk.BufferUsageStorageBuffer})
	g.AddCommand("draw", p.Access{Resource: b, Stages: vk.StageFragmentShader | vk.StageVertexShader, Access: vk.AccessShaderStorageRead | vk.AccessShaderStorageWrite})
	_, err := analyzeCommand(g, 0)
	var ue *UnsupportedError
	if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "(vertex)") || !strings.Contains(ue.Reason, "(fragment)") {
		t.Fatalf("got %v, want a refusal naming the vertex and fragment draws", err)
	}
}
