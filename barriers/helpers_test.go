package barriers_test

import (
	"fmt"
	"github.com/aliasplan/aliasplan/verify"
	"github.com/aliasplan/aliasplan/vk"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
)

// Short names for the scopes the tests use.
const (
	compute  = vk.StageComputeShader
	fragment = vk.StageFragmentShader
	color    = vk.StageColorAttachmentOutput
	copyS    = vk.StageCopy
	depthS   = vk.StageEarlyFragmentTests | vk.StageLateFragmentTests

	ssr     = vk.AccessShaderStorageRead
	ssw     = vk.AccessShaderStorageWrite
	sampled = vk.AccessShaderSampledRead
	caw     = vk.AccessColorAttachmentWrite
	dsw     = vk.AccessDepthStencilAttachmentWrite
	tw      = vk.AccessTransferWrite
	tr      = vk.AccessTransferRead

	attachment = vk.LayoutColorAttachmentOptimal
	readOnly   = vk.LayoutShaderReadOnlyOptimal
	general    = vk.LayoutGeneral
	depthAtt   = vk.LayoutDepthStencilAttachmentOptimal
)

// frame builds small graphs: transient resources carry explicit
// requirements (alignment 256, memory types 0 and 1).
type frame struct{ g planner.Graph }

func reqs(size uint64) *planner.Requirements {
	return &planner.Requirements{Size: size, Alignment: 256, MemoryTypeBits: 0x3}
}

func (f *frame) buffer(name string, size uint64) planner.ResourceID {
	return f.g.AddResource(planner.Resource{Name: name, Kind: planner.KindBuffer,
		Buffer: planner.BufferDesc{Size: size, Usage: testBufferUsage}, Requirements: reqs(size)})
}

func (f *frame) image(name string, format vk.Format, size uint64) planner.ResourceID {
	return f.g.AddResource(planner.Resource{Name: name, Kind: planner.KindImage, Image: imageDesc(format), Requirements: reqs(size)})
}

func (f *frame) importedBuffer(name string) planner.ResourceID {
	return f.g.AddResource(planner.Resource{Name: name, Kind: planner.KindBuffer, Imported: true,
		Buffer: planner.BufferDesc{Size: 4096, Usage: testBufferUsage}})
}

func (f *frame) importedImage(name string, initial vk.Layout) planner.ResourceID {
	d := imageDesc(vk.FormatB8G8R8A8Unorm)
	d.InitialLayout = initial
	return f.g.AddResource(planner.Resource{Name: name, Kind: planner.KindImage, Imported: true, Image: d})
}

// imageDesc is a 4x4 image (at most 128 texel bytes, below every size the
// tests give it: planner.RuleRequirementsTooSmall) whose usage allows
// every access the tests make (planner.RuleUsage).
func imageDesc(format vk.Format) planner.ImageDesc {
	return planner.ImageDesc{Format: format, Width: 4, Height: 4, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
		Tiling: vk.TilingOptimal, Usage: testImageUsage}
}

const (
	testImageUsage = vk.ImageUsageColorAttachment | vk.ImageUsageDepthStencilAttachment | vk.ImageUsageSampled | vk.ImageUsageStorage |
		vk.ImageUsageTransferSrc | vk.ImageUsageTransferDst | vk.ImageUsageInputAttachment
	testBufferUsage = vk.BufferUsageStorageBuffer | vk.BufferUsageTransferSrc | vk.BufferUsageTransferDst | vk.BufferUsageUniformTexelBuffer |
		vk.BufferUsageUniformBuffer | vk.BufferUsageIndirectBuffer | vk.BufferUsageVertexBuffer | vk.BufferUsageIndexBuffer
)

func (f *frame) cmd(name string, accesses ...planner.Access) planner.CommandID {
	return f.g.AddCommand(name, accesses...)
}

func use(r planner.ResourceID, s vk.Stage, a vk.AccessFlags) planner.Access {
	return planner.Access{Resource: r, Stages: s, Access: a}
}

func useImage(r planner.ResourceID, s vk.Stage, a vk.AccessFlags, l vk.Layout) planner.Access {
	return planner.Access{Resource: r, Stages: s, Access: a, Layout: l}
}

// at is a pooled resource's pool and offset.
type at struct {
	pool   int
	offset uint64
}

// placed compiles f and returns a plan that places the named resources
// where asked (every other transient is dedicated), with pools, Aliased
// and stats filled in so that it passes verify.Placement. It has no
// barriers yet. Each setup function runs on the plan before
// VerifyPlacement (to set an ordering and serializations).
func placed(t testing.TB, f *frame, where map[string]at, setup ...func(*planner.Compiled, *planner.Plan)) (*planner.Compiled, *planner.Plan) {
	t.Helper()
	c, err := planner.Compile(&f.g)
	if err != nil {
		t.Fatal(err)
	}
	g := &f.g
	p := &planner.Plan{Strategy: "test", Requirements: "graph", Resources: make([]planner.ResourcePlan, len(g.Resources))}
	for r := range g.Resources {
		res, rp := &g.Resources[r], &p.Resources[r]
		w, pooled := where[res.Name]
		switch {
		case !c.Used(planner.ResourceID(r)):
			rp.Status = planner.StatusUnused
		case res.Imported:
			rp.Status = planner.StatusImported
		case pooled:
			rp.Status, rp.Requirements = planner.StatusPooled, *res.Requirements
			q := &rp.Requirements
			rp.Placement = planner.Placement{Pool: w.pool, Offset: w.offset, Size: q.Size, Alignment: q.Alignment}
			for len(p.Pools) <= w.pool {
				p.Pools = append(p.Pools, planner.Pool{Index: len(p.Pools), MemoryTypeIndex: 1, Class: res.Class()})
			}
			p.Pools[w.pool].Size = max(p.Pools[w.pool].Size, w.offset+q.Size)
			p.Stats.TransientBytes += q.Size
		default:
			rp.Status, rp.Requirements = planner.StatusDedicated, *res.Requirements
			p.Stats.DedicatedBytes += rp.Requirements.Size
			g.Resources[r].Dedicated = true
		}
	}
	for i := range g.Commands {
		p.Order = append(p.Order, planner.CommandID(i))
	}
	for _, pl := range p.Pools {
		p.Stats.PooledBytes += pl.Size
	}
	for a := range p.Resources {
		for b := range p.Resources {
			x, y := &p.Resources[a], &p.Resources[b]
			if a != b && x.Status == planner.StatusPooled && y.Status == planner.StatusPooled && x.Placement.Pool == y.Placement.Pool &&
				x.Placement.Offset < y.Placement.Offset+y.Placement.Size && y.Placement.Offset < x.Placement.Offset+x.Placement.Size {
				x.Placement.Aliased = true
			}
		}
	}
	fillBounds(t, c, p)
	for _, f := range setup {
		f(c, p)
	}
	if err := verify.Placement(c, p); err != nil {
		t.Fatal(err)
	}
	return c, p
}

// fillBounds sets the plan's lower bound and execution bound (recorded
// order) as Place would, per pool group (memory type, class): verify
// recomputes both.
func fillBounds(t testing.TB, c *planner.Compiled, p *planner.Plan) {
	t.Helper()
	type key struct {
		memType uint32
		class   planner.Class
	}
	groups := map[key][]planner.ResourceID{}
	var keys []key
	for r, rp := range p.Resources {
		if rp.Status == planner.StatusPooled {
			pl := &p.Pools[rp.Placement.Pool]
			k := key{pl.MemoryTypeIndex, pl.Class}
			if groups[k] == nil {
				keys = append(keys, k)
			}
			groups[k] = append(groups[k], planner.ResourceID(r))
		}
	}
	p.Stats.LowerBound, p.Stats.ExecutionBound = 0, 0
	for _, k := range keys {
		members := groups[k]
		items := make([]planner.Item, len(members))
		for i, r := range members {
			q := &p.Resources[r].Requirements
			items[i] = planner.Item{Size: q.Size, Alignment: q.Alignment, Start: 1 << 62, End: -1}
			for _, u := range c.Uses(r) {
				items[i].Start, items[i].End = min(items[i].Start, int64(u.Command)), max(items[i].End, int64(u.Command)+1)
			}
		}
		prob, err := c.GroupProblem(members, items, 0)
		if err != nil {
			t.Fatal(err)
		}
		p.Stats.LowerBound += planner.LowerBound(prob)
		p.Stats.ExecutionBound += planner.MaxLoad(items)
	}
}

// build runs Build and verify.Plan.
func build(t testing.TB, c *planner.Compiled, p *planner.Plan) {
	t.Helper()
	if err := barriers.Build(c, p); err != nil {
		t.Fatal(err)
	}
	if err := verify.Plan(c, p); err != nil {
		t.Fatalf("%v\n%s", err, describe(c.Graph, p))
	}
}

// describe draws a plan's barriers one a line:
//
//	before: kind type resource [prev=a,b] src -> dst [old -> new]
func describe(g *planner.Graph, p *planner.Plan) string {
	var b strings.Builder
	for _, x := range p.Barriers {
		fmt.Fprintf(&b, "%s: %s %s %s", g.Commands[x.Before].Name, x.Kind, x.Type, g.Resources[x.Resource].Name)
		if len(x.Previous) > 0 {
			names := make([]string, len(x.Previous))
			for i, r := range x.Previous {
				names[i] = g.Resources[r].Name
			}
			fmt.Fprintf(&b, " prev=%s", strings.Join(names, ","))
		}
		fmt.Fprintf(&b, " %s/%s -> %s/%s", x.SrcStages, x.SrcAccess, x.DstStages, x.DstAccess)
		if x.Type == planner.ImageBarrier {
			fmt.Fprintf(&b, " %s -> %s", x.OldLayout, x.NewLayout)
		}
		if x.Call != 0 {
			fmt.Fprintf(&b, " call=%d", x.Call)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// trimLines drops the common indentation of a raw string literal.
func trimLines(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		b.WriteString(strings.TrimSpace(l))
		b.WriteByte('\n')
	}
	return b.String()
}
