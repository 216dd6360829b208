package format

import (
	"fmt"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vk"
)

// Submissions in plan files (issue 24): present only when a command is not
// on graphics.

type planSubmission struct {
	Queue    *string        `json:"queue"`
	Commands []string       `json:"commands"`
	Wait     []planSemaphor `json:"wait,omitempty"`
	Signal   []planSemaphor `json:"signal,omitempty"`
}

type planSemaphor struct {
	Semaphore *int     `json:"semaphore"`
	Stages    []string `json:"stages"`
}

// queueNames lists a queue set's names, nil for the empty set.
func queueNames(s planner.QueueSet) []string {
	var out []string
	for q := planner.Queue(0); q < planner.NumQueues; q++ {
		if s.Has(q) {
			out = append(out, q.String())
		}
	}
	return out
}

func toPlanSubmissions(g *planner.Graph, p *planner.Plan) ([]planSubmission, error) {
	if len(p.Submissions) == 0 {
		return nil, nil
	}
	out := make([]planSubmission, len(p.Submissions))
	ops := func(list []planner.SemaphoreOp) []planSemaphor {
		var fs []planSemaphor
		for _, op := range list {
			k := op.Semaphore
			fs = append(fs, planSemaphor{Semaphore: &k, Stages: op.Stages.Names()})
		}
		return fs
	}
	for i := range p.Submissions {
		s := &p.Submissions[i]
		if _, ok := planner.ParseQueue(s.Queue.String()); !ok {
			return nil, fmt.Errorf("planner: writing plan: submission %d: queue %s has no name", i, s.Queue)
		}
		q := s.Queue.String()
		fs := &out[i]
		fs.Queue = &q
		fs.Commands = make([]string, len(s.Commands))
		for k, cmd := range s.Commands {
			if cmd < 0 || int(cmd) >= len(g.Commands) {
				return nil, fmt.Errorf("planner: writing plan: submission %d: command %d is not in the graph", i, cmd)
			}
			fs.Commands[k] = g.Commands[cmd].Name
		}
		fs.Wait, fs.Signal = ops(s.Wait), ops(s.Signal)
	}
	return out, nil
}

// readPlanSubmissions fills p.Submissions and p.Semaphores (one more than
// the largest semaphore named) and the resources' queue sets.
func readPlanSubmissions(p *planner.Plan, pf *planFile, cmds map[string]planner.CommandID,
	fail func(item string, rule planner.Rule, format string, args ...any) *planner.GraphError) error {
	for i := range pf.Resources {
		fr := &pf.Resources[i]
		if fr.Queues == nil || i >= len(p.Resources) {
			continue
		}
		var qs planner.QueueSet
		for _, n := range fr.Queues {
			q, ok := planner.ParseQueue(n)
			if !ok {
				return fail(fmt.Sprintf("resources[%d].queues", i), planner.RuleQueue, "unknown queue %q (graphics, compute or transfer)", n)
			}
			qs = qs.Add(q)
		}
		p.Resources[i].Queues = qs
	}
	for i := range pf.Submissions {
		fs := &pf.Submissions[i]
		item := fmt.Sprintf("submissions[%d]", i)
		if fs.Queue == nil {
			return fail(item+".queue", planner.RuleMissingField, "no queue")
		}
		q, ok := planner.ParseQueue(*fs.Queue)
		if !ok {
			return fail(item+".queue", planner.RuleQueue, "unknown queue %q (graphics, compute or transfer)", *fs.Queue)
		}
		s := planner.Submission{Queue: q}
		for k, n := range fs.Commands {
			cmd, ok := cmds[n]
			if !ok {
				e := fail(fmt.Sprintf("%s.commands[%d]", item, k), planner.RuleUnknownCommand, "the graph has no command of this name")
				e.Command = n
				return e
			}
			s.Commands = append(s.Commands, cmd)
		}
		for _, l := range []struct {
			name string
			ops  []planSemaphor
			dst  *[]planner.SemaphoreOp
		}{{"wait", fs.Wait, &s.Wait}, {"signal", fs.Signal, &s.Signal}} {
			for k, op := range l.ops {
				at := fmt.Sprintf("%s.%s[%d]", item, l.name, k)
				if op.Semaphore == nil {
					return fail(at+".semaphore", planner.RuleMissingField, "no semaphore")
				}
				if *op.Semaphore < 0 || *op.Semaphore > 1<<24 {
					return fail(at+".semaphore", planner.RuleField, "semaphore %d out of range", *op.Semaphore)
				}
				var st vk.Stage
				for _, n := range op.Stages {
					x, ok := vk.ParseStage(n)
					if !ok {
						return fail(at+".stages", planner.RuleUnknownName, "unknown stage name %q", n)
					}
					st |= x
				}
				*l.dst = append(*l.dst, planner.SemaphoreOp{Semaphore: *op.Semaphore, Stages: st})
				p.Semaphores = max(p.Semaphores, *op.Semaphore+1)
			}
		}
		p.Submissions = append(p.Submissions, s)
	}
	return nil
}
