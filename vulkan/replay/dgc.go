package replay

import (
	"encoding/binary"
	"fmt"
	"regexp"
	"strings"
	"unsafe"

	vkg "github.com/goki/vulkan"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
	"github.com/aliasplan/aliasplan/vulkan"
	"github.com/aliasplan/aliasplan/vulkan/internal/vkext"
)

// Device-generated commands (VK_EXT_device_generated_commands; issue 21).
// A buffer a command reads in COMMAND_PREPROCESS with
// COMMAND_PREPROCESS_READ (the stage and access of
// vkCmdPreprocessGeneratedCommandsEXT's inputs; the NV names are the same
// bits) and in DRAW_INDIRECT with INDIRECT_COMMAND_READ (where
// vkCmdExecuteGeneratedCommandsEXT reads the same inputs again) is the
// sequence count of the command's generated dispatches: its first 32-bit
// word, at the buffer's device address where the plan put it, is
// VkGeneratedCommandsInfoEXT's sequenceCountAddress. The command records,
// with replay_dgc.comp's pipeline bound:
//
//   - vkCmdPreprocessGeneratedCommandsEXT (the layout is
//     EXPLICIT_PREPROCESS; the command buffer is its own state command
//     buffer) of at most dgcSequences sequences, into the command's
//     preprocess buffer: the graph's, where the command writes one
//     (COMMAND_PREPROCESS_WRITE, with INDIRECT_COMMAND_READ in
//     DRAW_INDIRECT: the execution reads it), else one of the replay's
//     own, sized by vkGetGeneratedCommandsMemoryRequirementsEXT;
//   - a barrier from the preprocess write (COMMAND_PREPROCESS,
//     COMMAND_PREPROCESS_WRITE) to the execution's read of it
//     (DRAW_INDIRECT, INDIRECT_COMMAND_READ);
//   - vkCmdExecuteGeneratedCommandsEXT(isPreprocessed).
//
// The token stream is the replay's own (one DISPATCH token per sequence,
// VkDispatchIndirectCommand, no execution set: the bound pipeline
// dispatches): sequences 0..indirectStride-1 dispatch no workgroup, the
// next dgcSpare one workgroup each. So the generated work is
// min(word, dgcSequences) - indirectStride workgroups, where the word is
// what the buffer held: a frame's compute writers of INDIRECT_BUFFER
// buffers write 12288+3k there (common.glsl's F_INDIRECT words, k < 32),
// any other word (a hash, a clobber) runs all dgcSpare. Each workgroup
// adds to the command's own lanes (part stDGC), so the digest sees the
// word: a stale or clobbered count changes it (TestDGCClobber). As in
// meshindirect.go the graph buffer is the count, not the token stream: a
// stream of the buffer's words would dispatch whatever workgroup counts
// they hold (a hash word is far over maxComputeWorkGroupCount), and no
// clamp of them could happen inside the declared accesses.
//
// A second layout (session 13) puts a PUSH_CONSTANT token before the
// DISPATCH: each sequence of its stream starts with a word of its own,
// pushed at offset 4 (replay_dgc.comp's token), so the lanes also see
// which sequences ran. The preprocessing command's seed picks the layout
// (dgcWork.push); a graph preprocess buffer too small for it falls back
// to the dispatch-only one.
//
// A graph preprocess buffer gets VK_BUFFER_USAGE_2_PREPROCESS_BUFFER_BIT_EXT
// in the replay's copy of the graph (dgcGraph: the model's usages cannot
// name it; vulkan.Resources creates it with VkBufferUsageFlags2CreateInfoKHR,
// so the plan is made with its real requirements); one smaller than
// vkGetGeneratedCommandsMemoryRequirementsEXT asks is refused naming both
// sizes, one the plan put at an address off the asked alignment too. Its
// contents are the implementation's: no digest sees them, and any other
// use of it (a read, an import, host visibility) is refused (dgcRules).
//
// Preprocessing in one command and executing in another (issue 21,
// session 13): a command whose count read is COMMAND_PREPROCESS /
// COMMAND_PREPROCESS_READ alone and that writes a graph preprocess buffer
// (COMMAND_PREPROCESS / COMMAND_PREPROCESS_WRITE alone) records only
// vkCmdPreprocessGeneratedCommandsEXT (its command buffer the state
// command buffer); a later command that reads that buffer and the same
// count in DRAW_INDIRECT with INDIRECT_COMMAND_READ records only
// vkCmdExecuteGeneratedCommandsEXT(isPreprocessed = VK_TRUE) with the same
// VkGeneratedCommandsInfoEXT and the same state bound (pipeline, the
// owner's descriptor set and seed: dgcRules). The plan's barriers order
// the preprocess buffer's COMMAND_PREPROCESS_WRITE before the execution's
// INDIRECT_COMMAND_READ, as Vulkan asks of a preprocessing done apart. The
// preprocess buffer is how the graph says which command executes what:
// an execution pairs with the command that last preprocessed into it
// before, in recorded order.
//
// Refused, by rule (dgcRules, dgcForm): a preprocessing alone without a
// graph preprocess buffer, an execution with nothing preprocessed before
// it or without its read of the count, a write of the count between a
// preprocessing and its execution (Vulkan: the inputs stay as the
// preprocessing read them), a count buffer without INDIRECT_BUFFER and
// SHADER_DEVICE_ADDRESS usage (Vulkan), a command that writes its count.
// By the device, as queried: no
// VK_EXT_device_generated_commands (a device with only the NV extension
// is told the replay uses the EXT), VK_KHR_maintenance5, their features,
// compute in supportedIndirectCommandsShaderStages, maxIndirectSequenceCount.

const (
	dgcSpare     = 96
	dgcSequences = indirectStride + dgcSpare
	dgcStride    = 12 // VkDispatchIndirectCommand
	// dgcPushStride: a sequence of the push-constant layout, its pushed
	// word and then its VkDispatchIndirectCommand.
	dgcPushStride = 16

	// stDGC is the generated dispatches' part (its lanes).
	stDGC stage = numBaseStages + 15

	dgcRead = vk.AccessCommandPreprocessReadNV | vk.AccessIndirectCommandRead
)

func init() { stageNames[stDGC] = "device-generated dispatch" }

// dgcWork is one command's device-generated commands: it preprocesses,
// executes, or both (see the top of this file and dgcRules).
type dgcWork struct {
	count p.ResourceID // the buffer whose first word is the sequence count (-1 until its access is seen)
	pre   p.ResourceID // the graph's preprocess buffer, -1 for the replay's own
	// What the declared accesses say the command does: countPre, its
	// read of the count in COMMAND_PREPROCESS; countExec, in DRAW_INDIRECT
	// (the execution's); preWrite, preRead: the preprocess buffer written
	// by the preprocessing, read by the execution.
	countPre, countExec, preWrite, preRead bool
	// push: the generated commands use the push-constant layout (a
	// PUSH_CONSTANT token before the DISPATCH), chosen by the
	// preprocessing command's seed (dgcRules), so generated frames have
	// both; an execution alone takes its preprocessing's.
	push bool
	// from: the command whose preprocessing an execution-only command
	// executes (-1 for none); owner: the command whose state (descriptor
	// set, seed, lanes: part stDGC) the generated commands use, the same
	// at the preprocessing and every execution of it (Vulkan). dgcRules
	// sets owner.
	from, owner p.CommandID
}

// preprocesses and executes say what the command records.
func (d *dgcWork) preprocesses() bool { return d.countPre }
func (d *dgcWork) executes() bool     { return d.countExec }

// dgcOf is w's device-generated commands, made on the first access.
func dgcOf(w *work) *dgcWork {
	if w.dgc == nil {
		w.dgc = &dgcWork{count: -1, pre: -1, from: -1, owner: w.cmd}
	}
	return w.dgc
}

// dgcExec is what a command executes of an earlier command's
// preprocessing: the preprocess buffer it reads in DRAW_INDIRECT with
// INDIRECT_COMMAND_READ, the command that last preprocessed into it
// before (in recorded order; -1 for none) and the count that command's
// preprocessing read (-1 for none).
type dgcExec struct {
	pre, count p.ResourceID
	from       p.CommandID
}

// dgcExecutes is what command c executes of another command's
// preprocessing (nil for none): a DRAW_INDIRECT read with
// INDIRECT_COMMAND_READ, and no COMMAND_PREPROCESS_WRITE, of a buffer
// some command preprocesses into (dgcGraph gave it
// BufferUsagePreprocessEXT).
func dgcExecutes(g *p.Graph, c p.CommandID) *dgcExec {
	cmd := &g.Commands[c]
	var ex *dgcExec
	for i := range cmd.Accesses {
		a := &cmd.Accesses[i]
		r := &g.Resources[a.Resource]
		if r.Kind != p.KindBuffer || r.Buffer.Usage&vulkan.BufferUsagePreprocessEXT == 0 || a.Stages&vk.StageDrawIndirect == 0 ||
			a.Access&vk.AccessIndirectCommandRead == 0 || resourceAccess(cmd, a.Resource)&vk.AccessCommandPreprocessWriteNV != 0 {
			continue
		}
		if ex == nil {
			ex = &dgcExec{pre: a.Resource, count: -1, from: -1}
		}
	}
	if ex == nil {
		return nil
	}
	for f := int(c) - 1; f >= 0 && ex.from < 0; f-- {
		fc := &g.Commands[f]
		for i := range fc.Accesses {
			a := &fc.Accesses[i]
			if a.Resource == ex.pre && a.Stages&vk.StageCommandPreprocessNV != 0 && a.Access&vk.AccessCommandPreprocessWriteNV != 0 {
				ex.from = p.CommandID(f)
			}
		}
	}
	if ex.from >= 0 {
		fc := &g.Commands[ex.from]
		for i := range fc.Accesses {
			a := &fc.Accesses[i]
			if a.Stages&vk.StageCommandPreprocessNV != 0 && a.Access&vk.AccessCommandPreprocessReadNV != 0 && ex.count < 0 {
				ex.count = a.Resource
			}
		}
	}
	return ex
}

// resourceAccess is the access flags of every access of cmd to r, OR-ed.
func resourceAccess(cmd *p.Command, r p.ResourceID) vk.AccessFlags {
	var f vk.AccessFlags
	for i := range cmd.Accesses {
		if cmd.Accesses[i].Resource == r {
			f |= cmd.Accesses[i].Access
		}
	}
	return f
}

// isDGC says whether access a (in stages st) is a device-generated
// commands input or preprocess buffer: of the preprocessing (in
// COMMAND_PREPROCESS), or of an execution of an earlier command's
// preprocessing (ex: its preprocess buffer and count, read in
// DRAW_INDIRECT with INDIRECT_COMMAND_READ).
func isDGC(a *p.Access, st vk.Stage, ex *dgcExec) bool {
	if st&vk.StageCommandPreprocessNV != 0 && a.Access&(vk.AccessCommandPreprocessReadNV|vk.AccessCommandPreprocessWriteNV) != 0 {
		return true
	}
	return ex != nil && (a.Resource == ex.pre || a.Resource == ex.count) && st&vk.StageDrawIndirect != 0 && a.Access&vk.AccessIndirectCommandRead != 0
}

// addDGC takes a device-generated commands input or preprocess buffer
// (isDGC).
func addDGC(g *p.Graph, w *work, a *p.Access, st vk.Stage, ex *dgcExec, left *vk.AccessFlags, bad func(string, ...any) error) error {
	r := &g.Resources[a.Resource]
	if r.Kind != p.KindBuffer {
		return bad("a device-generated commands input or preprocess buffer is a buffer (Vulkan: VkGeneratedCommandsInfoEXT takes device addresses)")
	}
	if r.Buffer.Usage&vk.BufferUsageShaderDeviceAddress == 0 {
		return bad("a device-generated commands buffer needs SHADER_DEVICE_ADDRESS usage (Vulkan: VkGeneratedCommandsInfoEXT takes its device address); the buffer has %s", r.Buffer.Usage)
	}
	pre := st&vk.StageCommandPreprocessNV != 0 && a.Access&(vk.AccessCommandPreprocessReadNV|vk.AccessCommandPreprocessWriteNV) != 0
	exec := st&vk.StageDrawIndirect != 0 && a.Access&vk.AccessIndirectCommandRead != 0
	d := dgcOf(w)
	if a.Access&vk.AccessCommandPreprocessWriteNV != 0 || !pre && ex != nil && a.Resource == ex.pre {
		// The preprocess buffer: written by the preprocessing, read by
		// the execution, nothing else.
		if other := a.Access &^ (vk.AccessCommandPreprocessWriteNV | vk.AccessIndirectCommandRead); other != 0 {
			return bad("a preprocess buffer (COMMAND_PREPROCESS_WRITE) accessed with %s too: its contents are the implementation's (Vulkan), for the execution alone", other)
		}
		if r.Imported || r.Memory != p.GPUOnly {
			return bad("an imported or host-visible preprocess buffer: the replay compares such a buffer's final bytes, and a preprocess buffer's are implementation-defined")
		}
		if d.pre >= 0 {
			return bad("a second preprocess buffer in one command (%s is its preprocess buffer)", g.Resources[d.pre].Name)
		}
		d.pre = a.Resource
		d.preWrite = a.Access&vk.AccessCommandPreprocessWriteNV != 0
		d.preRead = exec
		if !pre {
			d.from = ex.from
		}
		*left &^= vk.AccessCommandPreprocessWriteNV | vk.AccessIndirectCommandRead
		return nil
	}
	if r.Buffer.Usage&vk.BufferUsageIndirectBuffer == 0 {
		return bad("a device-generated commands input needs INDIRECT_BUFFER usage (Vulkan: the sequence count address); the buffer has %s", r.Buffer.Usage)
	}
	if r.Buffer.Size < 4 {
		return bad("a device-generated commands sequence count needs 4 bytes; the buffer has %d", r.Buffer.Size)
	}
	if a.Access&writeFlags != 0 {
		return bad("a command that writes the buffer its generated commands read (no barrier can order the two inside it)")
	}
	if d.count >= 0 {
		return bad("a second device-generated commands input in one command (the replay's command executes one generated sequence; %s is its count)", g.Resources[d.count].Name)
	}
	d.count = a.Resource
	d.countPre, d.countExec = pre, exec
	*left &^= dgcRead
	return nil
}

// dgcGraph is g with BufferUsagePreprocessEXT on every buffer a command
// writes with COMMAND_PREPROCESS_WRITE (the replay's copy: Resources
// creates and measures it with that usage, which the model cannot name);
// g itself when there is none.
func dgcGraph(g *p.Graph) *p.Graph {
	var out *p.Graph
	for c := range g.Commands {
		for _, a := range g.Commands[c].Accesses {
			r := &g.Resources[a.Resource]
			if a.Stages&vk.StageCommandPreprocessNV == 0 || a.Access&vk.AccessCommandPreprocessWriteNV == 0 || r.Kind != p.KindBuffer {
				continue
			}
			if out == nil {
				cp := *g
				cp.Resources = append([]p.Resource(nil), g.Resources...)
				out = &cp
			}
			out.Resources[a.Resource].Buffer.Usage |= vulkan.BufferUsagePreprocessEXT
		}
	}
	if out == nil {
		return g
	}
	return out
}

// dgcPlannable is g without BufferUsagePreprocessEXT (dgcGraph's bit,
// which no planner name has): the graph the planner validates; g itself
// when no buffer has it.
func dgcPlannable(g *p.Graph) *p.Graph {
	var out *p.Graph
	for i := range g.Resources {
		r := &g.Resources[i]
		if !(r.Kind == p.KindBuffer && r.Buffer.Usage&vulkan.BufferUsagePreprocessEXT != 0 ||
			r.Kind == p.KindImage && r.Image.Usage&vulkan.ImageUsageMutableFormatReplay != 0) {
			continue
		}
		if out == nil {
			cp := *g
			cp.Resources = append([]p.Resource(nil), g.Resources...)
			out = &cp
		}
		out.Resources[i].Buffer.Usage &^= vulkan.BufferUsagePreprocessEXT
		out.Resources[i].Image.Usage &^= vulkan.ImageUsageMutableFormatReplay // sint.go's mutableGraph
	}
	if out == nil {
		return g
	}
	return out
}

// dgcRules refuses, across commands, what the analysis of one cannot
// see, pairs every execution of an earlier command's preprocessing with
// it, and gives the generated commands of each pair one owner (a part
// stDGC: the lanes their dispatches add to). Refused: a preprocess
// buffer with no input to preprocess; a command whose declared accesses
// mix the two forms (preprocessing and execution in the command, or
// apart); a preprocessing alone without a graph preprocess buffer (the
// buffer is how a later command names what it executes); an execution
// with no preprocessing before it, or without the count's read, or with a
// command between the two that writes the count (Vulkan: an execution
// with isPreprocessed reads the inputs the preprocessing read, unchanged);
// any use of a preprocess buffer but the preprocessing and execution
// (its contents are implementation-defined: no digest can compare them).
//
// The owner of a command that preprocesses and executes, and of a
// preprocessing nothing executes, is the command itself; that of a
// preprocessing alone executed later is its first execution (the lanes are in
// that command's digest), and every later execution of the same
// preprocessing binds that state too (Vulkan: the state at execution is
// the state the preprocessing saw), so its dispatches add to the first
// execution's lanes.
func dgcRules(g *p.Graph, ws []work) error {
	pre := map[p.ResourceID]bool{}
	for i := range ws {
		if d := ws[i].dgc; d != nil && d.pre >= 0 {
			pre[d.pre] = true
		}
	}
	refuse := func(w *work, r p.ResourceID, format string, args ...any) error {
		cmd := &g.Commands[w.cmd]
		return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[r].Name, Access: describe(g, findAccess(cmd, r)), Reason: fmt.Sprintf(format, args...)}
	}
	executed := map[p.CommandID]bool{}
	for i := range ws {
		w := &ws[i]
		cmd := &g.Commands[w.cmd]
		if d := w.dgc; d != nil {
			if err := dgcForm(g, ws, w, refuse); err != nil {
				return err
			}
			d.push = w.seed&1 != 0
			if d.from >= 0 {
				fw := &ws[d.from]
				d.push = fw.dgc.push
				if !executed[d.from] && !fw.dgc.executes() {
					executed[d.from] = true
					fw.dgc.owner = w.cmd
				}
				d.owner = fw.dgc.owner
			}
		}
		for j := range cmd.Accesses {
			a := &cmd.Accesses[j]
			if pre[a.Resource] && (w.dgc == nil || w.dgc.pre != a.Resource) {
				return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[a.Resource].Name, Access: describe(g, a),
					Reason: "a use of a preprocess buffer outside device-generated commands: its contents are the implementation's (Vulkan), so no run's could be compared"}
			}
		}
	}
	for i := range ws {
		if d := ws[i].dgc; d != nil && d.owner == ws[i].cmd {
			ws[i].parts[stDGC] = &part{stage: stDGC}
		}
	}
	return nil
}

// dgcForm refuses w's device-generated commands where its accesses do
// not declare one of the three forms: preprocess and execute (the count
// read in COMMAND_PREPROCESS and DRAW_INDIRECT, a graph preprocess
// buffer written and read); preprocess alone (the count in
// COMMAND_PREPROCESS, a graph preprocess buffer written); execute alone
// (the count in DRAW_INDIRECT, the preprocess buffer of the command that
// last preprocessed into it read, the same count as that one's, not
// written between the two).
func dgcForm(g *p.Graph, ws []work, w *work, refuse func(*work, p.ResourceID, string, ...any) error) error {
	d := w.dgc
	switch {
	case d.count < 0 && d.preWrite:
		return refuse(w, d.pre, "a preprocess buffer with nothing to preprocess: the command reads no device-generated commands input (COMMAND_PREPROCESS_READ)")
	case d.from < 0 && !d.preWrite && !d.countPre:
		return refuse(w, d.pre, "an execution of a preprocess buffer no earlier command preprocessed into (COMMAND_PREPROCESS_WRITE): Vulkan executes with isPreprocessed only after vkCmdPreprocessGeneratedCommandsEXT")
	case d.count < 0:
		f := &ws[d.from]
		return refuse(w, d.pre, "an execution of %s's preprocessing that does not read its count %s: vkCmdExecuteGeneratedCommandsEXT reads the inputs again in DRAW_INDIRECT with INDIRECT_COMMAND_READ (Vulkan), so the command must declare that read", f.name, g.Resources[f.dgc.count].Name)
	case d.countPre && d.countExec:
		if d.pre >= 0 && !(d.preWrite && d.preRead) {
			return refuse(w, d.pre, "the command preprocesses and executes (its read of %s declares COMMAND_PREPROCESS and DRAW_INDIRECT), so its preprocess buffer is written by the preprocessing and read by the execution: declare COMMAND_PREPROCESS_WRITE with INDIRECT_COMMAND_READ in DRAW_INDIRECT", g.Resources[d.count].Name)
		}
	case d.countPre:
		if d.pre < 0 || !d.preWrite || d.preRead {
			return refuse(w, d.count, "a preprocessing with no execution in the command (COMMAND_PREPROCESS_READ without INDIRECT_COMMAND_READ in DRAW_INDIRECT) writes a graph preprocess buffer (COMMAND_PREPROCESS_WRITE alone), which the command that executes it reads in DRAW_INDIRECT with INDIRECT_COMMAND_READ: that buffer is how the graph says which command executes what")
		}
	default: // execution alone
		f := &ws[d.from]
		for c := d.from + 1; c < w.cmd; c++ {
			if resourceAccess(&g.Commands[c], d.count)&(writeFlags|vk.AccessMemoryWrite) != 0 {
				return refuse(w, d.count, "%s writes %s between %s's preprocessing and this execution of it: Vulkan executes preprocessed commands with the inputs the preprocessing read, unchanged", g.Commands[c].Name, g.Resources[d.count].Name, f.name)
			}
		}
	}
	return nil
}

// dgcKit is what the replay makes of its own for device-generated
// commands: replay_dgc.comp's pipeline, the indirect commands layout, the
// token stream, and per command a descriptor set (its lanes) and a
// preprocess buffer.
type dgcKit struct {
	fns        *vkext.DGC
	setLay     vkg.DescriptorSetLayout
	pipeLay    vkg.PipelineLayout
	pipe       vkg.Pipeline
	layout     unsafe.Pointer
	pool       vkg.DescriptorPool
	stream     ownBuffer
	streamAddr uint64
	// The push-constant layout (a PUSH_CONSTANT token, then DISPATCH;
	// dgcWork.push) and its stream: each sequence's first word is pushed
	// at offset 4, which replay_dgc.comp adds in.
	pushLayout     unsafe.Pointer
	pushStream     ownBuffer
	pushStreamAddr uint64
	cmds           map[p.CommandID]*dgcCmd
}

type dgcCmd struct {
	set       vkg.DescriptorSet
	pre       unsafe.Pointer // VkBuffer
	preMem    vkg.DeviceMemory
	preAddr   uint64
	preSize   uint64
	noPreproc bool   // the device needs no preprocess buffer (size 0)
	align     uint64 // the preprocess address's alignment (queried)
	types     uint32 // the memory types the preprocess buffer may live in (queried)
}

// dgcDevice refuses a frame with device-generated commands on a device
// that cannot run them, naming what it lacks as queried.
func (k *kit) dgcDevice(g *p.Graph, ws []work) error {
	if err := dgcRules(g, ws); err != nil {
		return err
	}
	for i := range ws {
		w := &ws[i]
		if w.dgc == nil {
			continue
		}
		if reason := k.dgcMissing(); reason != "" {
			cmd := &g.Commands[w.cmd]
			return &UnsupportedError{Command: cmd.Name, Resource: g.Resources[w.dgc.count].Name, Access: describe(g, findAccess(cmd, w.dgc.count)), Reason: reason}
		}
	}
	return nil
}

// dgcMissing names what the device lacks for the replay's device-generated
// commands ("" when it has everything and was opened with it).
func (k *kit) dgcMissing() string {
	name := k.dev.Info().Name
	ext, nv, m5, s := k.hooks.DGCSupport()
	switch {
	case !ext && nv:
		return fmt.Sprintf("%s has VK_NV_device_generated_commands but lacks VK_EXT_device_generated_commands (queried): the replay's device-generated commands are the EXT's (the NV extension's are not built)", name)
	case !ext:
		return fmt.Sprintf("%s lacks VK_EXT_device_generated_commands (queried): the device cannot run device-generated commands", name)
	case !m5:
		return fmt.Sprintf("%s lacks VK_KHR_maintenance5 (queried), which VK_EXT_device_generated_commands requires", name)
	case !s.DGC:
		return fmt.Sprintf("%s lacks the deviceGeneratedCommands feature (queried)", name)
	case !s.BDA || !s.Maintenance5:
		return fmt.Sprintf("%s lacks bufferDeviceAddress or maintenance5 (queried), which device-generated commands need", name)
	case s.Stages&uint32(vkg.ShaderStageComputeBit) == 0:
		return fmt.Sprintf("%s's supportedIndirectCommandsShaderStages (%#x, queried) lack the compute stage the replay's generated dispatches use", name, s.Stages)
	case s.MaxSequences < dgcSequences:
		return fmt.Sprintf("%s's maxIndirectSequenceCount is %d (queried), below the replay's %d sequences", name, s.MaxSequences, dgcSequences)
	case k.hooks.DGC() == nil:
		return "the device was opened without COMMAND_PREPROCESS in vulkan.Config.ReplayStages (replay.Stages(g) names it), so VK_EXT_device_generated_commands is not enabled"
	}
	return ""
}

// setupDGC makes the kit's device-generated commands objects (after
// setup has numbered the parts).
func (r *Replayer) setupDGC() error {
	k := r.k
	var cmds []*work
	for i := range r.works {
		if r.works[i].dgc != nil {
			cmds = append(cmds, &r.works[i])
		}
	}
	if len(cmds) == 0 {
		return nil
	}
	if k.hooks.DGC() == nil { // dgcDevice refused first; never reached
		return fmt.Errorf("replay: command %q: device-generated commands without VK_EXT_device_generated_commands enabled", cmds[0].name)
	}
	dk := &dgcKit{fns: k.hooks.DGC(), cmds: map[p.CommandID]*dgcCmd{}}
	k.dgc = dk
	binds := []vkg.DescriptorSetLayoutBinding{{Binding: 0, DescriptorType: vkg.DescriptorTypeStorageBuffer, DescriptorCount: 1,
		StageFlags: vkg.ShaderStageFlags(vkg.ShaderStageComputeBit)}}
	li := vkg.DescriptorSetLayoutCreateInfo{SType: vkg.StructureTypeDescriptorSetLayoutCreateInfo, BindingCount: 1, PBindings: binds}
	var setLay vkg.DescriptorSetLayout // out-parameters are locals: dk holds Go pointers
	res := vkg.CreateDescriptorSetLayout(k.vd, &li, nil, &setLay)
	dk.setLay = setLay
	li.Free()
	if err := vkCheck("vkCreateDescriptorSetLayout (device-generated commands)", res); err != nil {
		return err
	}
	pli := vkg.PipelineLayoutCreateInfo{SType: vkg.StructureTypePipelineLayoutCreateInfo, SetLayoutCount: 1, PSetLayouts: []vkg.DescriptorSetLayout{dk.setLay},
		PushConstantRangeCount: 1, PPushConstantRanges: []vkg.PushConstantRange{{StageFlags: vkg.ShaderStageFlags(vkg.ShaderStageComputeBit), Size: 8}}}
	var pipeLay vkg.PipelineLayout
	res = vkg.CreatePipelineLayout(k.vd, &pli, nil, &pipeLay)
	dk.pipeLay = pipeLay
	pli.Free()
	if err := vkCheck("vkCreatePipelineLayout (device-generated commands)", res); err != nil {
		return err
	}
	ci := []vkg.ComputePipelineCreateInfo{{SType: vkg.StructureTypeComputePipelineCreateInfo, Layout: dk.pipeLay,
		Stage: vkg.PipelineShaderStageCreateInfo{SType: vkg.StructureTypePipelineShaderStageCreateInfo, Stage: vkg.ShaderStageComputeBit, Module: k.modules["dgc.spv"], PName: "main\x00"}}}
	pipes := make([]vkg.Pipeline, 1)
	res = vkg.CreateComputePipelines(k.vd, vkg.NullPipelineCache, 1, ci, nil, pipes)
	ci[0].Free()
	if err := vkCheck("vkCreateComputePipelines (device-generated commands)", res); err != nil {
		return err
	}
	dk.pipe = pipes[0]
	l, rc := dk.fns.CreateDispatchLayout()
	if err := vkCheck("vkCreateIndirectCommandsLayoutEXT", vkg.Result(rc)); err != nil {
		return err
	}
	dk.layout = l
	var err error
	if dk.stream, dk.streamAddr, err = k.dgcBuffer(dgcSequences*dgcStride, vkg.BufferUsageIndirectBufferBit, true); err != nil {
		return err
	}
	if dk.pushLayout, rc = dk.fns.CreatePushDispatchLayout(unsafe.Pointer(dk.pipeLay)); vkCheck("vkCreateIndirectCommandsLayoutEXT (push constant)", vkg.Result(rc)) != nil {
		return vkCheck("vkCreateIndirectCommandsLayoutEXT (push constant)", vkg.Result(rc))
	}
	if dk.pushStream, dk.pushStreamAddr, err = k.dgcBuffer(dgcSequences*dgcPushStride, vkg.BufferUsageIndirectBufferBit, true); err != nil {
		return err
	}
	out, pout := dk.stream.bytes(), dk.pushStream.bytes()
	for j := 0; j < dgcSequences; j++ {
		v := uint32(0)
		if j >= indirectStride {
			v = 1
		}
		binary.LittleEndian.PutUint32(pout[dgcPushStride*j:], dgcPushWord(j))
		for c := 0; c < 3; c++ {
			binary.LittleEndian.PutUint32(out[dgcStride*j+4*c:], v)
			binary.LittleEndian.PutUint32(pout[dgcPushStride*j+4+4*c:], v)
		}
	}
	n := uint32(len(cmds))
	sizes := []vkg.DescriptorPoolSize{{Type: vkg.DescriptorTypeStorageBuffer, DescriptorCount: n}}
	pi := vkg.DescriptorPoolCreateInfo{SType: vkg.StructureTypeDescriptorPoolCreateInfo, MaxSets: n, PoolSizeCount: 1, PPoolSizes: sizes}
	var pool vkg.DescriptorPool
	res = vkg.CreateDescriptorPool(k.vd, &pi, nil, &pool)
	dk.pool = pool
	pi.Free()
	if err := vkCheck("vkCreateDescriptorPool (device-generated commands)", res); err != nil {
		return err
	}
	sizeD, alignD, typesD := dk.fns.Requirements(dk.layout, unsafe.Pointer(dk.pipe), dgcSequences)
	sizeP, alignP, typesP := dk.fns.Requirements(dk.pushLayout, unsafe.Pointer(dk.pipe), dgcSequences)
	for _, w := range cmds {
		size, align, types := sizeD, alignD, typesD
		if pre := w.dgc.pre; w.dgc.push && w.dgc.preprocesses() && pre >= 0 && r.g.Resources[pre].Buffer.Size < sizeP {
			// A graph preprocess buffer too small for the push-constant
			// layout (it needs more room per sequence): the dispatch-only
			// layout, refused below only if that does not fit either.
			w.dgc.push = false
		}
		if w.dgc.push {
			size, align, types = sizeP, alignP, typesP
		}
		dc := &dgcCmd{}
		dk.cmds[w.cmd] = dc
		if pt := w.parts[stDGC]; pt != nil {
			// An owner (dgcRules): the set of its lanes, which the
			// preprocessing and every execution of its commands bind.
			ai := vkg.DescriptorSetAllocateInfo{SType: vkg.StructureTypeDescriptorSetAllocateInfo, DescriptorPool: dk.pool, DescriptorSetCount: 1,
				PSetLayouts: []vkg.DescriptorSetLayout{dk.setLay}}
			var set vkg.DescriptorSet
			res := vkg.AllocateDescriptorSets(k.vd, &ai, &set)
			dc.set = set
			ai.Free()
			if err := vkCheck("vkAllocateDescriptorSets (device-generated commands)", res); err != nil {
				return err
			}
			wr := []vkg.WriteDescriptorSet{{SType: vkg.StructureTypeWriteDescriptorSet, DstSet: dc.set, DstBinding: 0, DescriptorCount: 1, DescriptorType: vkg.DescriptorTypeStorageBuffer,
				PBufferInfo: []vkg.DescriptorBufferInfo{{Buffer: r.lanes.buf, Offset: vkg.DeviceSize(uint64(pt.index) * laneBytes), Range: laneBytes}}}}
			vkg.UpdateDescriptorSets(k.vd, 1, wr, 0, nil)
			wr[0].Free()
		}
		if !w.dgc.preprocesses() {
			continue // an execution alone: the preprocessing command's buffer
		}
		if size == 0 {
			dc.noPreproc = true
			continue
		}
		dc.align, dc.types = align, types
		if pre := w.dgc.pre; pre >= 0 {
			// The graph's preprocess buffer (mode.dgcGenerated takes its
			// address where the plan put it).
			if have := r.g.Resources[pre].Buffer.Size; have < size {
				cmd := &r.g.Commands[w.cmd]
				return &UnsupportedError{Command: cmd.Name, Resource: r.g.Resources[pre].Name, Access: describe(r.g, findAccess(cmd, pre)),
					Reason: fmt.Sprintf("the preprocess buffer has %d bytes; %s needs %d (vkGetGeneratedCommandsMemoryRequirementsEXT for the replay's %d sequences, queried)", have, k.dev.Info().Name, size, dgcSequences)}
			}
			dc.preSize = size
			continue
		}
		if err := k.dgcPreprocessBuffer(dc, size, align, types); err != nil {
			return err
		}
	}
	return nil
}

// dgcPushWord is sequence j's pushed word in the push-constant layout's
// stream: distinct per sequence, so the digest sees which sequences ran.
func dgcPushWord(j int) uint32 { return hash32(uint32(j)*0x9E3779B1 + 0x7f4a7c15) }

// dgcBuffer is a buffer of the replay's own with a device address.
func (k *kit) dgcBuffer(size uint64, usage vkg.BufferUsageFlagBits, host bool) (ownBuffer, uint64, error) {
	info := vkg.BufferCreateInfo{SType: vkg.StructureTypeBufferCreateInfo, Size: vkg.DeviceSize(size), Usage: vkg.BufferUsageFlags(usage) | usageDeviceAddress}
	info.SharingMode, info.QueueFamilyIndexCount, info.PQueueFamilyIndices = k.sharing()
	var b vkg.Buffer
	res := vkg.CreateBuffer(k.vd, &info, nil, &b)
	info.Free()
	if err := vkCheck("vkCreateBuffer (device-generated commands)", res); err != nil {
		return ownBuffer{}, 0, err
	}
	ob := ownBuffer{buf: b, size: size}
	var req vkg.MemoryRequirements
	vkg.GetBufferMemoryRequirements(k.vd, b, &req)
	req.Deref()
	mem, err := k.addrMemory(uint64(req.Size), req.MemoryTypeBits, host)
	ob.mem = mem
	if err == nil {
		err = vkCheck("vkBindBufferMemory", vkg.BindBufferMemory(k.vd, b, ob.mem, 0))
	}
	if err == nil && host {
		var ptr unsafe.Pointer
		err = vkCheck("vkMapMemory", vkg.MapMemory(k.vd, ob.mem, 0, vkg.DeviceSize(vkg.WholeSize), 0, &ptr))
		ob.mapped = ptr
	}
	k.buffers = append(k.buffers, ob)
	if err != nil {
		return ob, 0, err
	}
	return ob, k.dgc.fns.BufferAddress(unsafe.Pointer(b)), nil
}

// addrMemory allocates memory with DEVICE_ADDRESS.
func (k *kit) addrMemory(size uint64, bits uint32, host bool) (vkg.DeviceMemory, error) {
	t, err := k.memoryType(bits, host, false)
	if err != nil {
		return vkg.NullDeviceMemory, err
	}
	flags := vkext.AllocateFlags()
	ai := vkg.MemoryAllocateInfo{SType: vkg.StructureTypeMemoryAllocateInfo, PNext: flags.Head(), AllocationSize: vkg.DeviceSize(size), MemoryTypeIndex: t}
	var m vkg.DeviceMemory
	res := vkg.AllocateMemory(k.vd, &ai, nil, &m)
	ai.Free()
	flags.Free()
	return m, vkCheck("vkAllocateMemory (device address)", res)
}

// dgcPreprocessBuffer makes a command's preprocess buffer: size bytes
// (vkGetGeneratedCommandsMemoryRequirementsEXT), PREPROCESS_BUFFER usage,
// memory of the types both it and the buffer allow.
func (k *kit) dgcPreprocessBuffer(dc *dgcCmd, size, align uint64, types uint32) error {
	fns := k.dgc.fns
	b, rc := fns.CreatePreprocessBuffer(size + align)
	if err := vkCheck("vkCreateBuffer (preprocess buffer)", vkg.Result(rc)); err != nil {
		return err
	}
	dc.pre = b
	var req vkg.MemoryRequirements
	vkg.GetBufferMemoryRequirements(k.vd, vkg.Buffer(b), &req)
	req.Deref()
	mem, err := k.addrMemory(uint64(req.Size), req.MemoryTypeBits&types, false)
	dc.preMem = mem
	if err != nil {
		return err
	}
	if err := vkCheck("vkBindBufferMemory (preprocess buffer)", vkg.BindBufferMemory(k.vd, vkg.Buffer(b), mem, 0)); err != nil {
		return err
	}
	addr := fns.BufferAddress(b)
	dc.preAddr = (addr + align - 1) / align * align
	dc.preSize = size
	return nil
}

// closeDGC destroys the kit's device-generated commands objects (the
// stream is one of k.buffers).
func (k *kit) closeDGC() {
	dk := k.dgc
	if dk == nil {
		return
	}
	for _, dc := range dk.cmds {
		if dc.pre != nil {
			dk.fns.DestroyBuffer(dc.pre)
		}
		if dc.preMem != vkg.NullDeviceMemory {
			vkg.FreeMemory(k.vd, dc.preMem, nil)
		}
	}
	if dk.layout != nil {
		dk.fns.DestroyLayout(dk.layout)
	}
	if dk.pushLayout != nil {
		dk.fns.DestroyLayout(dk.pushLayout)
	}
	if dk.pipe != vkg.NullPipeline {
		vkg.DestroyPipeline(k.vd, dk.pipe, nil)
	}
	if dk.pipeLay != vkg.NullPipelineLayout {
		vkg.DestroyPipelineLayout(k.vd, dk.pipeLay, nil)
	}
	if dk.pool != vkg.NullDescriptorPool {
		vkg.DestroyDescriptorPool(k.vd, dk.pool, nil)
	}
	if dk.setLay != vkg.NullDescriptorSetLayout {
		vkg.DestroyDescriptorSetLayout(k.vd, dk.setLay, nil)
	}
	k.dgc = nil
}

// recordDGC records w's device-generated commands (see the top of this
// file): with the owner's state bound (dgcRules), the preprocessing, the
// barrier and the execution where the command does both; the
// preprocessing alone, or the execution alone (isPreprocessed) of an
// earlier command's preprocessing, where the two are apart (the plan's
// barriers order the preprocess buffer's write before its read).
func (m *mode) recordDGC(cb vkg.CommandBuffer, w *work) {
	if w.dgc == nil {
		return
	}
	k := m.r.k
	dk := k.dgc
	owner := &m.r.works[w.dgc.owner]
	vkg.CmdBindPipeline(cb, vkg.PipelineBindPointCompute, dk.pipe)
	vkg.CmdBindDescriptorSets(cb, vkg.PipelineBindPointCompute, dk.pipeLay, 0, 1, []vkg.DescriptorSet{dk.cmds[owner.cmd].set}, 0, nil)
	consts := [2]uint32{owner.seed, 0} // the seed; the word a PUSH_CONSTANT token replaces (0 without one)
	vkg.CmdPushConstants(cb, dk.pipeLay, vkg.ShaderStageFlags(vkg.ShaderStageComputeBit), 0, 8, unsafe.Pointer(&consts[0]))
	gen, ok := m.dgcGenerated(w)
	if !ok {
		return
	}
	c := unsafe.Pointer(cb)
	d := w.dgc
	if d.preprocesses() {
		dk.fns.CmdPreprocess(c, gen)
	}
	if !d.executes() {
		return
	}
	if d.preprocesses() && !dk.cmds[w.cmd].noPreproc {
		k.hooks.Barrier(cb, &vkext.Barriers{Memory: []vkext.Scope{{
			SrcStages: uint64(vk.StageCommandPreprocessNV), SrcAccess: uint64(vk.AccessCommandPreprocessWriteNV),
			DstStages: uint64(vk.StageDrawIndirect | vk.StageCommandPreprocessNV), DstAccess: uint64(vk.AccessIndirectCommandRead | vk.AccessCommandPreprocessReadNV)}}})
	}
	dk.fns.CmdExecute(c, gen)
}

// dgcGenerated is the VkGeneratedCommandsInfoEXT of w's device-generated
// commands: the same for a preprocessing and each execution of it
// (Vulkan), made from the preprocessing command's preprocess buffer and
// the count, where this mode's plan put them. false (m.recErr set) when
// the plan put the preprocess buffer where the device does not allow it.
func (m *mode) dgcGenerated(w *work) (vkext.Generated, bool) {
	dk := m.r.k.dgc
	pw := w // the command that preprocesses
	if !w.dgc.preprocesses() {
		pw = &m.r.works[w.dgc.from]
	}
	dc := dk.cmds[pw.cmd]
	buf, _ := m.handle(w.dgc.count)
	preAddr := dc.preAddr
	if pre := pw.dgc.pre; pre >= 0 && !dc.noPreproc {
		pb, _ := m.handle(pre)
		preAddr = dk.fns.BufferAddress(unsafe.Pointer(pb))
		cmd := &m.r.g.Commands[pw.cmd]
		if rp := &m.plan.Resources[pre]; rp.Status == p.StatusPooled && dc.types&(1<<m.plan.Pools[rp.Placement.Pool].MemoryTypeIndex) == 0 {
			m.recErr = &UnsupportedError{Command: cmd.Name, Resource: m.r.g.Resources[pre].Name, Access: describe(m.r.g, findAccess(cmd, pre)),
				Reason: fmt.Sprintf("the plan put the preprocess buffer in memory type %d, outside the types %#x vkGetGeneratedCommandsMemoryRequirementsEXT allows (queried)", m.plan.Pools[rp.Placement.Pool].MemoryTypeIndex, dc.types)}
			return vkext.Generated{}, false
		}
		if preAddr%dc.align != 0 {
			m.recErr = &UnsupportedError{Command: cmd.Name, Resource: m.r.g.Resources[pre].Name, Access: describe(m.r.g, findAccess(cmd, pre)),
				Reason: fmt.Sprintf("the plan put the preprocess buffer at device address %#x, not a multiple of the %d bytes vkGetGeneratedCommandsMemoryRequirementsEXT asks for (queried)", preAddr, dc.align)}
			return vkext.Generated{}, false
		}
	}
	gen := vkext.Generated{Layout: dk.layout, Pipeline: unsafe.Pointer(dk.pipe), Stream: dk.streamAddr, StreamSize: dgcSequences * dgcStride,
		Preprocess: preAddr, PreprocessSz: dc.preSize, MaxSequences: dgcSequences, Count: dk.fns.BufferAddress(unsafe.Pointer(buf))}
	if pw.dgc.push {
		gen.Layout, gen.Stream, gen.StreamSize = dk.pushLayout, dk.pushStreamAddr, dgcSequences*dgcPushStride
	}
	return gen, true
}

// dgcUnknownSType matches a layer's complaint about an sType of
// VK_EXT_device_generated_commands (1000572xxx) or VK_KHR_maintenance5
// (1000470xxx) it does not know.
var dgcUnknownSType = regexp.MustCompile(`unknown VkStructureType \(10005720\d\d|unknown VkStructureType \(10004700\d\d`)

// layerPredatesDGC says whether m is a validation layer's note that it
// does not know the extensions the replay's device-generated commands
// use (LayerQuirk "layer-predates-dgc"): layer 1.3.239 warns at
// vkCreateDevice and reports their structures' sTypes as unknown in
// vkCreateDevice, vkGetPhysicalDeviceProperties2 and vkCreateBuffer.
func layerPredatesDGC(m vulkan.Message) bool {
	if strings.HasPrefix(m.ID, "VUID-") && strings.HasSuffix(m.ID, "-pNext-pNext") && dgcUnknownSType.MatchString(m.Text) {
		return true
	}
	return strings.Contains(m.Text, "Device Extension VK_EXT_device_generated_commands is not supported by this layer") ||
		strings.Contains(m.Text, "Device Extension VK_KHR_maintenance5 is not supported by this layer")
}
