package aliasplan_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"

	"github.com/aliasplan/aliasplan"
)

// Issue 12 item 12: Plan(nil) panicked.
func TestPlanNil(t *testing.T) {
	p := aliasplan.New(aliasplan.Options{})
	if plan, err := p.Plan(nil); err == nil || plan != nil {
		t.Fatalf("Plan(nil) = %v, %v; want an error", plan, err)
	}
	if c, plan, err := p.PlanCompiled(nil); err == nil || c != nil || plan != nil {
		t.Fatalf("PlanCompiled(nil) = %v, %v, %v; want an error", c, plan, err)
	}
}

// ExamplePlan shows what a caller reads from a plan: each resource's
// status, reason and placement, the pools to allocate, the execution order,
// the barriers to record and the stats. The imported backbuffer is the
// caller's own memory: tracked for hazards and layouts, never placed.
func ExamplePlan() {
	g := &aliasplan.Graph{}
	scene := g.AddImage("scene", aliasplan.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat,
		Width: 256, Height: 256, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
		Usage: vk.ImageUsageColorAttachment | vk.ImageUsageSampled})
	bloom := g.AddImage("bloom", aliasplan.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat,
		Width: 256, Height: 256, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
		Usage: vk.ImageUsageStorage | vk.ImageUsageSampled})
	// An imported resource: the swapchain image, owned by the caller.
	backbuffer := g.AddResource(aliasplan.Resource{Name: "backbuffer", Kind: aliasplan.KindImage, Imported: true,
		Image: aliasplan.ImageDesc{Format: vk.FormatB8G8R8A8Unorm, Width: 256, Height: 256, Depth: 1,
			MipLevels: 1, ArrayLayers: 1, Samples: 1, InitialLayout: vk.LayoutPresentSrc}})
	g.AddCommand("draw", aliasplan.Access{Resource: scene, Stages: vk.StageColorAttachmentOutput,
		Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal})
	g.AddCommand("bloom",
		aliasplan.Access{Resource: scene, Stages: vk.StageComputeShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal},
		aliasplan.Access{Resource: bloom, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
	ldr := g.AddImage("ldr", aliasplan.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat,
		Width: 256, Height: 256, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1,
		Usage: vk.ImageUsageStorage | vk.ImageUsageTransferSrc})
	g.AddCommand("compose",
		aliasplan.Access{Resource: bloom, Stages: vk.StageComputeShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal},
		aliasplan.Access{Resource: ldr, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral})
	g.AddCommand("blit",
		aliasplan.Access{Resource: ldr, Stages: vk.StageBlit, Access: vk.AccessTransferRead, Layout: vk.LayoutTransferSrcOptimal},
		aliasplan.Access{Resource: backbuffer, Stages: vk.StageBlit, Access: vk.AccessTransferWrite, Layout: vk.LayoutTransferDstOptimal})
	g.AddCommand("present", aliasplan.Access{Resource: backbuffer, Stages: vk.StageBottomOfPipe, Layout: vk.LayoutPresentSrc})

	plan, err := aliasplan.New(aliasplan.Options{}).Plan(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	for id, rp := range plan.Resources { // indexed by ResourceID
		fmt.Printf("%s: %s", g.Resources[id].Name, rp.Status)
		if rp.Status == planner.StatusPooled {
			pl := rp.Placement
			fmt.Printf(" in pool %d at offset %d, %d bytes (alignment %d), aliased %v", pl.Pool, pl.Offset, pl.Size, pl.Alignment, pl.Aliased)
		} else {
			fmt.Printf(" (%s)", rp.Reason)
		}
		fmt.Println()
	}
	for _, pool := range plan.Pools {
		fmt.Printf("pool %d: memory type %d, %s, %d bytes\n", pool.Index, pool.MemoryTypeIndex, pool.Class, pool.Size)
	}
	fmt.Print("order:")
	for _, cmd := range plan.Order {
		fmt.Print(" ", g.Commands[cmd].Name)
	}
	fmt.Println()
	for _, b := range plan.Barriers {
		fmt.Printf("before %s: %s barrier on %s, %s/%s -> %s/%s, %s -> %s\n", g.Commands[b.Before].Name, b.Kind,
			g.Resources[b.Resource].Name, b.SrcStages, b.SrcAccess, b.DstStages, b.DstAccess, b.OldLayout, b.NewLayout)
	}
	st := plan.Stats
	fmt.Printf("transient %d, pooled %d, lower bound %d, dedicated %d\n", st.TransientBytes, st.PooledBytes, st.LowerBound, st.DedicatedBytes)
	// Output:
	// scene: pooled in pool 0 at offset 0, 524288 bytes (alignment 65536), aliased true
	// bloom: pooled in pool 0 at offset 524288, 524288 bytes (alignment 65536), aliased false
	// backbuffer: imported (owned by the caller)
	// ldr: pooled in pool 0 at offset 0, 524288 bytes (alignment 65536), aliased true
	// pool 0: memory type 1, optimal, 1048576 bytes
	// order: draw bloom compose blit present
	// before draw: hazard barrier on scene, NONE/NONE -> COLOR_ATTACHMENT_OUTPUT/COLOR_ATTACHMENT_WRITE, UNDEFINED -> COLOR_ATTACHMENT_OPTIMAL
	// before bloom: hazard barrier on scene, COLOR_ATTACHMENT_OUTPUT/COLOR_ATTACHMENT_WRITE -> COMPUTE_SHADER/SHADER_SAMPLED_READ, COLOR_ATTACHMENT_OPTIMAL -> SHADER_READ_ONLY_OPTIMAL
	// before bloom: hazard barrier on bloom, NONE/NONE -> COMPUTE_SHADER/SHADER_STORAGE_WRITE, UNDEFINED -> GENERAL
	// before compose: hazard barrier on bloom, COMPUTE_SHADER/SHADER_STORAGE_WRITE -> COMPUTE_SHADER/SHADER_SAMPLED_READ, GENERAL -> SHADER_READ_ONLY_OPTIMAL
	// before compose: alias barrier on ldr, COMPUTE_SHADER/NONE -> COMPUTE_SHADER/SHADER_STORAGE_WRITE, UNDEFINED -> GENERAL
	// before blit: hazard barrier on ldr, COMPUTE_SHADER/SHADER_STORAGE_WRITE -> BLIT/TRANSFER_READ, GENERAL -> TRANSFER_SRC_OPTIMAL
	// before blit: hazard barrier on backbuffer, BLIT/NONE -> BLIT/TRANSFER_WRITE, PRESENT_SRC_KHR -> TRANSFER_DST_OPTIMAL
	// before present: hazard barrier on backbuffer, BLIT/TRANSFER_WRITE -> BOTTOM_OF_PIPE/NONE, TRANSFER_DST_OPTIMAL -> PRESENT_SRC_KHR
	// transient 1572864, pooled 1048576, lower bound 1048576, dedicated 0
}

// Issue 12 items 11, 12 and 14: the README says what the verifier is
// (the project's own verify.Plan, not an outside tool), shows how to
// declare an imported resource, and points at docs/formats.md, which
// exists.
func TestREADMEClaims(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	if strings.Contains(text, "independent verifier") {
		t.Error(`README calls verify.Plan "an independent verifier"`)
	}
	for _, want := range []string{"verify.Plan", "docs/formats.md", "Imported: true"} {
		if !strings.Contains(text, want) {
			t.Errorf("README does not mention %s", want)
		}
	}
	if _, err := os.Stat("docs/formats.md"); err != nil {
		t.Error(err)
	}
}

// dataLiteral is a string literal naming the held-out data set or its
// variable (split so that this file does not match).
var dataLiteral = regexp.MustCompile(`"[^"\n]*shared/` + `data|"ALIASPLAN_` + `DATA"`)

// Issue 12 item 9: tests reach the shared data set relative to the
// repository (../shared/data), never by an absolute path, and make test
// runs the data tests every time (Go's test cache does not see files
// outside the module) and says when they are skipped. Issue 20: only
// internal/datadir finds the data, and CI requires the held-out set.
func TestDataTestsRun(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(src), `"/`+`work/`) { // split: this file is scanned too
			t.Errorf("%s reaches the data by an absolute path", path)
		}
		if dataLiteral.Match(src) {
			t.Errorf("%s finds the data itself; internal/datadir does", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	mk, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	_, unit, _ := strings.Cut(string(mk), "\nunit:")
	unit, _, _ = strings.Cut(unit, "\n\n")
	if !strings.Contains(unit, "-count=1") {
		t.Errorf("make unit lets the test cache skip the data tests:%s", unit)
	}
	if !strings.Contains(unit, "DATA_NOTE") {
		t.Errorf("make unit does not say when the held-out data tests are skipped:%s", unit)
	}
	ci, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ci), "export ALIASPLAN_REQUIRE_DATA=1") {
		t.Error(".ci/run does not require the held-out data set: a missing one would skip its tests")
	}
}
