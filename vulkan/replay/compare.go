package replay

import (
	"fmt"
	"github.com/aliasplan/aliasplan/verify"
	"hash/fnv"
	"regexp"
	"slices"
	"strings"
	"unsafe"

	vk "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/barriers"
	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan"
)

// Config says how Compare runs.
type Config struct {
	// Runs is how many timed runs each mode gets (at least 1); every run
	// is also compared, so Runs ≥ 2 checks determinism within a mode.
	Runs int
	// PerCommand also times every command (separate runs, Runs of them
	// per mode, with a timestamp before each command).
	PerCommand bool
}

// Report is what Compare measured.
type Report struct {
	Device    string `json:"device"`
	Commands  int    `json:"commands"`
	Resources int    `json:"resources"`
	Runs      int    `json:"runs"`

	TransientBytes uint64 `json:"transientBytes"` // sum of the pooled resources' sizes: memory without aliasing
	PooledBytes    uint64 `json:"pooledBytes"`    // sum of the aliased plan's pools
	AliasBarriers  int    `json:"aliasBarriers"`
	HazardBarriers int    `json:"hazardBarriers"`
	// Serializations counts the aliased pairs the DAG leaves unordered
	// (execution and budget orders): the alias barriers that order them
	// are what the aliased run pays for the memory they save.
	Serializations int `json:"serializations"`

	// DigestsEqual: every command's digest and every imported (and
	// host-visible) resource's final contents were bit-identical across
	// all runs of both modes (aliased run twice or more, unaliased).
	DigestsEqual bool     `json:"digestsEqual"`
	Mismatches   []string `json:"mismatches,omitempty"`
	// ValidationMessages counts the validation layer's warnings and
	// errors during both modes (0 without validation).
	ValidationMessages int      `json:"validationMessages"`
	Messages           []string `json:"messages,omitempty"`
	// LayerQuirks counts, by name, the messages that are known false
	// positives of the validation layer (see LayerQuirk); they are not in
	// ValidationMessages.
	LayerQuirks map[string]int `json:"layerQuirks,omitempty"`

	GPUNsAliased   uint64          `json:"gpuNsAliased"` // median frame time
	GPUNsUnaliased uint64          `json:"gpuNsUnaliased"`
	PerCommand     []CommandTime   `json:"perCommand,omitempty"`
	Digests        []CommandDigest `json:"digests"`
}

// CommandTime is one command's median GPU time (timestamp before it to
// timestamp before the next; its barriers included) in each mode.
type CommandTime struct {
	Command     string `json:"command"`
	NsAliased   uint64 `json:"nsAliased"`
	NsUnaliased uint64 `json:"nsUnaliased"`
}

// CommandDigest is one command's digest of everything its shaders read
// (0 for commands that only transfer: their effect shows in what reads
// their destination).
type CommandDigest struct {
	Command string `json:"command"`
	Digest  uint64 `json:"digest"`
}

// Unaliased returns the unaliased twin of plan, a plan for g: every
// pooled resource in a pool of its own (offset 0, same memory type and
// size), the same execution order, and the barriers barriers.Build makes
// for that placement: the same hazard barriers and no alias barrier. The
// barriers are rebuilt rather than filtered: a plan may leave out a hazard
// barrier that an alias memory barrier already implies, so dropping the
// alias barriers alone loses synchronization (the H200 replay showed it).
// The result passes verify.Plan.
func Unaliased(g *p.Graph, plan *p.Plan) (*p.Plan, error) {
	u := *plan
	u.Pools = nil
	u.Resources = slices.Clone(plan.Resources)
	u.Order = slices.Clone(plan.Order)
	// Nothing shares bytes, so nothing is serialized: the twin is a DAG
	// plan whatever the aliased plan's ordering (a budget would not hold).
	u.Serializations = nil
	u.Entry = nil // the twin runs alone, in memory of its own
	u.Ordering, u.Budget = p.OrderDAG, 0
	u.Stats.PooledBytes = 0
	for id := range u.Resources {
		rp := &u.Resources[id]
		if rp.Status != p.StatusPooled {
			continue
		}
		old := plan.Pools[rp.Placement.Pool]
		i := len(u.Pools)
		u.Pools = append(u.Pools, p.Pool{Index: i, MemoryTypeIndex: old.MemoryTypeIndex, Class: old.Class, Size: rp.Placement.Size})
		rp.Placement.Pool, rp.Placement.Offset, rp.Placement.Aliased = i, 0, false
		u.Stats.PooledBytes += rp.Placement.Size
	}
	c, err := p.Compile(dgcPlannable(g)) // dgc.go: the graph as given, without the replay's preprocess usage
	if err != nil {
		return nil, fmt.Errorf("replay: unaliased twin: %w", err)
	}
	u.Barriers = nil
	if err := barriers.Build(c, &u); err != nil {
		return nil, fmt.Errorf("replay: unaliased twin: %w", err)
	}
	if err := verify.Plan(c, &u); err != nil {
		return nil, fmt.Errorf("replay: unaliased twin: %w", err)
	}
	u.Strategy = "unaliased"
	return &u, nil
}

// Run is one mode's results, for tests that build their own plans
// (negative controls): the digests of every run, compared.
type Run struct {
	res []result
}

// RunPlan binds plan (made with Source, or with a fresh Resources of the
// graph when fresh) and runs it runs times; it returns the runs' results
// and the validation messages they produced.
func (r *Replayer) RunPlan(plan *p.Plan, runs int, fresh bool) (*Run, []vulkan.Message, error) {
	defer pauseGC()()
	if len(plan.Submissions) > 0 {
		return nil, nil, fmt.Errorf("replay: the plan has %d submissions across queues: use CompareQueues", len(plan.Submissions))
	}
	if err := r.checkOrder(plan.Order); err != nil {
		return nil, nil, err
	}
	res := r.src
	if fresh {
		res = r.k.dev.NewResources(r.g)
	}
	m, err := r.bind(res, plan, fresh)
	if err != nil {
		return nil, r.k.dev.TakeMessages(), err
	}
	defer m.close()
	out := &Run{}
	for i := 0; i < max(runs, 1); i++ {
		x, err := r.runOnce(m, false)
		if err != nil {
			return nil, r.k.dev.TakeMessages(), err
		}
		out.res = append(out.res, x)
	}
	return out, r.k.dev.TakeMessages(), nil
}

// Diff lists what differs between two runs' results (nil when
// bit-identical): commands whose digests differ, imported and
// host-visible resources whose final contents differ.
func (r *Replayer) Diff(a, b *Run) []string {
	return r.diff(a.res[0], b.res[0])
}

// Deterministic reports whether every run of a matched its first.
func (r *Replayer) Deterministic(a *Run) []string {
	var out []string
	for i := 1; i < len(a.res); i++ {
		for _, d := range r.diff(a.res[0], a.res[i]) {
			out = append(out, fmt.Sprintf("run %d: %s", i+1, d))
		}
	}
	return out
}

func (r *Replayer) runOnce(m *mode, profiled bool) (result, error) {
	if err := r.ensureReadback(m.plan.Order); err != nil {
		return result{}, err
	}
	cb := m.cbs[0]
	nts := uint32(2)
	if profiled {
		cb = m.cbs[1]
		nts = uint32(len(m.plan.Order) + 1)
	}
	if err := r.poisonPools(m); err != nil { // poison.go
		return result{}, err
	}
	if err := r.hostWrite(m); err != nil { // host.go
		return result{}, err
	}
	if err := r.submit(cb); err != nil {
		return result{}, err
	}
	return r.collect(m, nts)
}

// digest folds a command's lanes.
func (r *Replayer) digest(x result, w *work) uint64 {
	h := fnv.New64a()
	var buf [4]byte
	any := false
	for _, pt := range w.allParts() {
		if pt == nil {
			continue
		}
		any = true
		for _, v := range x.lanes[pt.index*lanesPerCmd : (pt.index+1)*lanesPerCmd] {
			buf[0], buf[1], buf[2], buf[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
			h.Write(buf[:])
		}
	}
	if !any {
		return 0
	}
	return h.Sum64()
}

func (r *Replayer) diff(a, b result) []string {
	var out []string
	for i := range r.works {
		w := &r.works[i]
		if da, db := r.digest(a, w), r.digest(b, w); da != db {
			out = append(out, fmt.Sprintf("command %q: digest %016x vs %016x", w.name, da, db))
		}
	}
	for i, o := range r.imports {
		if a.imports[i] != b.imports[i] {
			out = append(out, fmt.Sprintf("imported %q: final contents differ", r.g.Resources[o.id].Name))
		}
	}
	for i := range a.lone { // lonecopy.go
		if i < len(b.lone) && a.lone[i] != b.lone[i] {
			out = append(out, fmt.Sprintf("lone copy read %d: the bytes read differ", i))
		}
	}
	for i := range a.host {
		if i < len(b.host) && a.host[i] != b.host[i] {
			out = append(out, fmt.Sprintf("host-visible %q: final contents differ", r.g.Resources[a.hostIDs[i]].Name))
		}
	}
	return out
}

func median(xs []uint64) uint64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// Compare runs plan (made with Source) and its unaliased twin, Runs
// times each, alternating, and compares every run's digests and final
// contents. The report's ValidationMessages counts every message of the
// layer meanwhile (binding included).
func (r *Replayer) Compare(plan *p.Plan, cfg Config) (*Report, error) {
	defer pauseGC()()
	if len(plan.Submissions) > 0 {
		return nil, fmt.Errorf("replay: the plan has %d submissions across queues: use CompareQueues", len(plan.Submissions))
	}
	if err := r.checkOrder(plan.Order); err != nil {
		return nil, err
	}
	runs := max(cfg.Runs, 1)
	rep := &Report{Device: r.k.dev.Describe(), Commands: len(r.g.Commands), Resources: len(r.g.Resources), Runs: runs,
		TransientBytes: plan.Stats.TransientBytes, PooledBytes: plan.Stats.PooledBytes,
		Serializations: len(plan.Serializations)}
	for _, b := range plan.Barriers {
		if b.Kind == p.Alias {
			rep.AliasBarriers++
		} else {
			rep.HazardBarriers++
		}
	}
	var msgs []vulkan.Message
	a, err := r.bind(r.src, plan, false)
	if err != nil {
		return nil, err
	}
	defer a.close()
	up, err := Unaliased(r.g, plan)
	if err != nil {
		return nil, err
	}
	u, err := r.bind(r.k.dev.NewResources(r.g), up, true)
	if err != nil {
		return nil, err
	}
	defer u.close()
	var ra, ru []result
	var ta, tu []uint64
	// One warm-up run each (drivers compile pipelines lazily), compared
	// like the others but not timed.
	for _, m := range []*mode{a, u} {
		x, err := r.runOnce(m, false)
		if err != nil {
			return nil, err
		}
		if m == a {
			ra = append(ra, x)
		} else {
			ru = append(ru, x)
		}
	}
	for i := 0; i < runs; i++ {
		x, err := r.runOnce(a, false)
		if err != nil {
			return nil, err
		}
		y, err := r.runOnce(u, false)
		if err != nil {
			return nil, err
		}
		ra, ru = append(ra, x), append(ru, y)
		ta, tu = append(ta, x.ns[1]), append(tu, y.ns[1])
	}
	rep.GPUNsAliased, rep.GPUNsUnaliased = median(ta), median(tu)
	if cfg.PerCommand {
		n := len(plan.Order)
		pa := make([][]uint64, n)
		pu := make([][]uint64, n)
		for i := 0; i < runs; i++ {
			x, err := r.runOnce(a, true)
			if err != nil {
				return nil, err
			}
			y, err := r.runOnce(u, true)
			if err != nil {
				return nil, err
			}
			ra, ru = append(ra, x), append(ru, y)
			for k := 0; k < n; k++ {
				pa[k] = append(pa[k], x.ns[k+1]-x.ns[k])
				pu[k] = append(pu[k], y.ns[k+1]-y.ns[k])
			}
		}
		for k, c := range plan.Order {
			rep.PerCommand = append(rep.PerCommand, CommandTime{Command: r.g.Commands[c].Name, NsAliased: median(pa[k]), NsUnaliased: median(pu[k])})
		}
	}
	for i, x := range ra {
		for _, d := range r.diff(ra[0], x) {
			rep.Mismatches = append(rep.Mismatches, fmt.Sprintf("aliased run %d vs 1: %s", i+1, d))
		}
	}
	for i, y := range ru {
		for _, d := range r.diff(ra[0], y) {
			rep.Mismatches = append(rep.Mismatches, fmt.Sprintf("unaliased run %d vs aliased run 1: %s", i+1, d))
		}
	}
	rep.DigestsEqual = len(rep.Mismatches) == 0
	for _, c := range plan.Order {
		rep.Digests = append(rep.Digests, CommandDigest{Command: r.g.Commands[c].Name, Digest: r.digest(ra[0], &r.works[c])})
	}
	msgs = append(msgs, r.k.dev.TakeMessages()...)
	msgs, rep.LayerQuirks = SplitQuirks(msgs)
	rep.ValidationMessages = len(msgs)
	names := r.handleNames(map[string]*mode{"aliased": a, "unaliased": u})
	for i, m := range msgs {
		if i == 20 {
			rep.Messages = append(rep.Messages, fmt.Sprintf("... and %d more", len(msgs)-20))
			break
		}
		rep.Messages = append(rep.Messages, annotate(m.String(), names))
	}
	return rep, nil
}

// LayerQuirk names the known false positive of synchronization
// validation (Khronos layer 1.3.239, Debian 12: the layer measured in
// ../shared/VULKAN-NOTES.md) that m is, or returns "":
//
//   - "fill-as-copy": a hazard against, or of, a vkCmdFillBuffer write
//     recorded as a COPY-stage write. The replay fills only for accesses declared
//     CLEAR, and the specification puts vkCmdFillBuffer in the CLEAR
//     stage, where the plan's barriers name it; this layer classes it as
//     COPY, so it misses the barrier.
//   - "vertex-attribute-barrier": a read-after-write hazard on a vertex
//     buffer read at VERTEX_ATTRIBUTE_INPUT although the plan records a
//     buffer barrier whose destination is exactly VERTEX_ATTRIBUTE_INPUT
//     / VERTEX_ATTRIBUTE_READ (this layer applies it to other stages:
//     the message's write_barriers list no VERTEX_ATTRIBUTE_INPUT).
//   - "layer-predates-dgc": the layer does not know
//     VK_EXT_device_generated_commands or VK_KHR_maintenance5 (dgc.go): it
//     warns that they are not supported and calls their structures'
//     sTypes unknown. It validates none of their use (a layer that knows
//     them reports nothing of the replay's: docs/replay.md).
//   - "mesh-stage-chain": a layout transition reported as a
//     write-after-write against a write the plan made visible to a task or
//     mesh shader stage, the transition's barrier chained from that stage
//     (mesh.go: this layer does not chain barriers through those stages).
//   - "ray-tracing-stage-chain": the same against a write made visible
//     to the RAY_TRACING_SHADER stage only (raygen.go, rtChainQuirk).
//
// The data checks (digests, final contents) still apply to both.
func LayerQuirk(m vulkan.Message) string {
	if generalLayoutAdvice(m) { // blocks.go
		return "general-layout-advice"
	}
	if layerPredatesDGC(m) { // dgc.go
		return "layer-predates-dgc"
	}
	if !strings.HasPrefix(m.ID, "SYNC-HAZARD-") {
		return ""
	}
	switch {
	case strings.Contains(m.Text, "prior_usage: SYNC_COPY_TRANSFER_WRITE") && strings.Contains(m.Text, "command: vkCmdFillBuffer"),
		strings.Contains(m.Text, "vkCmdFillBuffer: Hazard") && strings.Contains(m.Text, "(usage: SYNC_COPY_TRANSFER_WRITE,"),
		// The same at submit time (QUEUE_SUBMIT validation): a fill in a later submission.
		strings.Contains(m.Text, "recorded_usage: SYNC_COPY_TRANSFER_WRITE, command: vkCmdFillBuffer"):
		return "fill-as-copy"
	case strings.HasPrefix(m.ID, "SYNC-HAZARD-READ-AFTER-WRITE") && strings.Contains(m.Text, "(usage: SYNC_VERTEX_ATTRIBUTE_INPUT_VERTEX_ATTRIBUTE_READ,") &&
		strings.Contains(m.Text, "write_barriers: ") && !strings.Contains(m.Text, "|SYNC_VERTEX_ATTRIBUTE_INPUT_VERTEX_ATTRIBUTE_READ") &&
		!strings.Contains(m.Text, "write_barriers: SYNC_VERTEX_ATTRIBUTE_INPUT_VERTEX_ATTRIBUTE_READ"):
		return "vertex-attribute-barrier"
	case meshChainQuirk(m): // mesh.go
		return "mesh-stage-chain"
	case rtChainQuirk(m): // raygen.go
		return "ray-tracing-stage-chain"
	}
	return ""
}

// SplitQuirks separates the known layer false positives (LayerQuirk)
// from the other messages, counting them by name.
func SplitQuirks(msgs []vulkan.Message) (rest []vulkan.Message, quirks map[string]int) {
	quirks = map[string]int{}
	for _, m := range msgs {
		if q := LayerQuirk(m); q != "" {
			quirks[q]++
			continue
		}
		rest = append(rest, m)
	}
	return rest, quirks
}

// handleNames maps each graph resource's handle, as the validation layer
// prints it ("0x..."), to the resource's name and mode, so that messages
// say which resource they are about.
func (r *Replayer) handleNames(modes map[string]*mode) map[string]string {
	out := map[string]string{}
	for label, m := range modes {
		for id := range r.g.Resources {
			name := fmt.Sprintf("%s %q (%s)", r.g.Resources[id].Kind, r.g.Resources[id].Name, label)
			if b := m.res.Buffer(p.ResourceID(id)); b != vk.NullBuffer {
				out[fmt.Sprintf("%#x", uintptr(unsafe.Pointer(b)))] = name
			}
			if im := m.res.Image(p.ResourceID(id)); im != vk.NullImage {
				out[fmt.Sprintf("%#x", uintptr(unsafe.Pointer(im)))] = name
			}
		}
	}
	return out
}

var hexHandle = regexp.MustCompile(`0x[0-9a-f]+`)

// annotate appends the names of the graph resources a message mentions.
func annotate(msg string, names map[string]string) string {
	seen := map[string]bool{}
	var add []string
	for _, h := range hexHandle.FindAllString(msg, -1) {
		if n, ok := names[h]; ok && !seen[n] {
			seen[n] = true
			add = append(add, n)
		}
	}
	if len(add) == 0 {
		return msg
	}
	return msg + " [" + strings.Join(add, ", ") + "]"
}
