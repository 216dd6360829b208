package verify

import (
	"fmt"

	"github.com/aliasplan/aliasplan/planner"
)

// queueSeq is what SequenceState knows of the queues of the frames so far:
// per queue, the frame that last submitted a batch on it; per pair, the
// frame of the batch on After that Queue last waited for
// (planner.FrameWait); the queue of the last entry barrier (+1; 0: none).
type queueSeq struct {
	frame  uint64
	ran    [planner.NumQueues]uint64
	waited [planner.NumQueues][planner.NumQueues]uint64
	entry  int
}

// planQueues is independent of barriers.PlanQueues: the queues p submits
// to (graphics alone without submissions) and the queue of its first
// command.
func planQueues(p *planner.Plan) (used [planner.NumQueues]bool, entry planner.Queue) {
	if len(p.Submissions) == 0 {
		used[planner.QueueGraphics] = true
		return used, planner.QueueGraphics
	}
	entry = p.Submissions[0].Queue
	for i := len(p.Submissions) - 1; i >= 0; i-- {
		s := &p.Submissions[i]
		if int(s.Queue) >= planner.NumQueues {
			continue
		}
		used[s.Queue] = true
		for _, c := range s.Commands {
			if len(p.Order) > 0 && c == p.Order[0] {
				entry = s.Queue
			}
		}
	}
	return used, entry
}

// check checks p's FrameWaits as the next frame (pools: it has pooled
// resources) and records it: its first batch on each queue R must wait
// for the latest earlier batch on every queue Q that R has not waited for
// since, unless Q is R and R carries the entry barrier chained from the
// last one (same queue). Without such a wait, frame N's uses of pooled
// bytes on Q and this frame's first uses of them on R are unordered.
func (s *queueSeq) check(p *planner.Plan, pools bool) error {
	used, entry := planQueues(p)
	has := map[planner.FrameWait]bool{}
	for i, w := range p.FrameWaits {
		if int(w.Queue) >= planner.NumQueues || int(w.After) >= planner.NumQueues || !used[w.Queue] {
			return &planner.BarrierError{Barrier: -1, Rule: planner.RuleEntryBarrier,
				Detail: fmt.Sprintf("frame wait %d: queue %s after %s: the frame has no batch on queue %s", i, w.Queue, w.After, w.Queue)}
		}
		has[w] = true
	}
	s.frame++
	if pools {
		for r := range used {
			if !used[r] {
				continue
			}
			for q := range s.ran {
				if s.ran[q] <= s.waited[r][q] || (r == q && planner.Queue(r) == entry && s.entry == int(entry)+1) {
					continue
				}
				w := planner.FrameWait{Queue: planner.Queue(r), After: planner.Queue(q)}
				if !has[w] {
					return &planner.BarrierError{Barrier: -1, Rule: planner.RuleEntryBarrier,
						Detail: fmt.Sprintf("the frame's first batch on queue %s does not wait for queue %s's last batch (frame %d): the uses of pooled bytes there are not ordered before this frame's first uses (a frame wait %s after %s)",
							w.Queue, w.After, s.ran[q], w.Queue, w.After)}
				}
				s.waited[r][q] = s.ran[q]
			}
		}
		s.entry = int(entry) + 1
	}
	for q := range used {
		if used[q] {
			s.ran[q] = s.frame
		}
	}
	return nil
}
