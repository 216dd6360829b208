package format

import (
	"fmt"

	"github.com/aliasplan/aliasplan/planner"
)

// planFrameWait is one of a plan's frame waits (Plan.FrameWaits,
// planner.FrameWait): the frame's first batch on queue waits for the last
// earlier batch on after.
type planFrameWait struct {
	Queue *string `json:"queue"`
	After *string `json:"after"`
}

func frameWaitsToFile(p *planner.Plan) ([]planFrameWait, error) {
	if len(p.FrameWaits) == 0 {
		return nil, nil
	}
	out := make([]planFrameWait, len(p.FrameWaits))
	for i, w := range p.FrameWaits {
		q, a := w.Queue.String(), w.After.String()
		if _, ok := planner.ParseQueue(q); !ok {
			return nil, fmt.Errorf("planner: writing plan: frame wait %d: queue %s has no name", i, w.Queue)
		}
		if _, ok := planner.ParseQueue(a); !ok {
			return nil, fmt.Errorf("planner: writing plan: frame wait %d: queue %s has no name", i, w.After)
		}
		out[i] = planFrameWait{Queue: &q, After: &a}
	}
	return out, nil
}

func frameWaitsFromFile(fws []planFrameWait, fail func(item string, rule planner.Rule, format string, args ...any) *planner.GraphError) ([]planner.FrameWait, error) {
	out := make([]planner.FrameWait, len(fws))
	for i, fw := range fws {
		for _, f := range []struct {
			name string
			v    *string
			dst  *planner.Queue
		}{{"queue", fw.Queue, &out[i].Queue}, {"after", fw.After, &out[i].After}} {
			item := fmt.Sprintf("frameWaits[%d].%s", i, f.name)
			if f.v == nil {
				return nil, fail(item, planner.RuleMissingField, "no %s", f.name)
			}
			q, ok := planner.ParseQueue(*f.v)
			if !ok {
				return nil, fail(item, planner.RuleQueue, "unknown queue %q (graphics, compute or transfer)", *f.v)
			}
			*f.dst = q
		}
	}
	return out, nil
}
