package aliasplan_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/proptest"
	"github.com/aliasplan/aliasplan/verify"
	"github.com/aliasplan/aliasplan/vk"
)

// checkFrame verifies a frame's plan against a graph compiled afresh (not
// the anchor's analysis Frames reuses) and checks the held memory: every
// plan pool in an allocation of its type and class that holds it, no
// allocation used twice, none used that is being freed.
func checkFrame(t *testing.T, g *aliasplan.Graph, fp *aliasplan.FramePlan) {
	t.Helper()
	c, err := planner.Compile(&g.Graph)
	if err != nil {
		t.Fatal(err)
	}
	if err := verify.Plan(c, fp.Plan); err != nil {
		t.Fatalf("frame %d (%s): %v", fp.Frame, fp.Path, err)
	}
	used := map[int]bool{}
	for i, pool := range fp.Pools {
		k := fp.PoolOf[i]
		h := fp.Held[k]
		if used[k] || h.State == aliasplan.PoolFree || h.MemoryTypeIndex != pool.MemoryTypeIndex || h.Class != pool.Class || h.Size < pool.Size {
			t.Fatalf("frame %d: pool %d (%d bytes, type %d, %s) in allocation %+v (used before: %v)", fp.Frame, i, pool.Size, pool.MemoryTypeIndex, pool.Class, h, used[k])
		}
		used[k] = true
	}
}

func count(fp *aliasplan.FramePlan, s aliasplan.PoolState) int {
	n := 0
	for _, h := range fp.Held {
		if h.State == s {
			n++
		}
	}
	return n
}

// TestFramesDynamicResolution: after a full-size frame, frames at 70-100%
// keep its layout (resized), allocate nothing and free nothing; an
// identical frame is the same plan; a larger one is planned afresh into a
// larger allocation that replaces the smaller.
func TestFramesDynamicResolution(t *testing.T) {
	f := aliasplan.NewFrames(aliasplan.Options{}, aliasplan.FrameOptions{InFlight: 1})
	g := aliasplan.SampleFrame(1920, 1080)
	first, err := f.Plan(g)
	if err != nil {
		t.Fatal(err)
	}
	checkFrame(t, g, first)
	if first.Path != "planned" || count(first, aliasplan.PoolNew) != len(first.Pools) {
		t.Fatalf("first frame: path %s, %d new allocations for %d pools", first.Path, count(first, aliasplan.PoolNew), len(first.Pools))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 40; i++ {
		s := 0.7 + 0.3*rng.Float64()
		w, h := uint32(1920*s), uint32(1080*s)
		g := aliasplan.SampleFrame(w, h)
		fp, err := f.Plan(g)
		if err != nil {
			t.Fatalf("%dx%d: %v", w, h, err)
		}
		checkFrame(t, g, fp)
		if fp.Path != "resized" || count(fp, aliasplan.PoolNew)+count(fp, aliasplan.PoolFree) != 0 {
			t.Fatalf("%dx%d: path %s, %d new and %d freed allocations; want resized, none", w, h, fp.Path, count(fp, aliasplan.PoolNew), count(fp, aliasplan.PoolFree))
		}
		if fp.Stats.TransientBytes > first.Stats.TransientBytes {
			t.Errorf("%dx%d: transient bytes %d above the full frame's %d", w, h, fp.Stats.TransientBytes, first.Stats.TransientBytes)
		}
		again, err := f.Plan(aliasplan.SampleFrame(w, h))
		if err != nil || again.Plan != fp.Plan || again.Path != "same" {
			t.Fatalf("%dx%d again: %v, path %s, same plan %v", w, h, err, again.Path, again.Plan == fp.Plan)
		}
	}
	big := aliasplan.SampleFrame(2560, 1440)
	fp, err := f.Plan(big)
	if err != nil {
		t.Fatal(err)
	}
	checkFrame(t, big, fp)
	if fp.Path != "planned" || count(fp, aliasplan.PoolNew) == 0 || count(fp, aliasplan.PoolFree) != count(fp, aliasplan.PoolNew) {
		t.Fatalf("1440p after 1080p: path %s, %d new, %d freed; want planned, each new replacing one", fp.Path, count(fp, aliasplan.PoolNew), count(fp, aliasplan.PoolFree))
	}
	// Back to 1080p: it fits the 1440p anchor.
	fp, err = f.Plan(aliasplan.SampleFrame(1920, 1080))
	if err != nil || fp.Path != "resized" || count(fp, aliasplan.PoolNew) != 0 {
		t.Fatalf("1080p after 1440p: %v, path %s, %d new", err, fp.Path, count(fp, aliasplan.PoolNew))
	}
}

// TestFramesReleaseIdle: an allocation no frame uses for KeepFrames frames
// is freed, once; caller-held allocations are used first.
func TestFramesReleaseIdle(t *testing.T) {
	g := aliasplan.SampleFrame(640, 360)
	probe, err := aliasplan.New(aliasplan.Options{}).Plan(g)
	if err != nil {
		t.Fatal(err)
	}
	var held []aliasplan.HeldPool
	for i, p := range probe.Pools {
		held = append(held, aliasplan.HeldPool{ID: 100 + i, MemoryTypeIndex: p.MemoryTypeIndex, Class: p.Class, Size: p.Size * 2})
	}
	// One more that no frame will use.
	held = append(held, aliasplan.HeldPool{ID: 7, MemoryTypeIndex: 1, Class: planner.ClassLinear, Size: 1 << 30})
	f := aliasplan.NewFrames(aliasplan.Options{}, aliasplan.FrameOptions{KeepFrames: 3, Held: held})
	freed := 0
	for i := 0; i < 6; i++ {
		fp, err := f.Plan(g)
		if err != nil {
			t.Fatal(err)
		}
		checkFrame(t, g, fp)
		if n := count(fp, aliasplan.PoolNew); n != 0 {
			t.Fatalf("frame %d: %d new allocations beside the caller's", fp.Frame, n)
		}
		for _, h := range fp.Held {
			if h.State == aliasplan.PoolFree {
				if h.ID == 7 && fp.Frame != 3 {
					t.Errorf("the idle allocation freed at frame %d; want 3", fp.Frame)
				}
				freed++
			}
		}
	}
	// The small linear pool takes the 1 GiB allocation only if it is the
	// smallest that holds it; the caller's own pools are smaller.
	if freed != 1 {
		t.Errorf("%d allocations freed; want the idle one, once", freed)
	}
}

// TestFramesRandomShrink: random graphs, then the same graphs with every
// buffer shrunk at random: each resized plan verifies against its own
// graph, compiled afresh.
func TestFramesRandomShrink(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		base := proptest.RandomGraph(seed, 60)
		f := aliasplan.NewFrames(aliasplan.Options{}, aliasplan.FrameOptions{})
		if _, err := f.Plan(&aliasplan.Graph{Graph: *base}); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		rng := rand.New(rand.NewPCG(seed, 9))
		resized := 0
		for k := 0; k < 5; k++ {
			g := &aliasplan.Graph{Graph: *base}
			g.Resources = append([]planner.Resource(nil), base.Resources...)
			for r := range g.Resources {
				res := &g.Resources[r]
				if q := res.Requirements; q != nil && res.Kind == planner.KindBuffer && rng.IntN(2) == 0 {
					// Shrink by whole alignments, as a device would.
					n := q.Size / q.Alignment
					nq := *q
					nq.Size = q.Alignment * (1 + uint64(rng.Int64N(int64(n))))
					res.Requirements = &nq
					res.Buffer.Size = min(res.Buffer.Size, nq.Size)
				}
			}
			fp, err := f.Plan(g)
			if err != nil {
				t.Fatalf("seed %d shrink %d: %v", seed, k, err)
			}
			checkFrame(t, g, fp)
			if fp.Path == "resized" {
				resized++
			}
		}
		if resized == 0 {
			t.Errorf("seed %d: no shrunk frame kept the layout", seed)
		}
	}
}

// sequenceFrame is the deferred sample frame at w×h, with a screen-space
// reflection pass (trace at half resolution, then resolve) when ssr.
func sequenceFrame(w, h uint32, ssr bool) *aliasplan.Graph {
	g := aliasplan.SampleFrame(w, h)
	if !ssr {
		return g
	}
	depth, _ := g.ResourceByName("depth")
	normal, _ := g.ResourceByName("gbuffer.normal")
	trace := g.AddImage("ssr.trace", aliasplan.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat, Width: w / 2, Height: h / 2,
		Usage: vk.ImageUsageStorage | vk.ImageUsageSampled})
	resolved := g.AddImage("ssr.resolved", aliasplan.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat, Width: w, Height: h,
		Usage: vk.ImageUsageStorage | vk.ImageUsageSampled})
	g.AddCommand("ssr.trace", g.Sampled(depth, vk.StageComputeShader), g.Sampled(normal, vk.StageComputeShader),
		g.WriteImage(trace, vk.StageComputeShader))
	g.AddCommand("ssr.resolve", g.Sampled(trace, vk.StageComputeShader), g.WriteImage(resolved, vk.StageComputeShader))
	g.AddCommand("ssr.debug", g.ReadImage(resolved, vk.StageComputeShader))
	return g
}

// frameSequence is 1,000 frames: dynamic resolution between 70% and 100%
// of the window every frame, SSR on for two seconds and off for two (120
// frames each), and one window resize from 1920×1080 to 2560×1440 half way.
func frameSequence() []*aliasplan.Graph {
	rng := rand.New(rand.NewPCG(2026, 12))
	gs := make([]*aliasplan.Graph, 1000)
	for i := range gs {
		w, h := 1920.0, 1080.0
		if i >= 500 {
			w, h = 2560, 1440
		}
		s := 0.7 + 0.3*rng.Float64()
		gs[i] = sequenceFrame(uint32(w*s), uint32(h*s), i/120%2 == 0)
	}
	return gs
}

// BenchmarkFrameSequence plans frameSequence through one Frames and
// reports the allocations plus frees of held pools over the 1,000 frames
// (allocs+frees), the bytes held at the end over the largest pooled size
// of any one frame planned alone (held/max), and the planning time per
// frame (µs/frame).
func BenchmarkFrameSequence(b *testing.B) {
	gs := frameSequence()
	var largest uint64
	for _, g := range gs {
		p, err := aliasplan.New(aliasplan.Options{Reuse: aliasplan.NoReuse}).Plan(g)
		if err != nil {
			b.Fatal(err)
		}
		largest = max(largest, p.Stats.PooledBytes)
	}
	b.ReportAllocs()
	var changes int
	var held uint64
	paths := map[string]int{}
	cpu0 := cpuTime()
	for b.Loop() {
		f := aliasplan.NewFrames(aliasplan.Options{}, aliasplan.FrameOptions{})
		changes, held = 0, 0
		clear(paths)
		for _, g := range gs {
			fp, err := f.Plan(g)
			if err != nil {
				b.Fatal(err)
			}
			changes += count(fp, aliasplan.PoolNew) + count(fp, aliasplan.PoolFree)
			paths[fp.Path]++
		}
		for _, h := range f.Held() {
			held += h.Size
		}
	}
	b.ReportMetric(float64(changes), "allocs+frees")
	b.ReportMetric(float64(held)/float64(largest), "held/max")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(gs)), "µs/frame")
	reportCPU(b, cpu0, b.N*len(gs))
	b.ReportMetric(float64(paths["planned"]), "planned")
}

// reportCPU reports the CPU time (user plus system, every thread) since
// cpu0 per frame over frames frames: cpu-µs/frame, the figure to quote on
// a loaded machine (wall time there counts other processes' turns).
// (cpuTime: queues_bench_test.go.)
func reportCPU(b *testing.B, cpu0 time.Duration, frames int) {
	cpu1 := cpuTime()
	if cpu0 == 0 || frames == 0 {
		return
	}
	b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/1e3/float64(frames), "cpu-µs/frame")
}

// BenchmarkFrameResize is dynamic resolution below the held maximum: after
// a 1920×1080 frame, frames alternating between 90% and 80% of it, each a
// size-only change that keeps the full frame's layout.
func BenchmarkFrameResize(b *testing.B) {
	f := aliasplan.NewFrames(aliasplan.Options{}, aliasplan.FrameOptions{})
	if _, err := f.Plan(aliasplan.SampleFrame(1920, 1080)); err != nil {
		b.Fatal(err)
	}
	gs := []*aliasplan.Graph{aliasplan.SampleFrame(1728, 972), aliasplan.SampleFrame(1536, 864)}
	b.ReportAllocs()
	i, allocs := 0, 0
	cpu0 := cpuTime()
	for b.Loop() {
		fp, err := f.Plan(gs[i%2])
		if err != nil || fp.Path != "resized" {
			b.Fatal(err, fp.Path)
		}
		allocs += count(fp, aliasplan.PoolNew)
		i++
	}
	reportCPU(b, cpu0, b.N)
	// Device allocations after the first frame (target 0).
	b.ReportMetric(float64(allocs), "device-allocs")
}

// TestFramesAsync: frames with commands on the compute queue keep their
// submissions through resized and identical frames, and each verifies
// (queues included) against a graph compiled afresh.
func TestFramesAsync(t *testing.T) {
	f := aliasplan.NewFrames(aliasplan.Options{}, aliasplan.FrameOptions{})
	paths := map[string]bool{}
	for _, pct := range []uint32{100, 80, 90, 90, 100} {
		g := aliasplan.AsyncSampleFrame(640*pct/100, 360*pct/100)
		fp, err := f.Plan(g)
		if err != nil {
			t.Fatal(err)
		}
		paths[fp.Path] = true
		if len(fp.Submissions) == 0 || fp.Semaphores == 0 {
			t.Fatalf("frame %d (%s, %d%%): %d submissions, %d semaphores; want the async frame's", fp.Frame, fp.Path, pct, len(fp.Submissions), fp.Semaphores)
		}
		checkFrame(t, g, fp)
	}
	if !paths["resized"] || !paths["same"] {
		t.Fatalf("paths %v: want resized and same frames among them", paths)
	}
}
