package planner

import (
	"fmt"

	"github.com/aliasplan/aliasplan/vk"
)

// Sharing chooses how contents that cross queue families are handed over
// (issue 24, item 4): CONCURRENT sharing (the default), or EXCLUSIVE
// resources with queue family ownership transfers (Plan.Transfers).
type Sharing uint8

const (
	// SharingConcurrent: a resource used on several queues is created
	// VK_SHARING_MODE_CONCURRENT over their families; no transfers.
	SharingConcurrent Sharing = iota
	// SharingExclusive: a transient resource whose contents cross queues
	// is created EXCLUSIVE, and each hand-over is a release barrier on the
	// source queue after its last use there and an acquire barrier on the
	// destination queue before its first use there (OwnershipTransfer).
	// Resources that cannot be handed over so stay CONCURRENT (see
	// ResourcePlan.Exclusive).
	SharingExclusive
)

// String returns the name plan files and options use.
func (s Sharing) String() string {
	switch s {
	case SharingConcurrent:
		return "concurrent"
	case SharingExclusive:
		return "exclusive"
	}
	return fmt.Sprintf("Sharing(%d)", uint8(s))
}

// ParseSharing returns the sharing a name spells.
func ParseSharing(s string) (Sharing, bool) {
	switch s {
	case "concurrent", "":
		return SharingConcurrent, true
	case "exclusive":
		return SharingExclusive, true
	}
	return 0, false
}

// RuleOwnership: a plan with exclusive sharing lacks a queue family
// ownership transfer where contents cross queues, has one that does not
// match the hand-over (queues, commands, layouts, scopes), or marks a
// resource Exclusive that cannot be.
const RuleOwnership Rule = "ownership"

// OwnershipTransfer is one queue family ownership transfer of an
// EXCLUSIVE resource: a release barrier recorded right after command
// After on queue From (srcQueueFamilyIndex From's family,
// dstQueueFamilyIndex To's), and an acquire barrier with the same family
// indices and the same layouts recorded right before command Before on
// queue To, before Before's own barriers. The planner knows only logical
// queues: the Vulkan side fills in the family indices (and records
// neither barrier when both queues map to one family). A semaphore of
// the plan's submissions orders After's batch before Before's.
type OwnershipTransfer struct {
	Resource ResourceID
	From, To Queue
	After    CommandID // the last use on From before the hand-over (in execution order)
	Before   CommandID // the first use on To after it
	// SrcStages/SrcAccess are the release's first scope (the uses on From
	// since the previous hand-over: their stages and writes); the
	// release's second scope is empty. DstStages/DstAccess are the
	// acquire's second scope (Before's use); its first scope is empty.
	SrcStages, DstStages vk.Stage
	SrcAccess, DstAccess vk.AccessFlags
	// OldLayout and NewLayout are the layouts of both barriers (images
	// only): equal, the layout After's use leaves the image in. A layout
	// change that Before needs is done by its own barrier after the
	// acquire.
	OldLayout, NewLayout vk.Layout
}

// Exclusive reports whether resource r can be EXCLUSIVE under
// SharingExclusive: transient, used on two or more queues, not accessed
// by subresource ranges, and at every change of queue among its uses in
// recorded order (but where a buffer's next run starts with a write that
// reads nothing: discarded contents) every use of the run before the
// change happens before every use of the run after it in the DAG (so
// ownership can move; EXCLUSIVE cannot be read by two families at once).
// It depends on the graph only, not on the placement or the order, so the
// Vulkan side can create the resource before planning.
func (c *Compiled) Exclusive(r ResourceID) bool {
	g := c.Graph
	res := &g.Resources[r]
	if res.Imported || c.Ranged(r) {
		return false
	}
	us := c.Uses(r)
	var qs QueueSet
	for _, u := range us {
		qs = qs.Add(g.Commands[u.Command].Queue)
	}
	if qs.Len() < 2 {
		return false
	}
	for s := 0; s < len(us); {
		q := g.Commands[us[s].Command].Queue
		e := s + 1
		for e < len(us) && g.Commands[us[e].Command].Queue == q {
			e++
		}
		if e == len(us) {
			break
		}
		if !HandoverDiscards(res, us[e]) {
			n := e + 1
			for n < len(us) && g.Commands[us[n].Command].Queue == g.Commands[us[e].Command].Queue {
				n++
			}
			for i := s; i < e; i++ {
				for j := e; j < n; j++ {
					if !c.HappensBefore(us[i].Command, us[j].Command) {
						return false
					}
				}
			}
		}
		s = e
	}
	return true
}

// HandoverDiscards reports whether the first use u of a run on a new
// queue discards r's contents, so that no ownership transfer is needed
// there: a buffer written without being read.
func HandoverDiscards(r *Resource, u Use) bool {
	return r.Kind == KindBuffer && u.Access&^vk.WriteAccess == 0 && u.Access.Writes() != 0
}
