package proptest

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// reference is the brute-force analysis of a graph per subresource, from
// SPEC §2's definitions (every conflicting pair, not a reduced edge set):
// for each subresource, the commands touching it in recorded order; a
// touch modifies when it writes or needs another layout than the one
// before; two touches conflict when one modifies, except reads sharing
// one transition; a read sharing a transition conflicts with every touch
// before the transition (which must wait for them and precede it).
type reference struct {
	hb       [][]bool              // hb[a][b]: a happens-before b
	touches  [][][]touch           // per resource, per subresource
	modifies map[[2]int]bool       // (resource, command): some subresource modified
	conflict map[[3]int]bool       // (resource, a, b), a < b: conflicting on a shared subresource
	uses     [][]planner.CommandID // per resource, commands that access it
}

type touch struct {
	cmd      int
	layout   vk.Layout
	access   vk.AccessFlags
	modifies bool
	group    int // index of the read opening the transition it shares; -1
}

// buildReference analyses g. sharedWhole says whether reads sharing one
// transition are exempt from conflicts on images that no access names a
// partial range of (the per-resource path, which adopts SPEC's rule with
// the barrier work), as probed from Compile.
func buildReference(g *planner.Graph, sharedWhole bool) *reference {
	nc := len(g.Commands)
	ref := &reference{modifies: map[[2]int]bool{}, conflict: map[[3]int]bool{}}
	ref.hb = make([][]bool, nc)
	for i := range ref.hb {
		ref.hb[i] = make([]bool, nc)
	}
	for r := range g.Resources {
		res := &g.Resources[r]
		subs := make([][]touch, subCount(res))
		var uses []planner.CommandID
		partialRange := false
		for ci := range g.Commands {
			used := false
			for _, a := range g.Commands[ci].Accesses {
				if int(a.Resource) != r {
					continue
				}
				used = true
				if res.Kind == planner.KindImage && len(subsOf(res, a)) != len(subs) {
					partialRange = true
				}
				for _, s := range subsOf(res, a) {
					ts := subs[s]
					if len(ts) > 0 && ts[len(ts)-1].cmd == ci {
						ts[len(ts)-1].access |= a.Access
						continue
					}
					subs[s] = append(ts, touch{cmd: ci, layout: a.Layout, access: a.Access})
				}
			}
			if used {
				uses = append(uses, planner.CommandID(ci))
			}
		}
		shared := partialRange || sharedWhole
		for _, ts := range subs {
			prev := res.Image.InitialLayout
			group := -1
			for k := range ts {
				t := &ts[k]
				write := t.access&vk.WriteAccess != 0
				trans := res.Kind == planner.KindImage && t.layout != prev
				t.modifies = write || trans
				t.group = -1
				switch {
				case t.modifies && !write:
					group = k
					t.group = k
				case t.modifies:
					group = -1
				default:
					t.group = group
				}
				if res.Kind == planner.KindImage {
					prev = t.layout
				}
				if t.modifies {
					ref.modifies[[2]int{r, t.cmd}] = true
				}
			}
			for i := range ts {
				for j := i + 1; j < len(ts); j++ {
					a, b := ts[i], ts[j]
					sharing := shared && a.group >= 0 && a.group == b.group
					// A read sharing a transition conflicts with what the
					// transition conflicts with: every touch before it.
					inherits := shared && b.group > i
					if (a.modifies || b.modifies || inherits) && !sharing {
						ref.hb[a.cmd][b.cmd] = true
						ref.conflict[[3]int{r, a.cmd, b.cmd}] = true
					}
				}
			}
		}
		ref.touches = append(ref.touches, subs)
		ref.uses = append(ref.uses, uses)
	}
	// Transitive closure (edges point forward in recorded order).
	for a := nc - 1; a >= 0; a-- {
		for b := a + 1; b < nc; b++ {
			if ref.hb[a][b] {
				for c := b + 1; c < nc; c++ {
					ref.hb[a][c] = ref.hb[a][c] || ref.hb[b][c]
				}
			}
		}
	}
	return ref
}

// endpoints returns r's initial uses (no use of r before them) and
// terminal uses (no conflicting use of r after them), by the definitions.
func (ref *reference) endpoints(r int) (initial, terminal []planner.CommandID) {
	us := ref.uses[r]
	for _, u := range us {
		first, last := true, true
		for _, v := range us {
			if ref.hb[v][u] {
				first = false
			}
			if ref.hb[u][v] && ref.conflict[[3]int{r, int(u), int(v)}] {
				last = false
			}
		}
		if first {
			initial = append(initial, u)
		}
		if last {
			terminal = append(terminal, u)
		}
	}
	return initial, terminal
}

// sharedWholeRule probes Compile: do reads sharing one layout transition
// of a whole image stay unordered?
func sharedWholeRule(t testing.TB) bool {
	var g planner.Graph
	x := g.AddImage("x", planner.ImageDesc{Format: vk.FormatR8G8B8A8Unorm, Width: 4, Height: 4})
	g.AddCommand("w", planner.Access{Resource: x, Stages: vk.StageColorAttachmentOutput, Access: vk.AccessColorAttachmentWrite, Layout: vk.LayoutColorAttachmentOptimal})
	read := planner.Access{Resource: x, Stages: vk.StageFragmentShader, Access: vk.AccessShaderSampledRead, Layout: vk.LayoutShaderReadOnlyOptimal}
	g.AddCommand("r1", read)
	g.AddCommand("r2", read)
	c, err := planner.Compile(&g)
	if err != nil {
		t.Fatal(err)
	}
	return !c.HappensBefore(1, 2)
}

// rangedAgrees compiles a ranged random graph and compares it with the
// reference: happens-before on every pair of commands, and for every
// image with a partial range its initial and terminal uses and which
// uses modify it. It returns a reason on failure.
func rangedAgrees(g *planner.Graph, sharedWhole bool) string {
	c, err := planner.Compile(g)
	if err != nil {
		return "compile: " + err.Error()
	}
	ref := buildReference(g, sharedWhole)
	nc := len(g.Commands)
	for a := 0; a < nc; a++ {
		for b := 0; b < nc; b++ {
			if got := c.HappensBefore(planner.CommandID(a), planner.CommandID(b)); got != ref.hb[a][b] {
				return fmt.Sprintf("happens-before(%s, %s) = %v, reference %v", g.Commands[a].Name, g.Commands[b].Name, got, ref.hb[a][b])
			}
		}
	}
	for r := range g.Resources {
		if !rangedResource(g, r) {
			continue
		}
		ini, term := ref.endpoints(r)
		if got := c.Initial(planner.ResourceID(r)); !slices.Equal(got, ini) {
			return fmt.Sprintf("%s: initial %v, reference %v", g.Resources[r].Name, got, ini)
		}
		if got := c.Terminal(planner.ResourceID(r)); !slices.Equal(got, term) {
			return fmt.Sprintf("%s: terminal %v, reference %v", g.Resources[r].Name, got, term)
		}
		for _, u := range c.Uses(planner.ResourceID(r)) {
			if want := ref.modifies[[2]int{r, int(u.Command)}]; u.Modifies != want {
				return fmt.Sprintf("%s by %s: modifies %v, reference %v", g.Resources[r].Name, g.Commands[u.Command].Name, u.Modifies, want)
			}
		}
	}
	return ""
}

// rangedResource: some access names a partial range of image r.
func rangedResource(g *planner.Graph, r int) bool {
	res := &g.Resources[r]
	if res.Kind != planner.KindImage {
		return false
	}
	for _, cmd := range g.Commands {
		for _, a := range cmd.Accesses {
			if int(a.Resource) == r && len(subsOf(res, a)) != subCount(res) {
				return true
			}
		}
	}
	return false
}

// TestRangedMatchesReference: on random graphs with random subresource
// ranges, Compile's per-subresource analysis agrees with the brute-force
// reference (cases() of them, 2,000 by default).
func TestRangedMatchesReference(t *testing.T) {
	shared := sharedWholeRule(t)
	props := gopter.NewProperties(parameters())
	props.Property("compile agrees with the per-subresource reference", prop.ForAll(
		func(seed uint64, n int) string {
			return rangedAgrees(RangedGraph(seed, n), shared)
		},
		gen.UInt64(), gen.IntRange(1, 24),
	))
	props.TestingRun(t)
}

// TestRangedReadBeforeWrite: a transient subresource whose first access
// reads is a read-before-write error naming the subresources.
func TestRangedReadBeforeWrite(t *testing.T) {
	var g planner.Graph
	x := g.AddImage("pyr", planner.ImageDesc{Format: vk.FormatR16G16B16A16Sfloat, Width: 16, Height: 16, MipLevels: 3})
	w := planner.Access{Resource: x, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite, Layout: vk.LayoutGeneral}
	r := planner.Access{Resource: x, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead, Layout: vk.LayoutGeneral}
	g.AddCommand("m0", w.WithMips(0, 1))
	g.AddCommand("m1", r.WithMips(0, 1), w.WithMips(1, 1))
	g.AddCommand("bad", r.WithMips(1, 2))
	_, err := planner.Compile(&g)
	var ge *planner.GraphError
	if !errors.As(err, &ge) || ge.Rule != planner.RuleReadBeforeWrite || ge.Command != "bad" || ge.Resource != "pyr" {
		t.Fatalf("Compile: %v, want read-before-write on pyr by bad", err)
	}
	t.Log(err)
}
