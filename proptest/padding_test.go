package proptest

import (
	"fmt"
	"github.com/aliasplan/aliasplan/verify"
	"github.com/aliasplan/aliasplan/vk"
	"math/rand/v2"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/aliasplan/aliasplan"
	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/strategies/firstfit"
)

// paddedGraph is RandomGraph with every explicit requirement's size drawn
// below its alignment (1 byte to the alignment), so that alignment padding
// can outweigh sharing: the case of issue 12 item 6 (eight 256-byte
// buffers with 64 KiB alignment pooled in 448 KiB).
func paddedGraph(seed uint64, n int) *planner.Graph {
	g := RandomGraph(seed, n)
	rng := rand.New(rand.NewPCG(seed, 0x51ed2701))
	for i := range g.Resources {
		if q := g.Resources[i].Requirements; q != nil {
			q.Alignment = uint64(1) << rng.IntN(17)
			q.Size = 1 + rng.Uint64N(q.Alignment)
			// The resource itself must fit its requirements
			// (planner.RuleRequirementsTooSmall).
			if res := &g.Resources[i]; res.Kind == planner.KindBuffer {
				res.Buffer.Size = min(res.Buffer.Size, q.Size)
			} else {
				res.Image.Format, res.Image.Width, res.Image.Height = vk.FormatR8Unorm, 1, 1
			}
		}
	}
	return g
}

// Pooling never costs more than the resources' own allocations (SPEC §3):
// per plan, the pools take no more than the pooled resources' sizes, and
// every resource the padding rule left out says so.
func TestPoolingNeverCostsMore(t *testing.T) {
	// A quarter of the usual cases (six properties; CI runs them under
	// -race): ALIASPLAN_PROPTEST_CASES scales them with the rest.
	params := parameters()
	params.MinSuccessfulTests = max(1, cases()/4)
	props := gopter.NewProperties(params)
	for _, s := range strategies() {
		for _, maxPool := range []uint64{0, 1 << 17} {
			props.Property(fmt.Sprintf("%s, max pool %d: pools cost at most their resources' sizes", s.Name(), maxPool), prop.ForAll(
				func(seed uint64, n int) string {
					g := paddedGraph(seed, n)
					c, plan, err := aliasplan.New(aliasplan.Options{Strategy: s, MaxPoolSize: maxPool}).PlanCompiled(&aliasplan.Graph{Graph: *g})
					if err != nil {
						return "plan: " + err.Error()
					}
					if err := verify.Plan(c, plan); err != nil {
						return "verify: " + err.Error()
					}
					if st := plan.Stats; st.PooledBytes > st.TransientBytes {
						return fmt.Sprintf("pools %d bytes > pooled resources %d bytes", st.PooledBytes, st.TransientBytes)
					}
					return ""
				},
				gen.UInt64(), gen.IntRange(1, 24),
			))
		}
	}
	props.TestingRun(t)
}

// The example of the issue, by hand: eight 256-byte buffers with 64 KiB
// alignment that all interfere.
func TestPaddingExample(t *testing.T) {
	g := &planner.Graph{}
	var w, r []planner.Access
	for i := 0; i < 8; i++ {
		id := g.AddResource(planner.Resource{Name: fmt.Sprintf("b%d", i), Kind: planner.KindBuffer, Buffer: planner.BufferDesc{Size: 256},
			Requirements: &planner.Requirements{Size: 256, Alignment: 64 << 10, MemoryTypeBits: 0x1f}})
		w = append(w, planner.Access{Resource: id, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageWrite})
		r = append(r, planner.Access{Resource: id, Stages: vk.StageComputeShader, Access: vk.AccessShaderStorageRead})
	}
	g.AddCommand("write", w...)
	g.AddCommand("read", r...)
	plan, err := aliasplan.New(aliasplan.Options{Strategy: firstfit.New()}).Plan(&aliasplan.Graph{Graph: *g})
	if err != nil {
		t.Fatal(err)
	}
	if st := plan.Stats; st.PooledBytes > st.TransientBytes || st.PooledBytes+st.DedicatedBytes != 2048 {
		t.Fatalf("stats %d pooled, %d transient, %d dedicated; want no more than 2048 bytes in all", st.PooledBytes, st.TransientBytes, st.DedicatedBytes)
	}
}
