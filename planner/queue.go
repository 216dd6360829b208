package planner

import (
	"fmt"

	"github.com/aliasplan/aliasplan/vk"
)

// Queue names the queue a command runs on (SPEC §2). Commands of one queue
// keep their recorded order there; a DAG edge between commands of
// different queues is realised by a semaphore (see Submission).
type Queue uint8

// The queues a command may name. The zero value is graphics, so graphs
// written before queues existed keep their meaning.
const (
	QueueGraphics Queue = iota
	QueueCompute
	QueueTransfer
	NumQueues = 3
)

// String returns the queue's name as graph files spell it.
func (q Queue) String() string {
	switch q {
	case QueueGraphics:
		return "graphics"
	case QueueCompute:
		return "compute"
	case QueueTransfer:
		return "transfer"
	}
	return fmt.Sprintf("Queue(%d)", uint8(q))
}

// ParseQueue returns the queue a graph file names.
func ParseQueue(s string) (Queue, bool) {
	switch s {
	case "graphics":
		return QueueGraphics, true
	case "compute":
		return QueueCompute, true
	case "transfer":
		return QueueTransfer, true
	}
	return 0, false
}

// Submission is one batch of one queue's commands, submitted with one
// vkQueueSubmit2: it waits on Wait before its first command and signals
// Signal after its last.
type Submission struct {
	Queue    Queue
	Commands []CommandID // in execution order
	Wait     []SemaphoreOp
	Signal   []SemaphoreOp
}

// SemaphoreOp is one binary-semaphore wait or signal of a submission.
// Semaphore indexes the plan's semaphores (0 .. Plan.Semaphores-1); each
// is signalled by exactly one submission and waited on by exactly one.
// Stages is the wait's stage mask (the stages of the later uses it
// orders), or the signal's (the stages of the earlier uses).
type SemaphoreOp struct {
	Semaphore int
	Stages    vk.Stage
}

// Rules for queues (graph files, Validate and plans).
const (
	// RuleQueue: a command names an unknown queue, or uses a stage or
	// layout its queue cannot execute (a compute command at
	// COLOR_ATTACHMENT_OUTPUT, a transfer command in a shader stage).
	RuleQueue Rule = "queue"
	// RuleSubmission: the plan's submissions are malformed (a command in
	// no submission of its queue or in two, an order within a queue that
	// is not the execution order, a wait on a semaphore that is signalled
	// by a later submission or not at all, a semaphore signalled or
	// waited twice), or a dependency or an alias across queues is not
	// covered by a signal→wait chain with sufficient stage masks.
	RuleSubmission Rule = "submission"
	// RuleQueueDepthTransfer: a command on the compute or transfer queue
	// clears, copies, blits or resolves a depth/stencil image. Vulkan
	// allows vkCmdClearDepthStencilImage and the depth/stencil aspects of
	// buffer-image copies only on a queue family with graphics, and the
	// logical compute and transfer queues map to families without it
	// where the device has them.
	RuleQueueDepthTransfer Rule = "queue-depth-transfer"
)

// depthTransferStages are the stages of an access that records a clear,
// a copy, a blit or a resolve.
const depthTransferStages = vk.StageClear | vk.StageCopy | vk.StageAllTransfer | vk.StageBlit | vk.StageResolve

// QueueSet is a set of queues: bit q holds Queue q.
type QueueSet uint8

// Add returns s with q in it.
func (s QueueSet) Add(q Queue) QueueSet { return s | 1<<q }

// Has reports whether q is in s.
func (s QueueSet) Has(q Queue) bool { return s&(1<<q) != 0 }

// Len is the number of queues in s.
func (s QueueSet) Len() int {
	n := 0
	for q := Queue(0); q < NumQueues; q++ {
		if s.Has(q) {
			n++
		}
	}
	return n
}

// Concurrent reports whether the resource that s is the queue set of is
// shared between queues: the plan synchronizes it with semaphores and
// expects it created with VK_SHARING_MODE_CONCURRENT over the families
// those queues map to (no ownership transfers; a device that maps them
// all to one family creates it EXCLUSIVE). See ResourcePlan.Queues.
func (s QueueSet) Concurrent() bool { return s.Len() > 1 }

// String lists the queues, "graphics+compute".
func (s QueueSet) String() string {
	out := ""
	for q := Queue(0); q < NumQueues; q++ {
		if s.Has(q) {
			if out != "" {
				out += "+"
			}
			out += q.String()
		}
	}
	return out
}

// AddCommandOn appends a command that runs on queue q (AddCommand runs it
// on graphics) and returns its ID. The accesses slice is retained.
func (g *Graph) AddCommandOn(q Queue, name string, accesses ...Access) CommandID {
	g.Commands = append(g.Commands, Command{Name: name, Accesses: accesses, Queue: q})
	return CommandID(len(g.Commands) - 1)
}

// MultiQueue reports whether some command of g runs on another queue than
// graphics: only then does a plan have submissions.
func (g *Graph) MultiQueue() bool {
	for i := range g.Commands {
		if g.Commands[i].Queue != QueueGraphics {
			return true
		}
	}
	return false
}

// queueStages are the stages a command of each queue may name: what a
// queue with only that capability (COMPUTE, TRANSFER) can execute.
// Graphics may name every stage.
var queueStages = [NumQueues]vk.Stage{
	QueueGraphics: ^vk.Stage(0),
	QueueCompute: vk.StageTopOfPipe | vk.StageBottomOfPipe | vk.StageAllCommands | vk.StageHost |
		vk.StageDrawIndirect | vk.StageComputeShader | vk.StageAllTransfer | vk.StageCopy | vk.StageClear |
		vk.StageAccelerationStructureBuild | vk.StageAccelerationStructureCopy | vk.StageRayTracingShader |
		vk.StageMicromapBuildEXT | vk.StageConditionalRenderingEXT,
	QueueTransfer: vk.StageTopOfPipe | vk.StageBottomOfPipe | vk.StageAllCommands | vk.StageHost |
		vk.StageAllTransfer | vk.StageCopy | vk.StageClear,
}

// QueueStages returns the stages a command of queue q may name (every
// stage on graphics; compute and transfer what a queue of only that
// capability executes).
func QueueStages(q Queue) vk.Stage {
	if q >= NumQueues {
		return 0
	}
	return queueStages[q]
}

// queueLayout reports whether a command of queue q may need layout l: no
// attachment layouts off graphics, only GENERAL and the transfer layouts
// on transfer.
func queueLayout(q Queue, l vk.Layout) bool {
	switch q {
	case QueueCompute:
		switch l {
		case vk.LayoutColorAttachmentOptimal, vk.LayoutDepthStencilAttachmentOptimal, vk.LayoutDepthAttachmentOptimal,
			vk.LayoutStencilAttachmentOptimal, vk.LayoutAttachmentOptimal, vk.LayoutDepthReadOnlyStencilAttachmentOptimal,
			vk.LayoutDepthAttachmentStencilReadOnlyOptimal, vk.LayoutFragmentShadingRateAttachmentOptimal,
			vk.LayoutFragmentDensityMapOptimalEXT, vk.LayoutAttachmentFeedbackLoopOptimalEXT:
			return false
		}
	case QueueTransfer:
		return l == vk.LayoutGeneral || l == vk.LayoutTransferSrcOptimal || l == vk.LayoutTransferDstOptimal
	}
	return true
}

// validateQueue checks a command's queue and that its accesses name only
// stages and layouts that queue can execute.
func validateQueue(g *Graph, cmd *Command) error {
	if cmd.Queue >= NumQueues {
		return &GraphError{Command: cmd.Name, Access: -1, Rule: RuleQueue, Detail: fmt.Sprintf("unknown queue %d (want graphics, compute or transfer)", uint8(cmd.Queue))}
	}
	for ai, a := range cmd.Accesses {
		if bad := a.Stages &^ queueStages[cmd.Queue]; bad != 0 {
			e := &GraphError{Command: cmd.Name, Access: ai, Rule: RuleQueue,
				Detail: fmt.Sprintf("stages %s cannot run on the %s queue", bad, cmd.Queue)}
			if a.Resource >= 0 && int(a.Resource) < len(g.Resources) {
				e.Resource = g.Resources[a.Resource].Name
			}
			return e
		}
		if a.Resource >= 0 && int(a.Resource) < len(g.Resources) && g.Resources[a.Resource].Kind == KindImage && !queueLayout(cmd.Queue, a.Layout) {
			return &GraphError{Command: cmd.Name, Access: ai, Resource: g.Resources[a.Resource].Name, Rule: RuleQueue,
				Detail: fmt.Sprintf("layout %s cannot be used on the %s queue", a.Layout, cmd.Queue)}
		}
		if cmd.Queue != QueueGraphics && a.Resource >= 0 && int(a.Resource) < len(g.Resources) && a.Stages&depthTransferStages != 0 {
			if r := &g.Resources[a.Resource]; r.Kind == KindImage && r.Image.Format.IsDepthStencil() {
				return &GraphError{Command: cmd.Name, Access: ai, Resource: r.Name, Rule: RuleQueueDepthTransfer,
					Detail: fmt.Sprintf("clears or copies the depth/stencil image (format %s) on the %s queue: Vulkan allows that only on a queue family with graphics", r.Image.Format, cmd.Queue)}
			}
		}
	}
	return nil
}

// CanRunOn reports whether command cmd's accesses name only stages and
// layouts that queue q can execute (what Validate asks of its own queue).
func (g *Graph) CanRunOn(cmd CommandID, q Queue) bool {
	c := g.Commands[cmd]
	c.Queue = q
	return validateQueue(g, &c) == nil
}
