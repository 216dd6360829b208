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
