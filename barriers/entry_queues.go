package barriers

import "github.com/aliasplan/aliasplan/planner"

// PlanQueues returns the queues p submits batches to (graphics alone when
// p has no submissions) and the queue of the batch that holds its first
// command, where the entry barrier is recorded.
func PlanQueues(p *planner.Plan) (used planner.QueueSet, entry planner.Queue) {
	if len(p.Submissions) == 0 {
		return planner.QueueSet(1) << planner.QueueGraphics, planner.QueueGraphics
	}
	entry = p.Submissions[0].Queue
	found := false
	for _, s := range p.Submissions {
		used |= planner.QueueSet(1) << s.Queue
		if !found && len(p.Order) > 0 {
			for _, c := range s.Commands {
				if c == p.Order[0] {
					entry, found = s.Queue, true
					break
				}
			}
		}
	}
	return used, entry
}

// QueueFrames is what a frame sequence's next frame must wait for across
// queues (planner.FrameWait): per queue, the frame that last submitted a
// batch on it and, per pair, the frame of the batch on After that Queue
// last waited for. The zero value starts a sequence. Each queue's first
// batch waits for every queue whose latest batch it has not waited for,
// except the entry barrier's queue for itself when the last entry barrier
// was on the same queue (the barriers chain there and order it):
// conservative (a wait a semaphore inside a frame already implied is kept),
// correct by construction.
type QueueFrames struct {
	frame  uint64
	ran    [planner.NumQueues]uint64
	waited [planner.NumQueues][planner.NumQueues]uint64
	// entry is the queue of the last entry barrier, +1 (0: none yet):
	// the entry barriers chain on one queue only.
	entry int
}

// Next returns the waits of p, the next frame (pools says whether it has
// pooled resources; one without needs none, and what it leaves unordered
// passes on to the next frame), and records it. O(queues²).
func (s *QueueFrames) Next(p *planner.Plan, pools bool) []planner.FrameWait {
	s.frame++
	used, entry := PlanQueues(p)
	var waits []planner.FrameWait
	if pools {
		for r := planner.Queue(0); r < planner.NumQueues; r++ {
			if used&(planner.QueueSet(1)<<r) == 0 {
				continue
			}
			for q := planner.Queue(0); q < planner.NumQueues; q++ {
				if s.ran[q] <= s.waited[r][q] || (r == entry && q == entry && s.entry == int(entry)+1) {
					continue
				}
				waits = append(waits, planner.FrameWait{Queue: r, After: q})
				s.waited[r][q] = s.ran[q]
			}
		}
		s.entry = int(entry) + 1
	}
	for q := planner.Queue(0); q < planner.NumQueues; q++ {
		if used&(planner.QueueSet(1)<<q) != 0 {
			s.ran[q] = s.frame
		}
	}
	return waits
}
