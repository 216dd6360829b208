package vulkan

import (
	"encoding/binary"
	"fmt"
	"github.com/aliasplan/aliasplan/verify"
	avk "github.com/aliasplan/aliasplan/vk"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	vk "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/barriers"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

// The GPU tests run on whatever Vulkan device the loader offers (lavapipe
// in CI) with the validation layer and synchronization validation on; any
// validation message fails them. Without a device they skip, loudly,
// unless ALIASPLAN_REQUIRE_VULKAN=1 (CI sets it), which makes them fail.
// ALIASPLAN_VULKAN_DEVICE picks a device by name substring.

const requireEnv = "ALIASPLAN_REQUIRE_VULKAN"

var unavailable error // why no device could be opened, probed once in TestMain

func TestMain(m *testing.M) {
	// Mesa wants a runtime directory for its caches; CI shells may lack one.
	if os.Getenv("XDG_RUNTIME_DIR") == "" {
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("xdg-runtime-%d", os.Getuid()))
		if os.MkdirAll(dir, 0o700) == nil {
			os.Setenv("XDG_RUNTIME_DIR", dir)
		}
	}
	d, err := Open(Config{Validation: true, Device: os.Getenv("ALIASPLAN_VULKAN_DEVICE")})
	switch {
	case err != nil:
		unavailable = err
		verdict := "SKIPPED"
		if os.Getenv(requireEnv) == "1" {
			verdict = "FAILING (" + requireEnv + "=1)"
		}
		fmt.Fprintf(os.Stderr, "\n"+
			"################################################################\n"+
			"## aliasplan/vulkan: NO USABLE VULKAN DEVICE: GPU TESTS %s\n"+
			"## %v\n"+
			"## Install lavapipe and the validation layer: scripts/install-vulkan.sh\n"+
			"################################################################\n\n", verdict, err)
	default:
		in := d.Info()
		fmt.Fprintf(os.Stderr, "aliasplan/vulkan: GPU tests on %s (%s, Vulkan %s, synchronization2 %s, driver %q), validation layer with synchronization validation\n",
			in.Name, in.Type, in.DeviceAPI, in.Sync2, in.Driver)
		d.Close()
	}
	os.Exit(m.Run())
}

// openDevice opens the test device with validation, or skips (fails under
// ALIASPLAN_REQUIRE_VULKAN=1). At cleanup it closes the device, which is
// when the layer reports leaked objects, and fails the test on any
// validation message not taken by the test.
func openDevice(t *testing.T) *Device {
	t.Helper()
	if unavailable != nil {
		if os.Getenv(requireEnv) == "1" {
			t.Fatalf("no usable Vulkan device and %s=1: %v", requireEnv, unavailable)
		}
		t.Skipf("SKIP: NO USABLE VULKAN DEVICE, GPU test not run: %v", unavailable)
	}
	d, err := Open(Config{Validation: true, Device: os.Getenv("ALIASPLAN_VULKAN_DEVICE")})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Error(err)
		}
		expectClean(t, d)
	})
	return d
}

// expectClean fails the test for every validation message collected so far.
func expectClean(t *testing.T, d *Device) {
	t.Helper()
	for _, m := range d.TakeMessages() {
		t.Errorf("validation: %s", m)
	}
}

// planned is a graph planned against a device through the real pipeline:
// Compile, Place with the device's Resources as requirements source,
// barriers.Build, Verify.
type planned struct {
	g    *planner.Graph
	c    *planner.Compiled
	res  *Resources
	plan *planner.Plan
}

func planOn(t *testing.T, d *Device, g *planner.Graph) *planned {
	t.Helper()
	c, err := planner.Compile(g)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	res := d.NewResources(g)
	t.Cleanup(res.Close) // before the device's cleanup: cleanups run last-in first-out
	plan, err := planner.Place(c, planner.Options{
		Strategy:           strategyForTests(),
		MaxPoolSize:        d.Info().MaxMemoryAllocationSize,
		DedicatedThreshold: planner.DefaultDedicatedThreshold,
		Source:             res,
	})
	if err != nil {
		t.Fatalf("Place: %v", err)
	}
	if err := barriers.Build(c, plan); err != nil {
		t.Fatalf("barriers.Build: %v", err)
	}
	if err := verify.Plan(c, plan); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	return &planned{g: g, c: c, res: res, plan: plan}
}

func strategyForTests() planner.Strategy { return firstfit.New() }

func (p *planned) id(t *testing.T, name string) planner.ResourceID {
	t.Helper()
	id, ok := p.g.ResourceByName(name)
	if !ok {
		t.Fatalf("no resource %q", name)
	}
	return id
}

// mustID is id for code without a *testing.T; the names are the test's own.
func (p *planned) mustID(name string) planner.ResourceID {
	id, ok := p.g.ResourceByName(name)
	if !ok {
		panic("no resource " + name)
	}
	return id
}

func orOK(err error) any {
	if err == nil {
		return "correct"
	}
	return err
}

// report logs what the device said and what the plan made of it: the
// requirements seen, the pools, the barriers and the bytes saved (go test
// -v shows it).
func (p *planned) report(t *testing.T, d *Device) {
	t.Helper()
	in := d.Info()
	var b strings.Builder
	fmt.Fprintf(&b, "device: %s (%s), Vulkan %s (in effect %s), synchronization2 %s, driver %q, bufferImageGranularity %d, maxMemoryAllocationSize %d\n",
		in.Name, in.Type, in.DeviceAPI, in.API, in.Sync2, in.Driver, in.BufferImageGranularity, in.MaxMemoryAllocationSize)
	for i, mt := range d.MemoryTypes() {
		fmt.Fprintf(&b, "  memory type %d: flags %#x heap %d\n", i, uint32(mt.Flags), mt.Heap)
	}
	fmt.Fprintf(&b, "requirements (%s), %d queries for %d created resources:\n", p.plan.Requirements, p.res.Queries(), p.res.Created())
	for id := range p.g.Resources {
		rs, rp := &p.g.Resources[id], &p.plan.Resources[id]
		q := rp.Requirements
		fmt.Fprintf(&b, "  %-20s %-6s %-12s size %9d align %6d bits %#04x dedicated(prefers %t requires %t)", rs.Name, rs.Kind, rp.Status, q.Size, q.Alignment, q.MemoryTypeBits, q.PrefersDedicated, q.RequiresDedicated)
		if rp.Status == planner.StatusPooled {
			fmt.Fprintf(&b, " -> pool %d @ %d aliased %t", rp.Placement.Pool, rp.Placement.Offset, rp.Placement.Aliased)
		} else if rp.Reason != "" {
			fmt.Fprintf(&b, " (%s)", rp.Reason)
		}
		b.WriteByte('\n')
	}
	for _, pl := range p.plan.Pools {
		fmt.Fprintf(&b, "pool %d: memory type %d, %s, %d bytes\n", pl.Index, pl.MemoryTypeIndex, pl.Class, pl.Size)
	}
	aliasN := 0
	for _, x := range p.plan.Barriers {
		if x.Kind == planner.Alias {
			aliasN++
		}
	}
	st := p.plan.Stats
	saved := int64(st.TransientBytes) - int64(st.PooledBytes)
	pct := 0.0
	if st.TransientBytes > 0 {
		pct = 100 * float64(saved) / float64(st.TransientBytes)
	}
	fmt.Fprintf(&b, "barriers: %d (%d alias)\n", len(p.plan.Barriers), aliasN)
	fmt.Fprintf(&b, "bytes: transient %d, pooled %d, lower bound %d, dedicated %d; saved %d (%.1f%%)",
		st.TransientBytes, st.PooledBytes, st.LowerBound, st.DedicatedBytes, saved, pct)
	t.Log(b.String())
}

// run binds the plan, maps hostWrite's bytes into their resources, records
// the frame with work through the executor, submits, waits and returns.
func (p *planned) run(t *testing.T, d *Device, work Work) {
	t.Helper()
	if err := d.Run(func(cb vk.CommandBuffer) error { return p.res.Record(cb, work) }); err != nil {
		t.Fatalf("Run: %v", err)
	}
}

func (p *planned) bind(t *testing.T) {
	t.Helper()
	if err := p.res.Bind(p.plan); err != nil {
		t.Fatalf("Bind: %v", err)
	}
}

// Shorthands for test graphs: transfer work only (fills, copies, clears),
// every stage TRANSFER (the layer classes vkCmdFillBuffer as COPY, and
// TRANSFER covers COPY and CLEAR).

const xfer = avk.StageTransfer

func wr(r planner.ResourceID) planner.Access {
	return planner.Access{Resource: r, Stages: xfer, Access: avk.AccessTransferWrite}
}

func rd(r planner.ResourceID) planner.Access {
	return planner.Access{Resource: r, Stages: xfer, Access: avk.AccessTransferRead}
}

func rdwr(r planner.ResourceID) planner.Access {
	return planner.Access{Resource: r, Stages: xfer, Access: avk.AccessTransferRead | avk.AccessTransferWrite}
}

func imgWr(r planner.ResourceID) planner.Access {
	return planner.Access{Resource: r, Stages: xfer, Access: avk.AccessTransferWrite, Layout: avk.LayoutTransferDstOptimal}
}

func imgRd(r planner.ResourceID) planner.Access {
	return planner.Access{Resource: r, Stages: xfer, Access: avk.AccessTransferRead, Layout: avk.LayoutTransferSrcOptimal}
}

func hostRead(r planner.ResourceID) planner.Access {
	return planner.Access{Resource: r, Stages: avk.StageHost, Access: avk.AccessHostRead}
}

func hostWrite(r planner.ResourceID) planner.Access {
	return planner.Access{Resource: r, Stages: avk.StageHost, Access: avk.AccessHostWrite}
}

const bufUsage = avk.BufferUsageTransferSrc | avk.BufferUsageTransferDst | avk.BufferUsageStorageBuffer

func addBuffer(g *planner.Graph, name string, size uint64, mem planner.Memory) planner.ResourceID {
	return g.AddResource(planner.Resource{Name: name, Kind: planner.KindBuffer, Memory: mem, Buffer: planner.BufferDesc{Size: size, Usage: bufUsage}})
}

func addImage(g *planner.Graph, name string, w, h uint32) planner.ResourceID {
	return g.AddImage(name, planner.ImageDesc{Format: avk.FormatR8G8B8A8Unorm, Width: w, Height: h, Depth: 1, MipLevels: 1, ArrayLayers: 1,
		Samples: 1, Tiling: avk.TilingOptimal, Usage: avk.ImageUsageTransferSrc | avk.ImageUsageTransferDst})
}

// Recording helpers.

func fill(cb vk.CommandBuffer, b vk.Buffer, offset, size uint64, value uint32) {
	vk.CmdFillBuffer(cb, b, vk.DeviceSize(offset), vk.DeviceSize(size), value)
}

func copyBuffer(cb vk.CommandBuffer, src, dst vk.Buffer, srcOffset, dstOffset, size uint64) {
	vk.CmdCopyBuffer(cb, src, dst, 1, []vk.BufferCopy{{SrcOffset: vk.DeviceSize(srcOffset), DstOffset: vk.DeviceSize(dstOffset), Size: vk.DeviceSize(size)}})
}

func colorRange() []vk.ImageSubresourceRange {
	return []vk.ImageSubresourceRange{{AspectMask: vk.ImageAspectFlags(vk.ImageAspectColorBit), LevelCount: 1, LayerCount: 1}}
}

func clearImage(cb vk.CommandBuffer, img vk.Image, rgba [4]float32) {
	var c vk.ClearColorValue
	for i, f := range rgba {
		binary.LittleEndian.PutUint32(c[4*i:], math.Float32bits(f))
	}
	vk.CmdClearColorImage(cb, img, vk.ImageLayoutTransferDstOptimal, &c, 1, colorRange())
}

func imageRegion(w, h uint32) []vk.BufferImageCopy {
	return []vk.BufferImageCopy{{
		ImageSubresource: vk.ImageSubresourceLayers{AspectMask: vk.ImageAspectFlags(vk.ImageAspectColorBit), LayerCount: 1},
		ImageExtent:      vk.Extent3D{Width: w, Height: h, Depth: 1},
	}}
}

func imageToBuffer(cb vk.CommandBuffer, img vk.Image, b vk.Buffer, w, h uint32) {
	vk.CmdCopyImageToBuffer(cb, img, vk.ImageLayoutTransferSrcOptimal, b, 1, imageRegion(w, h))
}

func bufferToImage(cb vk.CommandBuffer, b vk.Buffer, img vk.Image, w, h uint32) {
	vk.CmdCopyBufferToImage(cb, b, img, vk.ImageLayoutTransferDstOptimal, 1, imageRegion(w, h))
}

// compareBytes compares read-back bytes with a pattern, want(i) for byte
// i, and describes the first differences.
func compareBytes(what string, got []byte, want func(i int) byte) error {
	var b strings.Builder
	bad := 0
	for i := range got {
		if got[i] != want(i) {
			if bad < 4 {
				fmt.Fprintf(&b, "; byte %d = %#02x, want %#02x", i, got[i], want(i))
			}
			bad++
		}
	}
	if bad > 0 {
		return fmt.Errorf("%s: %d of %d bytes differ%s", what, bad, len(got), b.String())
	}
	return nil
}

func u32Byte(v uint32) func(int) byte {
	return func(i int) byte { return byte(v >> (8 * (i % 4))) }
}

// messageIDs returns the IDs of the messages, and whether any is a
// synchronization hazard.
func messageIDs(ms []Message) (ids []string, hazard bool) {
	for _, m := range ms {
		ids = append(ids, m.ID)
		if strings.HasPrefix(m.ID, "SYNC-HAZARD-") {
			hazard = true
		}
	}
	return ids, hazard
}
