package proptest

import (
	"math/rand/v2"

	"github.com/aliasplan/aliasplan/planner"
)

// AssignQueues puts the commands of g on queues, from a seed (issue 24):
// a command that can run on compute goes there with probability 1/2, one
// that can run on transfer (copies only) goes there with probability 1/3
// (else compute or graphics); the others stay on graphics. CanRunOn is
// Validate's queue rule, so depth/stencil clears and copies (rule
// queue-depth-transfer) stay on graphics too. The graph keeps
// its shape, so a property holds with and without queues on one graph.
func AssignQueues(g *planner.Graph, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x510e527fade682d1))
	for ci := range g.Commands {
		cmd := planner.CommandID(ci)
		q := planner.QueueGraphics
		switch x := rng.IntN(6); {
		case x < 2 && g.CanRunOn(cmd, planner.QueueTransfer):
			q = planner.QueueTransfer
		case x < 4 && g.CanRunOn(cmd, planner.QueueCompute):
			q = planner.QueueCompute
		}
		g.Commands[ci].Queue = q
	}
}
