package planner

import (
	"errors"
	"fmt"
	"github.com/aliasplan/aliasplan/vk"
	"math/rand/v2"
	"slices"
	"testing"
)

// naiveReach answers happens-before for every pair by depth-first search
// over every conflicting pair of accesses (not the stored subset),
// recomputed from the graph alone.
func naiveReach(g *Graph) [][]bool {
	type acc struct {
		cmd      CommandID
		modifies bool
		group    int // reads sharing one layout transition share a group id > 0
	}
	// Per resource, the aggregated accesses with the modify rule recomputed
	// from scratch.
	per := make([][]acc, len(g.Resources))
	readOnly := make([][]bool, len(g.Resources)) // per use: no write access flag
	layout := make([]vk.Layout, len(g.Resources))
	for r := range g.Resources {
		layout[r] = g.Resources[r].Image.InitialLayout
	}
	for ci, cmd := range g.Commands {
		seen := map[ResourceID]int{}
		for _, x := range cmd.Accesses {
			mod := x.Access&vk.WriteAccess != 0
			if i, ok := seen[x.Resource]; ok {
				per[x.Resource][i].modifies = per[x.Resource][i].modifies || mod
				readOnly[x.Resource][i] = readOnly[x.Resource][i] && x.Access&vk.WriteAccess == 0
				continue
			}
			if g.Resources[x.Resource].Kind == KindImage {
				mod = mod || x.Layout != layout[x.Resource]
				layout[x.Resource] = x.Layout
			}
			seen[x.Resource] = len(per[x.Resource])
			per[x.Resource] = append(per[x.Resource], acc{CommandID(ci), mod, 0})
			readOnly[x.Resource] = append(readOnly[x.Resource], x.Access&vk.WriteAccess == 0)
		}
	}
	// Reads sharing a transition: a read-only access that changes the
	// layout, and the reads after it up to the next modification (the
	// graphs here are too small for the predecessor bound).
	next := 1
	for r, us := range per {
		group := 0
		for i := range us {
			u := &us[i]
			if !u.modifies {
				u.group = group
				continue
			}
			group = 0
			if readOnly[r][i] {
				group = next
				next++
				u.group = group
			}
		}
	}
	adj := make([][]CommandID, len(g.Commands))
	for _, us := range per {
		for i := range us {
			for j := i + 1; j < len(us); j++ {
				// A reader sharing a transition conflicts like the transition
				// (it may be the one the transition is recorded before).
				mi, mj := us[i].modifies || us[i].group > 0, us[j].modifies || us[j].group > 0
				if (mi || mj) && (us[i].group == 0 || us[i].group != us[j].group) {
					adj[us[i].cmd] = append(adj[us[i].cmd], us[j].cmd)
				}
			}
		}
	}
	out := make([][]bool, len(g.Commands))
	for a := range out {
		seen := make([]bool, len(g.Commands))
		stack := append([]CommandID(nil), adj[a]...)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !seen[x] {
				seen[x] = true
				stack = append(stack, adj[x]...)
			}
		}
		out[a] = seen
	}
	return out
}

func TestHappensBeforeMatchesSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		g := randomGraph(rng, 2+rng.IntN(40), 0.8+rng.Float64())
		c, err := Compile(g)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		reach := naiveReach(g)
		for a := range g.Commands {
			for b := range g.Commands {
				got := c.HappensBefore(CommandID(a), CommandID(b))
				if want := reach[a][b]; got != want {
					t.Fatalf("trial %d: HappensBefore(%d, %d) = %v, search says %v", trial, a, b, got, want)
				}
			}
		}
		// Initial and terminal uses by definition, and interference.
		for r := range g.Resources {
			id := ResourceID(r)
			us := c.Uses(id)
			var init, term []CommandID
			// Terminal by the SPEC: no conflicting use after it (one of
			// the two modifies, and they share no transition).
			conflict := func(a, b Use) bool {
				if !a.Modifies && !b.Modifies && a.Transition < 0 && b.Transition < 0 {
					return false
				}
				share := func(x, y Use) bool { return x.Transition >= 0 && x.Transition == y.Transition }
				return !share(a, b)
			}
			for _, u := range us {
				first, last := true, true
				for _, v := range us {
					if v.Command != u.Command && c.HappensBefore(v.Command, u.Command) {
						first = false
					}
					if v.Command != u.Command && c.HappensBefore(u.Command, v.Command) && conflict(u, v) {
						last = false
					}
				}
				if first {
					init = append(init, u.Command)
				}
				if last {
					term = append(term, u.Command)
				}
			}
			if fmt.Sprint(init) != fmt.Sprint(c.Initial(id)) || fmt.Sprint(term) != fmt.Sprint(c.Terminal(id)) {
				t.Fatalf("trial %d resource %d: initial %v terminal %v, want %v %v", trial, r, c.Initial(id), c.Terminal(id), init, term)
			}
			if !g.Resources[r].Imported && len(us) > 0 && len(c.Initial(id)) != 1 {
				t.Fatalf("trial %d: transient %d has %d initial uses", trial, r, len(c.Initial(id)))
			}
		}
		for a := range g.Resources {
			for b := range g.Resources {
				ia, ib := ResourceID(a), ResourceID(b)
				want := c.Used(ia) && c.Used(ib)
				if want && a != b {
					before := func(x, y ResourceID) bool {
						for _, t := range c.Terminal(x) {
							for _, i := range c.Initial(y) {
								if !reach[t][i] {
									return false
								}
							}
						}
						return true
					}
					want = !before(ia, ib) && !before(ib, ia)
				}
				if got := c.Interferes(ia, ib); got != want {
					t.Fatalf("trial %d: Interferes(%d, %d) = %v, want %v", trial, a, b, got, want)
				}
			}
		}
	}
}

// randomGraph builds a valid graph of n commands with about perCmd fresh
// resources per command: each command writes what it creates and reads
// (or rewrites) a few earlier resources, so branches run in parallel.
// Some resources are imported and read without a write first.
func randomGraph(rng *rand.Rand, n int, perCmd float64) *Graph {
	g := &Graph{}
	var live []ResourceID
	imported := g.AddResource(Resource{Name: "imported", Kind: KindBuffer, Buffer: BufferDesc{Size: 64}, Imported: true})
	for ci := 0; ci < n; ci++ {
		var acc []Access
		for k := 0; k < 2+rng.IntN(3); k++ {
			if len(live) == 0 || rng.Float64() < perCmd/3 {
				var r ResourceID
				if rng.IntN(2) == 0 {
					r = g.AddBuffer(fmt.Sprintf("b%d", len(g.Resources)), BufferDesc{Size: uint64(1 + rng.IntN(1000))})
					acc = append(acc, Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
				} else {
					r = g.AddImage(fmt.Sprintf("i%d", len(g.Resources)), ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 64, Height: 64, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1})
					acc = append(acc, Access{Resource: r, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal})
				}
				live = append(live, r)
				continue
			}
			r := live[rng.IntN(len(live))]
			if g.Resources[r].Kind == KindBuffer {
				a := vk.AccessShaderStorageRead
				if rng.IntN(4) == 0 {
					a |= vk.AccessShaderStorageWrite
				}
				acc = append(acc, Access{Resource: r, Stages: vk.StageComputeShader, Access: a})
			} else {
				layout := vk.LayoutShaderReadOnlyOptimal
				if rng.IntN(5) == 0 {
					layout = vk.LayoutGeneral // a transition: modifies without a write flag
				}
				acc = append(acc, Access{Resource: r, Stages: vk.StageFragmentShader, Access: vk.AccessShaderSampledRead, Layout: layout})
			}
		}
		if rng.IntN(4) == 0 {
			acc = append(acc, Access{Resource: imported, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
		}
		// One layout per image per command: keep the first access of each image.
		seen := map[ResourceID]vk.Layout{}
		w := 0
		for _, a := range acc {
			if l, ok := seen[a.Resource]; ok && g.Resources[a.Resource].Kind == KindImage && l != a.Layout {
				continue
			}
			seen[a.Resource] = a.Layout
			acc[w] = a
			w++
		}
		g.AddCommand(fmt.Sprintf("c%d", ci), acc[:w]...)
	}
	// An unused transient.
	g.AddBuffer("unused", BufferDesc{Size: 16})
	return g
}

func TestCompileRules(t *testing.T) {
	img := ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 4, Height: 4, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1}
	write := func(r ResourceID) Access {
		return Access{Resource: r, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral}
	}
	cases := []struct {
		name  string
		build func(g *Graph)
		rule  Rule
		item  string // resource or command named in the error
	}{
		{"unknown resource", func(g *Graph) { g.AddCommand("c", Access{Resource: 7, Stages: vk.StageComputeShader}) }, RuleUnknownResource, "c"},
		{"negative resource", func(g *Graph) { g.AddCommand("c", Access{Resource: -1, Stages: vk.StageComputeShader}) }, RuleUnknownResource, "c"},
		{"duplicate resource", func(g *Graph) { g.AddBuffer("b", BufferDesc{Size: 1}); g.AddBuffer("b", BufferDesc{Size: 1}) }, RuleDuplicateName, "b"},
		{"duplicate command", func(g *Graph) { g.AddCommand("c"); g.AddCommand("c") }, RuleDuplicateName, "c"},
		{"empty resource name", func(g *Graph) { g.AddBuffer("", BufferDesc{Size: 1}) }, RuleEmptyName, ""},
		{"empty command name", func(g *Graph) { g.AddCommand("") }, RuleEmptyName, ""},
		{"no stages", func(g *Graph) {
			b := g.AddBuffer("b", BufferDesc{Size: 1})
			g.AddCommand("c", Access{Resource: b, Access: vk.AccessShaderStorageWrite})
		}, RuleNoStages, "b"},
		{"two layouts", func(g *Graph) {
			i := g.AddImage("i", img)
			g.AddCommand("c", write(i), Access{Resource: i, Stages: vk.StageFragmentShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal})
		}, RuleTwoLayouts, "i"},
		{"image without layout", func(g *Graph) {
			i := g.AddImage("i", img)
			g.AddCommand("c", Access{Resource: i, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
		}, RuleNoLayout, "i"},
		{"zero extent", func(g *Graph) { d := img; d.Height = 0; g.AddImage("i", d) }, RuleZeroExtent, "i"},
		{"zero mips", func(g *Graph) { // AddImage defaults 0 to 1; a literal keeps it
			d := img
			d.MipLevels = 0
			g.Resources = append(g.Resources, Resource{Name: "i", Kind: KindImage, Image: d})
		}, RuleZeroExtent, "i"},
		{"zero mips defaults to one", func(g *Graph) {
			d := img
			d.MipLevels, d.Depth, d.ArrayLayers, d.Samples = 0, 0, 0, 0
			g.AddImage("i", d)
			if got := g.Resources[0].Image; got.MipLevels != 1 || got.Depth != 1 || got.ArrayLayers != 1 || got.Samples != 1 {
				t.Errorf("AddImage left counts at %+v; want 1", got)
			}
			g.Resources[0].Image.Width = 0 // still an error, to fit the table
		}, RuleZeroExtent, "i"},
		{"samples", func(g *Graph) { d := img; d.Samples = 3; g.AddImage("i", d) }, RuleSamples, "i"},
		{"zero buffer size", func(g *Graph) { g.AddBuffer("b", BufferDesc{}) }, RuleZeroSize, "b"},
		{"alignment", func(g *Graph) {
			g.AddResource(Resource{Name: "b", Kind: KindBuffer, Buffer: BufferDesc{Size: 1}, Requirements: &Requirements{Size: 1, Alignment: 3, MemoryTypeBits: 1}})
		}, RuleAlignment, "b"},
		{"zero alignment", func(g *Graph) {
			g.AddResource(Resource{Name: "b", Kind: KindBuffer, Buffer: BufferDesc{Size: 1}, Requirements: &Requirements{Size: 1, Alignment: 0, MemoryTypeBits: 1}})
		}, RuleAlignment, "b"},
		{"memory type bits", func(g *Graph) {
			g.AddResource(Resource{Name: "b", Kind: KindBuffer, Buffer: BufferDesc{Size: 1}, Requirements: &Requirements{Size: 1, Alignment: 1}})
		}, RuleMemoryTypeBits, "b"},
		{"read before write", func(g *Graph) {
			b := g.AddBuffer("b", BufferDesc{Size: 1})
			g.AddCommand("c", Access{Resource: b, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
		}, RuleReadBeforeWrite, "b"},
		{"layout transition is not a write", func(g *Graph) {
			i := g.AddImage("i", img)
			g.AddCommand("c", Access{Resource: i, Stages: vk.StageFragmentShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal})
		}, RuleReadBeforeWrite, "i"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := &Graph{}
			tc.build(g)
			_, err := Compile(g)
			var ge *GraphError
			if !errors.As(err, &ge) {
				t.Fatalf("Compile error = %v, want a *GraphError", err)
			}
			if ge.Rule != tc.rule {
				t.Fatalf("rule %s, want %s (%v)", ge.Rule, tc.rule, err)
			}
			if tc.item != "" && ge.Resource != tc.item && ge.Command != tc.item {
				t.Fatalf("error names neither resource nor command %q: %v", tc.item, err)
			}
		})
	}
}

func TestCompileSemantics(t *testing.T) {
	g := &Graph{}
	color := ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 8, Height: 8, Depth: 1, MipLevels: 1, ArrayLayers: 1, Samples: 1}
	a := g.AddImage("a", color)
	b := g.AddImage("b", color)
	x := g.AddBuffer("x", BufferDesc{Size: 256})
	g.AddBuffer("idle", BufferDesc{Size: 256})
	// Two independent writers, each read twice with duplicate accesses
	// aggregated, then a final reader of both.
	wa := g.AddCommand("wa", Access{Resource: a, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal})
	wb := g.AddCommand("wb", Access{Resource: b, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal})
	ra := g.AddCommand("ra",
		Access{Resource: a, Stages: vk.StageFragmentShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal},
		Access{Resource: a, Stages: vk.StageComputeShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal},
		Access{Resource: x, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	rb := g.AddCommand("rb", Access{Resource: b, Stages: vk.StageFragmentShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal})
	fin := g.AddCommand("fin", Access{Resource: x, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	c, err := Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	u := c.Uses(a)
	if len(u) != 2 || u[1].Stages != vk.StageFragmentShader|vk.StageComputeShader || !u[1].Modifies || u[1].PrevLayout != vk.LayoutColorAttachmentOptimal {
		t.Fatalf("uses of a: %+v", u)
	}
	checks := []struct {
		name string
		got  bool
		want bool
	}{
		{"wa before ra", c.HappensBefore(wa, ra), true},
		{"wa before fin", c.HappensBefore(wa, fin), true},
		{"wa unordered with wb", c.HappensBefore(wa, wb) || c.HappensBefore(wb, wa), false},
		{"ra unordered with rb", c.HappensBefore(ra, rb) || c.HappensBefore(rb, ra), false},
		{"a and b interfere (parallel branches)", c.Interferes(a, b), true},
		{"a and x interfere (x written while a is read)", c.Interferes(a, x), true},
		{"b and x interfere (unordered)", c.Interferes(b, x), true},
		{"idle is unused", c.Used(3), false},
		{"same batch", c.Batch(wa) == c.Batch(wb), true},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s: got %v", ch.name, ch.got)
		}
	}
	// A chain: a written, read; then y written by a command after the reader.
	y := g.AddBuffer("y", BufferDesc{Size: 64})
	g.Commands[fin].Accesses = append(g.Commands[fin].Accesses, Access{Resource: y, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
	c, err = Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	if c.Interferes(a, y) || !c.Before(a, y) {
		t.Errorf("a should be entirely before y: a's reader ra precedes fin")
	}
	if !c.Interferes(b, y) {
		t.Errorf("b's reader rb is unordered with fin: b and y interfere")
	}
}

func TestHappensBeforeAllocs(t *testing.T) {
	g := randomGraph(rand.New(rand.NewPCG(3, 4)), 300, 1.5)
	c, err := Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	n := testing.AllocsPerRun(100, func() {
		_ = c.HappensBefore(1, 250)
		_ = c.Interferes(1, 7)
	})
	if n != 0 {
		t.Fatalf("HappensBefore/Interferes allocate %v times", n)
	}
}

func BenchmarkCompile(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		g := randomGraph(rand.New(rand.NewPCG(uint64(n), 7)), n, 1.5)
		b.Run(fmt.Sprintf("commands=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Compile(g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestGroupInterferenceMatches checks the per-group interference test that
// placement uses against Compiled.Interferes, on random graphs.
func TestGroupInterferenceMatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 100; trial++ {
		g := randomGraph(rng, 2+rng.IntN(60+100*(trial%4/3)), 1.5)
		c, err := Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		var members []ResourceID
		for r := range g.Resources {
			if !g.Resources[r].Imported && c.Used(ResourceID(r)) {
				members = append(members, ResourceID(r))
			}
		}
		// Members ascending (usually in order of initial command: the
		// streaming path) and shuffled (the general path).
		shuffled := slices.Clone(members)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		// The diagonal and the last word's padding must be clear too.
		for _, members := range [][]ResourceID{members, shuffled} {
			words := (len(members) + 63) / 64
			for _, m := range []bitMatrix{c.groupInterference(members)} {
				for i := range members {
					for j := range words * 64 {
						got := m.bits[i*m.words+j>>6]&(1<<(uint(j)&63)) != 0
						want := i != j && j < len(members) && c.Interferes(members[i], members[j])
						if got != want {
							t.Fatalf("trial %d: members %d and %d of %d: group matrix %v, want %v", trial, i, j, len(members), got, want)
						}
					}
				}
			}
		}
	}
}
