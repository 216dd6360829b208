package replay

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
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
			diff := clobberDiff(t, r, g, plan)
			t.Logf("y over x: %d differences: %v", len(diff), diff)
			if !diffHas(diff, "trace") {
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
		{"scratch-and-input", "a build's scratch buffer used with SHADER_READ too in the same command", func() *p.Graph {
			// A graph buffer as scratch replays (asscratch.go); as scratch
			// and vertices of one command it cannot.
			g := &p.Graph{}
			x, t := asInputBuffer(g, "x", 4096), asBuffer(g, "tlas")
			g.AddCommand("x.write", computeWrite(x))
			g.AddCommand("build", asBuild(t), asInputRead(x, vk.AccessAccelerationStructureRead|vk.AccessAccelerationStructureWrite|vk.AccessShaderRead))
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

// TestASInputWordsAsVertices models, on the CPU, why build inputs are read
// as R16G16B16A16_SNORM: random words (the writers' hashes) as SNORM
// vertices make triangles the trace's rays (the 16x16 cell centres of the
// unit square, straight down from z = 2, t in (0.001, 4)) hit, at
// distances the digest (1/4096 steps) tells apart; as R32G32B32_SFLOAT
// most hits lie within 1/4096 of z = 0 (words of tiny exponent). It logs
// both and fails if SNORM words stop being hit or bunch up at one depth.
func TestASInputWordsAsVertices(t *testing.T) {
	type v3 [3]float64
	hitZ := func(x, y float64, a, b, c v3) (float64, bool) {
		for _, v := range []v3{a, b, c} {
			for _, f := range v {
				if math.IsNaN(f) || math.IsInf(f, 0) {
					return 0, false
				}
			}
		}
		d := (b[1]-c[1])*(a[0]-c[0]) + (c[0]-b[0])*(a[1]-c[1])
		if d == 0 || math.IsNaN(d) || math.IsInf(d, 0) {
			return 0, false
		}
		l1 := ((b[1]-c[1])*(x-c[0]) + (c[0]-b[0])*(y-c[1])) / d
		l2 := ((c[1]-a[1])*(x-c[0]) + (a[0]-c[0])*(y-c[1])) / d
		l3 := 1 - l1 - l2
		if l1 < 0 || l2 < 0 || l3 < 0 {
			return 0, false
		}
		z := l1*a[2] + l2*b[2] + l3*c[2]
		return z, 2-z > 0.001 && 2-z < 4
	}
	model := func(snorm bool, n int) (hitFrac, flatFrac float64) {
		rng := rand.New(rand.NewPCG(1, 2))
		rays, hits, flat := 0, 0, 0
		for trial := 0; trial < 20; trial++ {
			tris := make([][3]v3, n)
			for i := range tris {
				for v := 0; v < 3; v++ {
					for k := 0; k < 3; k++ {
						w := rng.Uint32()
						if snorm {
							tris[i][v][k] = math.Max(-1, float64(int16(w))/32767)
						} else {
							tris[i][v][k] = float64(math.Float32frombits(w))
						}
					}
				}
			}
			for cell := 0; cell < 256; cell++ {
				x, y := (float64(cell&15)+0.5)/16, (float64(cell>>4)+0.5)/16
				rays++
				best, hit := math.Inf(-1), false
				for _, tri := range tris {
					if z, ok := hitZ(x, y, tri[0], tri[1], tri[2]); ok && z > best {
						best, hit = z, true // the closest: the highest z
					}
				}
				if hit {
					hits++
					if math.Abs(best) < 1.0/4096 {
						flat++
					}
				}
			}
		}
		return float64(hits) / float64(rays), float64(flat) / float64(max(hits, 1))
	}
	for _, n := range []int{16, 256} {
		sh, sf := model(true, n)
		fh, ff := model(false, n)
		t.Logf("%d triangles: SNORM %.0f%% of rays hit, %.1f%% of hits within 1/4096 of z=0; float %.0f%% hit, %.1f%% within 1/4096 of z=0", n, 100*sh, 100*sf, 100*fh, 100*ff)
		if sh < 0.4 || sf > 0.02 {
			t.Errorf("%d SNORM triangles: %.2f of rays hit, %.3f of hits at z=0; want at least 0.4 and at most 0.02", n, sh, sf)
		}
	}
}
