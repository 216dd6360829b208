package aliasplan_test

import (
	"bytes"
	"fmt"
	"go/build"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// Example_readme is the README's frame ("The Planner API"), built with the
// access presets, and a few facts of its plan. TestReadmeCodeIsExample
// keeps the README's code and this function the same.
func Example_readme() {
	g := &aliasplan.Graph{} // per frame; g.Reset() keeps the storage
	tmp := g.AddBuffer("scratch", aliasplan.BufferDesc{Size: 1 << 20, Usage: vk.BufferUsageStorageBuffer})
	out := g.AddImage("out", aliasplan.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat,
		Width: 1920, Height: 1080, Usage: vk.ImageUsageStorage | vk.ImageUsageTransferSrc})
	g.AddCommand("produce", g.WriteBuffer(tmp, vk.StageComputeShader))
	g.AddCommand("consume", g.ReadBuffer(tmp, vk.StageComputeShader), g.WriteImage(out, vk.StageComputeShader))

	// Imported: the caller's own memory (a swapchain image, a history buffer
	// kept across frames): tracked for hazards and layouts, never placed.
	back := g.AddResource(aliasplan.Resource{Name: "backbuffer", Kind: aliasplan.KindImage, Imported: true,
		Image: aliasplan.ImageDesc{Format: vk.FormatB8G8R8A8Unorm, Width: 1920, Height: 1080,
			Usage: vk.ImageUsageTransferDst, InitialLayout: vk.LayoutPresentSrc}})
	g.AddCommand("blit", g.TransferSrc(out), g.TransferDst(back))
	g.AddCommand("present", g.Present(back))

	p := aliasplan.New(aliasplan.Options{}) // first fit, 64 MiB dedicated threshold, H200 profile estimates
	plan, err := p.Plan(g)                  // verified: placements, pools, order, barriers, stats
	if err != nil {
		fmt.Println(err)
		return
	}
	for id, rp := range plan.Resources {
		fmt.Printf("%s: %s", g.Resources[id].Name, rp.Status)
		if rp.Status == planner.StatusPooled {
			fmt.Printf(", pool %d (%s) at offset %d", rp.Placement.Pool, plan.Pools[rp.Placement.Pool].Class, rp.Placement.Offset)
		}
		fmt.Println()
	}
	for _, b := range plan.Barriers {
		fmt.Printf("before %s: %s %s barrier on %s", g.Commands[b.Before].Name, b.Kind, b.Type, g.Resources[b.Resource].Name)
		if b.Type == planner.ImageBarrier && b.OldLayout != b.NewLayout {
			fmt.Printf(", %s → %s", b.OldLayout, b.NewLayout)
		}
		fmt.Println()
	}
	fmt.Printf("final barriers %d, warnings %d\n", len(plan.FinalBarriers), len(plan.Warnings))
	// Output:
	// scratch: pooled, pool 0 (linear) at offset 0
	// out: pooled, pool 1 (optimal) at offset 0
	// backbuffer: imported
	// before consume: hazard buffer barrier on scratch
	// before consume: hazard image barrier on out, UNDEFINED → GENERAL
	// before blit: hazard image barrier on out, GENERAL → TRANSFER_SRC_OPTIMAL
	// before blit: hazard image barrier on backbuffer, PRESENT_SRC_KHR → TRANSFER_DST_OPTIMAL
	// before present: hazard image barrier on backbuffer, TRANSFER_DST_OPTIMAL → PRESENT_SRC_KHR
	// final barriers 0, warnings 0
}

// TestReadmeCodeIsExample: every line of the README's Go code block (after
// its imports) is a line of Example_readme, in order, so the README's code
// compiles and runs as the example does; and the install line names the
// module's command.
func TestReadmeCodeIsExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)## The Planner API.*?```go\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md has no Go code block under \"## The Planner API\"")
	}
	code := string(m[1])
	if _, rest, ok := strings.Cut(code, "\n)\n"); ok { // the import block
		code = rest
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	body := string(src)
	body = body[strings.Index(body, "func Example_readme()"):]
	body = body[:strings.Index(body, "\n}\n")]
	var lines []string
	for _, l := range strings.Split(body, "\n") {
		lines = append(lines, strings.TrimSpace(l))
	}
	at := 0
	for _, l := range strings.Split(code, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		found := false
		for ; at < len(lines); at++ {
			if lines[at] == l {
				found = true
				at++
				break
			}
		}
		if !found {
			t.Errorf("README line %q is not in Example_readme (in order): keep the two the same", l)
			return
		}
	}

	// The install line's package is this module's command.
	inst := regexp.MustCompile(`go install (\S+)@latest`).FindSubmatch(readme)
	if inst == nil {
		t.Fatal("README.md has no go install line")
	}
	pkg := string(inst[1])
	if !bytes.HasPrefix(inst[1], []byte("github.com/aliasplan/aliasplan/")) {
		t.Fatalf("install line names %s, outside the module", pkg)
	}
	bp, err := build.Default.Import(pkg, ".", 0)
	if err != nil {
		t.Fatalf("install line: %v", err)
	}
	if bp.Name != "main" {
		t.Errorf("install line names package %s (%s), not a command", pkg, bp.Name)
	}
}
