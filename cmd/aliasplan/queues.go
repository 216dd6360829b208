package main

import (
	"fmt"
	"io"

	"github.com/aliasplan/aliasplan/planner"
)

// queuesSummary is what the submissions of a plan with several queues hold.
type queuesSummary struct {
	Submissions int `json:"submissions"`
	Semaphores  int `json:"semaphores"`
	// PerQueue is, per queue used, its commands and submissions.
	PerQueue []queueCount `json:"perQueue"`
	// Concurrent counts the resources shared between queues
	// (VK_SHARING_MODE_CONCURRENT).
	Concurrent int `json:"concurrent"`
	// Sharing is the plan's sharing; with exclusive, Exclusive counts the
	// resources created EXCLUSIVE and Transfers their queue family
	// ownership transfers (each a release and an acquire barrier).
	Sharing   string `json:"sharing"`
	Exclusive int    `json:"exclusive,omitempty"`
	Transfers int    `json:"transfers,omitempty"`
}

type queueCount struct {
	Queue       string `json:"queue"`
	Commands    int    `json:"commands"`
	Submissions int    `json:"submissions"`
}

func summarizeQueues(p *planner.Plan) *queuesSummary {
	if len(p.Submissions) == 0 {
		return nil
	}
	q := &queuesSummary{Submissions: len(p.Submissions), Semaphores: p.Semaphores, Sharing: p.Sharing.String(), Transfers: len(p.Transfers)}
	var cmds, subs [planner.NumQueues]int
	for _, s := range p.Submissions {
		if s.Queue < planner.NumQueues {
			cmds[s.Queue] += len(s.Commands)
			subs[s.Queue]++
		}
	}
	for k := planner.Queue(0); k < planner.NumQueues; k++ {
		if subs[k] > 0 {
			q.PerQueue = append(q.PerQueue, queueCount{Queue: k.String(), Commands: cmds[k], Submissions: subs[k]})
		}
	}
	for _, rp := range p.Resources {
		switch {
		case rp.Exclusive:
			q.Exclusive++
		case rp.Queues.Concurrent():
			q.Concurrent++
		}
	}
	return q
}

// writeQueues prints the submissions' summary lines (none for one queue).
func writeQueues(w io.Writer, q *queuesSummary) {
	if q == nil {
		return
	}
	fmt.Fprintf(w, "submissions   %d, %d semaphores, %d resources shared between queues (concurrent)\n", q.Submissions, q.Semaphores, q.Concurrent)
	if q.Sharing == planner.SharingExclusive.String() {
		fmt.Fprintf(w, "ownership     %d resources exclusive, %d transfers (release + acquire)\n", q.Exclusive, q.Transfers)
	}
	for _, c := range q.PerQueue {
		fmt.Fprintf(w, "  %-11s %d commands in %d submissions\n", c.Queue, c.Commands, c.Submissions)
	}
}
