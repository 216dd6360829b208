package replay

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// splitGraph: "write" writes twelve storage buffers and a 320 KiB
// uniform buffer (more than the eight written-buffer slots), "read"
// reads them all (more than eight storage and four uniform slots) and
// reads, modifies and writes "acc", then "sink.read" reads what read
// wrote.
func splitGraph() *p.Graph {
	g := &p.Graph{}
	var bufs []p.ResourceID
	for i := 0; i < 12; i++ {
		bufs = append(bufs, g.AddBuffer(fmt.Sprintf("b%d", i), p.BufferDesc{Size: uint64(256 * (i + 1)), Usage: vk.BufferUsageStorageBuffer}))
	}
	ub := g.AddBuffer("ub", p.BufferDesc{Size: 5 * 65536, Usage: vk.BufferUsageStorageBuffer | vk.BufferUsageUniformBuffer})
	acc := g.AddBuffer("acc", p.BufferDesc{Size: 1024, Usage: vk.BufferUsageStorageBuffer})
	out := g.AddBuffer("out", p.BufferDesc{Size: 1024, Usage: vk.BufferUsageStorageBuffer})
	cs := vk.StageComputeShader
	var w, r []p.Access
	for _, b := range append(bufs, ub, acc) {
		w = append(w, p.Access{Resource: b, Stages: cs, Access: vk.AccessShaderStorageWrite})
		r = append(r, p.Access{Resource: b, Stages: cs, Access: vk.AccessShaderStorageRead})
	}
	r[len(r)-2].Access = vk.AccessUniformRead
	r[len(r)-1].Access |= vk.AccessShaderStorageWrite
	g.AddCommand("write", w...)
	g.AddCommand("read", append(r, p.Access{Resource: out, Stages: cs, Access: vk.AccessShaderStorageWrite})...)
	g.AddCommand("sink.read", p.Access{Resource: out, Stages: cs, Access: vk.AccessShaderStorageRead},
		p.Access{Resource: acc, Stages: cs, Access: vk.AccessShaderStorageRead})
	return g
}

// TestSplitCompute: commands with more compute slots than replay.comp
// declares replay as several dispatches, with no message and equal
// digests; a read-modify-write stays in one part; and removing the
// barrier before a buffer read by an extra dispatch raises a hazard (the
// extra dispatch really reads it). Without the split the frame is refused
// ("needs more than 8 storage buffer slots").
func TestSplitCompute(t *testing.T) {
	g := splitGraph()
	for c, want := range []int{2, 2} { // write: 14 writes; read: 12 storage reads, 5 uniform ranges, 2 writes
		w, err := analyzeCommand(g, p.CommandID(c))
		if err != nil {
			t.Fatal(err)
		}
		if n := 1 + len(w.more); n != want {
			t.Errorf("%s: %d compute parts, want %d", w.name, n, want)
		}
		for _, pt := range w.allParts() {
			if pt == nil {
				continue
			}
			var rw [2]bool
			for _, s := range pt.slots {
				if g.Resources[s.res].Name == "acc" {
					rw[s.flags&fWrite/fWrite] = true
				}
				if s.index >= s.cat.size(stCompute) {
					t.Errorf("%s: slot %d of %s beyond the array", w.name, s.index, cats[s.cat].name)
				}
			}
			if c == 1 && rw[0] != rw[1] {
				t.Errorf("acc's read and write are in different parts")
			}
		}
	}
	d := sharedDevice(t)
	compare(t, d, g, 2)

	r, plan := prepare(t, d, g)
	read := p.CommandID(1)
	var extra p.ResourceID = -1
	for _, s := range r.works[read].more[len(r.works[read].more)-1].slots {
		if s.cat == catSB && strings.HasPrefix(g.Resources[s.res].Name, "b") {
			extra = s.res
		}
	}
	k := slices.IndexFunc(plan.Barriers, func(b p.Barrier) bool { return b.Before == read && b.Resource == extra })
	if extra < 0 || k < 0 {
		t.Fatalf("no storage read in the last extra part (%v) or no barrier before it", extra)
	}
	broken := *plan
	broken.Barriers = slices.Delete(slices.Clone(plan.Barriers), k, k+1)
	_, msgs, err := r.RunPlan(&broken, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	hazards := 0
	for _, m := range msgs {
		if strings.HasPrefix(m.ID, "SYNC-HAZARD-") {
			hazards++
		}
	}
	t.Logf("barrier on %s (read by an extra dispatch) removed: %d hazards", g.Resources[extra].Name, hazards)
	if hazards == 0 {
		t.Errorf("removing the barrier before the extra dispatch's read of %s raised no hazard", g.Resources[extra].Name)
	}
}
