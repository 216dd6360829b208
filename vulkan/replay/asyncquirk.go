package replay

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/aliasplan/aliasplan/vulkan"
)

// The async-context quirk of submit-time synchronization validation
// (layer 1.3.239), measured on the H200 (random queue graph 3): batch Z on
// queue B waits on a semaphore that batch X on queue A signals after a
// write; A's later batch Y, submitted before Z, neither touches those
// bytes nor is waited on by Z. The layer checks Z for races against the
// whole access state of Y — every queue's last batch that Z does not
// wait on — including the accesses Y inherited from X, which the
// semaphore orders before Z. It reports them as READ-/WRITE-RACING-*
// with X's command as the prior access. Vulkan orders the pair (the
// signal→wait chain), and verify.Plan has proved the chain's stage masks
// for every conflicting pair of the plan's commands.
//
// AsyncQuirk classifies such a message: a *-RACING-* hazard whose
// recorded command buffer and prior command buffer are both batches of
// one replayed plan and whose prior batch happens-before the recorded one
// through the plan's submissions (queue order and signal→wait edges,
// transitively). A race between batches that no chain orders (the
// missing-semaphore control) stays an error.
func AsyncQuirk(m vulkan.Message, batchOf map[string]int, before [][]bool) bool {
	if !strings.Contains(m.ID, "RACING") || !strings.Contains(m.Text, "vkQueueSubmit2: Hazard") {
		return false
	}
	rec := recordedCB.FindStringSubmatch(m.Text)
	pri := priorCB.FindStringSubmatch(m.Text)
	if rec == nil || pri == nil {
		return false
	}
	z, ok1 := batchOf[rec[1]]
	x, ok2 := batchOf[pri[1]]
	return ok1 && ok2 && x != z && before[x][z]
}

var (
	recordedCB = regexp.MustCompile(`for entry \d+, VkCommandBuffer (0x[0-9a-f]+)\[`)
	priorCB    = regexp.MustCompile(`command_buffer: VkCommandBuffer (0x[0-9a-f]+)\[`)
)

// batchOrder returns each batch's command buffer handle as the layer
// prints it and the batches' happens-before relation: before[x][z] when
// batch x precedes batch z on its queue or a chain of signal→wait edges
// (through any queue) leads from x to z.
func (q *qmode) batchOrder() (map[string]int, [][]bool) {
	n := len(q.subs)
	of := make(map[string]int, n)
	for i, cb := range q.cbs {
		of[fmt.Sprintf("%p", cb)] = i
	}
	before := make([][]bool, n)
	for i := range before {
		before[i] = make([]bool, n)
	}
	signaller := map[int]int{}
	for i, s := range q.subs {
		for _, o := range s.Signal {
			signaller[o.Semaphore] = i
		}
	}
	// Submission order is a topological order: predecessors come first.
	for z, s := range q.subs {
		var direct []int
		for x := z - 1; x >= 0; x-- {
			if q.subs[x].Queue == s.Queue {
				direct = append(direct, x)
				break
			}
		}
		for _, w := range s.Wait {
			if x, ok := signaller[w.Semaphore]; ok && x < z {
				direct = append(direct, x)
			}
		}
		for _, x := range direct {
			before[x][z] = true
			for y := 0; y < x; y++ {
				if before[y][x] {
					before[y][z] = true
				}
			}
		}
	}
	return of, before
}

// splitAsyncQuirks counts the AsyncQuirk messages of the two replayed
// plans (aliased, unaliased) and returns the rest.
func splitAsyncQuirks(msgs []vulkan.Message, quirks map[string]int, qs ...*qmode) []vulkan.Message {
	type order struct {
		of     map[string]int
		before [][]bool
	}
	var orders []order
	for _, q := range qs {
		of, before := q.batchOrder()
		orders = append(orders, order{of, before})
	}
	var rest []vulkan.Message
next:
	for _, m := range msgs {
		for _, o := range orders {
			if AsyncQuirk(m, o.of, o.before) {
				quirks["async-context"]++
				continue next
			}
		}
		rest = append(rest, m)
	}
	return rest
}
