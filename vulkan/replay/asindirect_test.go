package replay

import (
	"encoding/binary"
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
	"github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan"
)

const rangeUsage = vk.BufferUsageStorageBuffer | vk.BufferUsageIndirectBuffer | vk.BufferUsageShaderDeviceAddress

// rangeRead is an indirect build's read of its range in r.
func rangeRead(r p.ResourceID) p.Access {
	return p.Access{Resource: r, Stages: vk.StageAccelerationStructureBuild, Access: vk.AccessIndirectCommandRead}
}

// asIndirectFrame: range and range2 written by compute shaders; build.b
// and build.b2 build blas and blas2 indirectly from them; build.t a top
// level over both; trace traces it. Resources: range 0, range2 1, blas 2,
// blas2 3, tlas 4; commands: range.write 0, range2.write 1, build.b 2,
// build.b2 3, build.t 4, trace 5.
func asIndirectFrame() *p.Graph {
	g := &p.Graph{}
	r1 := g.AddBuffer("range", p.BufferDesc{Size: 256, Usage: rangeUsage})
	r2 := g.AddBuffer("range2", p.BufferDesc{Size: 256, Usage: rangeUsage})
	b1, b2, t := asBuffer(g, "blas"), asBuffer(g, "blas2"), asBuffer(g, "tlas")
	g.AddCommand("range.write", computeWrite(r1))
	g.AddCommand("range2.write", computeWrite(r2))
	g.AddCommand("build.b", asBuild(b1), rangeRead(r1))
	g.AddCommand("build.b2", asBuild(b2), rangeRead(r2))
	g.AddCommand("build.t", asBuild(t),
		p.Access{Resource: b1, Stages: vk.StageAccelerationStructureBuild, Access: vk.AccessAccelerationStructureRead},
		p.Access{Resource: b2, Stages: vk.StageAccelerationStructureBuild, Access: vk.AccessAccelerationStructureRead})
	g.AddCommand("trace", asTrace(t))
	return g
}

// TestASIndirectRules: what the replay refuses by rule of an indirect
// build, on any device (before the device is asked), and the writer
// marks rangeRules gives.
func TestASIndirectRules(t *testing.T) {
	d := sharedDevice(t)
	for _, c := range []struct {
		name, cmd, want string
		mod             func(g *p.Graph)
	}{
		{"no-indirect-usage", "build.b", "INDIRECT_BUFFER and SHADER_DEVICE_ADDRESS usage", func(g *p.Graph) {
			g.Resources[0].Buffer.Usage &^= vk.BufferUsageIndirectBuffer
		}},
		{"too-small", "build.b", "16 bytes; the buffer has 8", func(g *p.Graph) { g.Resources[0].Buffer.Size = 8 }},
		{"no-build", "build.b", "builds no acceleration structure", func(g *p.Graph) {
			g.Commands[2].Accesses = g.Commands[2].Accesses[1:]
			g.Commands[4].Accesses = g.Commands[4].Accesses[:1]
			g.Commands[4].Accesses = append(g.Commands[4].Accesses, g.Commands[4].Accesses[0])
			g.Commands[4].Accesses[1] = p.Access{Resource: 3, Stages: vk.StageAccelerationStructureBuild, Access: vk.AccessAccelerationStructureRead}
		}},
		{"imported", "build.b", "an imported build range buffer", func(g *p.Graph) { g.Resources[0].Imported = true }},
		{"filled", "range.fill", "the replay writes valid VkAccelerationStructureBuildRangeInfoKHRs from shader storage writes only", func(g *p.Graph) {
			g.Resources[0].Buffer.Usage |= vk.BufferUsageTransferDst
			g.Commands[0] = p.Command{Name: "range.fill", Accesses: []p.Access{{Resource: 0, Stages: vk.StageClear, Access: vk.AccessTransferWrite}}}
		}},
		{"graph-vertices", "build.b", "an indirect build over graph vertex buffers: not built", func(g *p.Graph) {
			v := g.AddBuffer("verts", p.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer | vk.BufferUsageShaderDeviceAddress | vk.BufferUsageAccelerationStructureBuildInputReadOnly})
			g.Commands[0].Accesses = append(g.Commands[0].Accesses, computeWrite(v))
			g.Commands[2].Accesses = append(g.Commands[2].Accesses, p.Access{Resource: v, Stages: vk.StageAccelerationStructureBuild, Access: vk.AccessShaderRead})
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := asIndirectFrame()
			c.mod(g)
			_, err := New(d, g)
			var ue *UnsupportedError
			if !errors.As(err, &ue) || ue.Command != c.cmd || !strings.Contains(ue.Reason, c.want) {
				t.Fatalf("got %v, want %s refused with %q", err, c.cmd, c.want)
			}
			t.Logf("%v", err)
		})
	}
	// The writers of range and range2 write ranges (fASRange); nothing
	// else is marked.
	g := asIndirectFrame()
	ws := make([]work, len(g.Commands))
	for c := range g.Commands {
		w, err := analyzeCommand(g, p.CommandID(c))
		if err != nil {
			t.Fatal(err)
		}
		ws[c] = w
	}
	if err := rangeRules(g, ws); err != nil {
		t.Fatal(err)
	}
	for c := 0; c < 2; c++ {
		s := ws[c].parts[stCompute].slots
		if len(s) != 1 || s[0].flags&fASRange == 0 || s[0].flags&fIndirect == 0 {
			t.Errorf("%s: slots %+v, want one write with fASRange (and fIndirect)", g.Commands[c].Name, s)
		}
	}
}

// TestASIndirectRangeWrites: a compute write marked fASRange (as
// rangeRules marks a range buffer's writers) leaves a valid build range
// in words 0..3, primitiveCount 1..16 and zero offsets, and hashes after
// them; unmarked, the same writer leaves an indirect draw's arguments
// (12288+3k, 1, 0, 0). On any device: the buffer is host-visible and read
// back after the run.
func TestASIndirectRangeWrites(t *testing.T) {
	d := sharedDevice(t)
	g := &p.Graph{}
	r := g.AddResource(p.Resource{Name: "range", Kind: p.KindBuffer, Memory: p.GPUToCPU, Buffer: p.BufferDesc{Size: 256, Usage: rangeUsage}})
	g.AddCommand("range.write", computeWrite(r))
	g.AddCommand("host.read", p.Access{Resource: r, Stages: vk.StageHost, Access: vk.AccessHostRead})
	for _, marked := range []bool{false, true} {
		rep, plan := prepare(t, d, g)
		if marked {
			rep.works[0].parts[stCompute].slots[0].flags |= fASRange
			rep.writeParams(rep.stride)
		}
		rep.hostBytes = map[p.ResourceID][]byte{}
		if _, msgs, err := rep.RunPlan(plan, 1, false); err != nil || len(msgs) != 0 {
			t.Fatalf("run: %v, messages %v", err, msgs)
		}
		b := rep.hostBytes[r]
		if len(b) < 32 {
			t.Fatalf("no bytes of range kept: %d", len(b))
		}
		words := make([]uint32, 8)
		for i := range words {
			words[i] = binary.LittleEndian.Uint32(b[4*i:])
		}
		t.Logf("marked %v: words %v", marked, words)
		if !marked {
			if words[0] < 12288 || words[0] > 12288+3*31 || words[1] != 1 {
				t.Errorf("unmarked: words %v, want indirect draw arguments (12288+3k, 1, 0, 0)", words)
			}
			continue
		}
		if words[0] < 1 || words[0] > rtTriangles || !slices.Equal(words[1:4], []uint32{0, 0, 0}) {
			t.Errorf("marked: words %v, want a range (1..%d, 0, 0, 0)", words[:4], rtTriangles)
		}
		if words[4] == 0 && words[5] == 0 {
			t.Errorf("marked: words 4 and 5 are zero: the writer stopped at the range")
		}
	}
}

// TestASIndirectRefusedAsDeviceLimit: where the device lacks
// acceleration structures (lavapipe 22.3.6) or
// accelerationStructureIndirectBuild (lavapipe 25.0.7; NVIDIA's drivers
// do not report it), the indirect frame is refused naming what is
// missing, as queried, not as unbuilt work. A device with the feature
// skips (TestASIndirectBuild runs there).
func TestASIndirectRefusedAsDeviceLimit(t *testing.T) {
	d := extDevice(t, vk.StageAccelerationStructureBuild|vk.StageAccelerationStructureCopy|vk.StageRayTracingShader)
	hooks, _ := d.Replay()
	has, enabled := hooks.ASIndirect()
	t.Logf("%s: accelerationStructureIndirectBuild %v (queried), enabled %v", d.Info().Name, has, enabled)
	if has {
		t.Skipf("%s has accelerationStructureIndirectBuild: nothing to refuse (TestASIndirectBuild replays the frame)", d.Info().Name)
	}
	_, err := New(d, asIndirectFrame())
	var ue *UnsupportedError
	if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "queried)") || strings.Contains(ue.Reason, "not built") ||
		!strings.Contains(ue.Reason, "accelerationStructureIndirectBuild") && !strings.Contains(ue.Reason, "VK_KHR_acceleration_structure") {
		t.Fatalf("got %v, want a refusal naming VK_KHR_acceleration_structure or accelerationStructureIndirectBuild as queried", err)
	}
	t.Logf("%v", err)
}

// asIndirectDevice opens a device with acceleration structures (rayDevice)
// and, where it lacks accelerationStructureIndirectBuild (lavapipe
// 25.0.7, NVIDIA's drivers), checks the indirect frame is refused naming
// it, as queried, and skips (a device limit).
func asIndirectDevice(t *testing.T) *vulkan.Device {
	t.Helper()
	d := rayDevice(t)
	hooks, _ := d.Replay()
	has, enabled := hooks.ASIndirect()
	t.Logf("%s: accelerationStructureIndirectBuild %v (queried), enabled %v", d.Info().Name, has, enabled)
	if !has {
		_, err := New(d, asIndirectFrame())
		var ue *UnsupportedError
		if !errors.As(err, &ue) || ue.Command != "build.b" || !strings.Contains(ue.Reason, "lacks accelerationStructureIndirectBuild") || !strings.Contains(ue.Reason, "queried") {
			t.Fatalf("a device without accelerationStructureIndirectBuild: got %v, want build.b refused naming the feature as queried", err)
		}
		// Not extSkip: ALIASPLAN_REQUIRE_EXT=1 (the H200 scripts) would
		// fail it, and NVIDIA's drivers lack the feature.
		t.Skipf("SKIP (device limit, not a pass): %s: %v", d.Info().Name, err)
	}
	return d
}

// TestASIndirectBuild: build.b and build.b2 are
// vkCmdBuildAccelerationStructuresIndirectKHR builds whose ranges are
// range's and range2's first words (written as ranges by the compute
// writers): intact, equal digests and no message, and trace has a
// digest; with range2 placed over range (both valid ranges, another
// count: a clobber that stays defined), build.b builds another number of
// triangles and trace's digest differs. It fails when the builds do not
// read the graph buffers (a fixed count) or their triangles do not reach
// the trace. Runs only where the device has accelerationStructureIndirectBuild
// (none measured here has: lavapipe 25.0.7 and NVIDIA drivers lack it).
func TestASIndirectBuild(t *testing.T) {
	d := asIndirectDevice(t)
	g := asIndirectFrame()
	rep := extCompare(t, d, g, 2)
	if !slices.ContainsFunc(rep.Digests, func(dg CommandDigest) bool { return dg.Command == "trace" && dg.Digest != 0 }) {
		t.Errorf("no digest for trace: %+v", rep.Digests)
	}
	t.Logf("intact: digests equal %v, %d messages, %d alias barriers", rep.DigestsEqual, rep.ValidationMessages, rep.AliasBarriers)
	r, plan := prepare(t, d, g)
	good, msgs, err := r.RunPlan(plan, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	if rest, _ := SplitQuirks(msgs); len(rest) != 0 {
		t.Fatalf("the intact plan has messages: %v", rest)
	}
	bad, _, err := r.RunPlan(clobber(t, g, plan, "range", "range2"), 1, false)
	if err != nil {
		t.Fatal(err)
	}
	diff := r.Diff(good, bad)
	t.Logf("range2 over range: %d differences: %v", len(diff), diff)
	if !diffHas(diff, "trace") {
		t.Fatalf("trace's digest did not change with build.b's range replaced by range2's (another count)")
	}
}

// TestASIndirectGeneratedFrames replays proptest.IndirectBuildReplayFrame
// for seeds 1..10 (ALIASPLAN_ASI_FRAMES overrides the count) both ways
// where the device has accelerationStructureIndirectBuild: no message,
// digests equal, every trace has a digest. Elsewhere each frame must be
// refused naming what the device lacks (VK_KHR_acceleration_structure or
// the feature), queried: the analysis and the refusal need no GPU work.
func TestASIndirectGeneratedFrames(t *testing.T) {
	n := 10
	if s := os.Getenv("ALIASPLAN_ASI_FRAMES"); s != "" {
		if v, err := strconv.Atoi(s); err == nil {
			n = v
		}
	}
	d := extDevice(t, vk.StageAccelerationStructureBuild|vk.StageAccelerationStructureCopy|vk.StageRayTracingShader)
	hooks, _ := d.Replay()
	has, _ := hooks.ASIndirect()
	_, rq, _ := hooks.RayQueries()
	stage := vk.StageComputeShader
	if !rq {
		stage = vk.StageRayTracingShader
	}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			g, kinds := proptest.IndirectBuildReplayFrame(seed, stage)
			if !has {
				_, err := New(d, g)
				var ue *UnsupportedError
				if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "queried)") || strings.Contains(ue.Reason, "not built") {
					t.Fatalf("kinds %v: got %v, want a refusal naming the device limit as queried", kinds, err)
				}
				return
			}
			rep := extCompare(t, d, g, 1)
			for _, c := range g.Commands {
				if strings.HasSuffix(c.Name, ".trace") && !slices.ContainsFunc(rep.Digests, func(dg CommandDigest) bool { return dg.Command == c.Name && dg.Digest != 0 }) {
					t.Errorf("no digest for %s", c.Name)
				}
			}
			t.Logf("kinds %v, %d alias barriers, %d of %d transient bytes pooled", kinds, rep.AliasBarriers, rep.PooledBytes, rep.TransientBytes)
		})
	}
	if !has {
		t.Logf("%s: %d frames refused as a device limit", d.Info().Name, n)
	}
}
