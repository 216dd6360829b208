package replay

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan"
)

const asInputUsage = vk.BufferUsageStorageBuffer | vk.BufferUsageShaderDeviceAddress | vk.BufferUsageAccelerationStructureBuildInputReadOnly

func asInputBuffer(g *p.Graph, name string, size uint64) p.ResourceID {
	return g.AddBuffer(name, p.BufferDesc{Size: size, Usage: asInputUsage})
}

func asInputRead(r p.ResourceID, acc vk.AccessFlags) p.Access {
	return p.Access{Resource: r, Stages: vk.StageAccelerationStructureBuild, Access: acc}
}

func computeWrite(r p.ResourceID) p.Access {
	return p.Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite}
}

// asInputCases are frames whose builds read compute-written graph buffers.
var asInputCases = []struct {
	name  string
	graph func() *p.Graph
}{
	{"tlas-over-input", func() *p.Graph {
		g := &p.Graph{}
		x, t := asInputBuffer(g, "x", 4096), asBuffer(g, "tlas")
		g.AddCommand("x.write", computeWrite(x))
		g.AddCommand("build", asBuild(t), asInputRead(x, vk.AccessShaderRead))
		g.AddCommand("trace", asTrace(t))
		return g
	}},
	{"blas-over-inputs", func() *p.Graph {
		g := &p.Graph{}
		x, y := asInputBuffer(g, "x", 2400), asInputBuffer(g, "y", 6000)
		b, t := asBuffer(g, "blas"), asBuffer(g, "tlas")
		g.AddCommand("xy.write", computeWrite(x), computeWrite(y))
		g.AddCommand("build.b", asBuild(b), asInputRead(x, vk.AccessShaderRead), asInputRead(y, vk.AccessAccelerationStructureRead))
		g.AddCommand("build.t", asBuild(t), asInputRead(b, vk.AccessAccelerationStructureRead))
		g.AddCommand("trace", asTrace(t))
		return g
	}},
	{"own-memory-inputs", func() *p.Graph {
		// A dedicated input and a host-visible one: memory of their own,
		// DEVICE_ADDRESS chained after VkMemoryDedicatedAllocateInfo.
		g := &p.Graph{}
		x, y, t := asInputBuffer(g, "x", 3072), asInputBuffer(g, "y", 3072), asBuffer(g, "tlas")
		g.Resources[x].Dedicated = true
		g.Resources[y].Memory = p.CPUToGPU
		g.AddCommand("xy.write", computeWrite(x), computeWrite(y))
		g.AddCommand("build", asBuild(t), asInputRead(x, vk.AccessShaderRead), asInputRead(y, vk.AccessShaderRead))
		g.AddCommand("trace", asTrace(t))
		return g
	}},
	{"tlas-blas-and-input", func() *p.Graph {
		g := &p.Graph{}
		x := asInputBuffer(g, "x", 4800)
		b, t := asBuffer(g, "blas"), asBuffer(g, "tlas")
		g.AddCommand("build.b", asBuild(b))
		g.AddCommand("x.write", computeWrite(x))
		g.AddCommand("build.t", asBuild(t), asInputRead(b, vk.AccessAccelerationStructureRead), asInputRead(x, vk.AccessShaderRead))
		g.AddCommand("trace", asTrace(t))
		return g
	}},
}

// TestASInputStages: builds over compute-written graph buffers (a top
// level over its own bottom level of the inputs, a bottom level of two
// inputs read with SHADER_READ and ACCELERATION_STRUCTURE_READ, a top
// level over a frame bottom level and an input) replay with no message
// and equal digests, aliased and not, and the trace has a digest.
// Where the device has both ray queries and the ray tracing pipeline
// (lavapipe 25), the frames are traced both ways.
func TestASInputStages(t *testing.T) {
	d := rayDevice(t)
	hooks, _ := d.Replay()
	_, rq, rtp := hooks.RayQueries()
	saved := traceStage
	defer func() { traceStage = saved }()
	for _, st := range []vk.Stage{vk.StageComputeShader, vk.StageRayTracingShader} {
		if st == vk.StageComputeShader && !rq || st == vk.StageRayTracingShader && !rtp {
			continue // rayDevice chose the stage the device has
		}
		traceStage = st
		for _, c := range asInputCases {
			t.Run(c.name+"/"+st.String(), func(t *testing.T) {
				rep := extCompare(t, d, c.graph(), 2)
				if !slices.ContainsFunc(rep.Digests, func(dg CommandDigest) bool { return dg.Command == "trace" && dg.Digest != 0 }) {
					t.Errorf("no digest for the trace command: %+v", rep.Digests)
				}
				t.Logf("%s (traced in %s): digests equal %v, %d messages", c.name, traceStage, rep.DigestsEqual, rep.ValidationMessages)
			})
		}
	}
}

// TestASInputClobber is the build inputs' negative control: y placed
// over x (a placement that breaks interference) overwrites x's words
// after x.write and before the build reads them, so the structure is
// built from y's words, and the trace's digest differs from the intact
// plan's (which has no message). It fails when builds do not read their
// graph inputs, or the inputs' words do not move what the rays hit.
func TestASInputClobber(t *testing.T) {
	d := rayDevice(t)
	for _, top := range []bool{true, false} {
		t.Run(fmt.Sprintf("top=%v", top), func(t *testing.T) {
			g := &p.Graph{}
			x, y := asInputBuffer(g, "x", 6144), g.AddBuffer("y", p.BufferDesc{Size: 6144, Usage: vk.BufferUsageStorageBuffer})
			tl := asBuffer(g, "tlas")
			g.AddCommand("x.write", computeWrite(x))
			g.AddCommand("y.write", computeWrite(y))
			if top {
				g.AddCommand("build", asBuild(tl), asInputRead(x, vk.AccessShaderRead))
			} else {
				b := asBuffer(g, "blas")
				g.AddCommand("build.b", asBuild(b), asInputRead(x, vk.AccessShaderRead))
				g.AddCommand("build", asBuild(tl), asInputRead(b, vk.AccessAccelerationStructureRead))
			}
			g.AddCommand("y.read", p.Access{Resource: y, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
			g.AddCommand("trace", asTrace(tl))
			extCompare(t, d, g, 2)
			r, plan := prepare(t, d, g)
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
			diff := r.Diff(good, bad)
			t.Logf("y over x: %d differences: %v", len(diff), diff)
			if !slices.ContainsFunc(diff, func(s string) bool { return strings.Contains(s, fmt.Sprintf("%q", "trace")) }) {
				t.Errorf("the trace did not change with x's input clobbered by y: %v", diff)
			}
		})
	}
}

// TestASInputRefused: build inputs Vulkan does not allow, or that build
// nothing, are refused naming the rule (analysis, before any device
// work; the shared device suffices for the usage rules).
func TestASInputRefused(t *testing.T) {
	cases := []struct {
		name, want string
		graph      func() *p.Graph
	}{
		{"no-device-address", "SHADER_DEVICE_ADDRESS and ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY", func() *p.Graph {
			g := &p.Graph{}
			x := g.AddBuffer("x", p.BufferDesc{Size: 4096, Usage: vk.BufferUsageStorageBuffer | vk.BufferUsageAccelerationStructureBuildInputReadOnly})
			t := asBuffer(g, "tlas")
			g.AddCommand("x.write", computeWrite(x))
			g.AddCommand("build", asBuild(t), asInputRead(x, vk.AccessShaderRead))
			g.AddCommand("trace", asTrace(t))
			return g
		}},
		{"too-small", "holds no triangle", func() *p.Graph {
			g := &p.Graph{}
			x, t := asInputBuffer(g, "x", 16), asBuffer(g, "tlas")
			g.AddCommand("x.write", computeWrite(x))
			g.AddCommand("build", asBuild(t), asInputRead(x, vk.AccessShaderRead))
			g.AddCommand("trace", asTrace(t))
			return g
		}},
		{"scratch", "build scratch", func() *p.Graph {
			g := &p.Graph{}
			x, t := asInputBuffer(g, "x", 4096), asBuffer(g, "tlas")
			g.AddCommand("build", asBuild(t), asInputRead(x, vk.AccessAccelerationStructureRead|vk.AccessAccelerationStructureWrite))
			g.AddCommand("trace", asTrace(t))
			return g
		}},
	}
	d := sharedDevice(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(d, c.graph())
			var ue *UnsupportedError
			if !errors.As(err, &ue) || !strings.Contains(ue.Reason, c.want) || ue.Resource != "x" {
				t.Fatalf("got %v, want a refusal of x naming %q", err, c.want)
			}
			t.Logf("%v", err)
		})
	}
	t.Run("builds-nothing", func(t *testing.T) {
		g := &p.Graph{}
		x, tl := asInputBuffer(g, "x", 4096), asBuffer(g, "tlas")
		g.AddCommand("x.write", computeWrite(x))
		g.AddCommand("build", asBuild(tl))
		g.AddCommand("read", asInputRead(x, vk.AccessShaderRead))
		g.AddCommand("trace", asTrace(tl))
		_, err := New(rayDevice(t), g)
		var ue *UnsupportedError
		if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "builds no acceleration structure") {
			t.Fatalf("got %v, want a refusal naming the missing build", err)
		}
		t.Logf("%v", err)
	})
}
