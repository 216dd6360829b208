package planner

// FrameWait is an ordering across frames of a multi-queue frame sequence
// (aliasplan.Frames; Plan.FrameWaits): this frame's first batch on Queue
// waits, at ALL_COMMANDS, for a semaphore that the last batch submitted
// on After before this frame (in whichever earlier frame last used After)
// signalled at ALL_COMMANDS. With one timeline semaphore per queue, whose
// value each frame's last batch on the queue advances, it is a wait for
// After's latest value; with binary semaphores, the batch on After that
// was last before this frame signals one semaphore per FrameWait naming
// it. A queue's own earlier frames are ordered by the entry barrier on the
// queue that runs the plan's first command (Plan.Entry) and by FrameWaits
// with Queue == After on every other queue.
type FrameWait struct {
	Queue Queue // the queue whose first batch of this frame waits
	After Queue // the queue whose last earlier batch signals
}
