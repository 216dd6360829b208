// Package barriers turns a placed plan into synchronization2 barriers: the
// execution order of the frame and, before each command, the barriers that
// make its accesses safe (SPEC §4).
//
// Build fills Plan.Barriers with planner.Barrier values:
//
//   - hazard barriers for every edge of the dependency DAG (read after
//     write, write after read, write after write), one per command and
//     resource, with the image layout transition the command needs;
//   - the first use of every transient image, as a transition from
//     UNDEFINED;
//   - alias barriers before the initial use of every pooled resource whose
//     bytes were used by earlier resources of its pool (its old occupants),
//     whose source covers every terminal use of each old occupant named: a
//     VkMemoryBarrier2 for buffers; for images whose old occupants only
//     read, the first-use image barrier itself with their stages as its
//     source and oldLayout UNDEFINED; for images with an old occupant that
//     wrote, two calls: a VkMemoryBarrier2 (call 0) making the writes
//     available, then the image barrier (call 1, Barrier.Call) chained
//     after it through the old stages;
//   - one transition for the reads that share it (SPEC §2), before the
//     first of them in execution order, covering them all.
//
// A use whose stages are only TOP_OF_PIPE or BOTTOM_OF_PIPE (NONE in a
// second or first scope respectively) is represented in neighbouring
// scopes by the stages of the resource's next use, so the barriers around
// it chain. No dependency relies on a chain through another resource's
// buffer or image barrier.
//
// Dependencies turns the barriers before each command into DependencyInfos
// (call 0, then call 1) whose types map field for field onto VkDependencyInfo,
// VkMemoryBarrier2, VkBufferMemoryBarrier2 and VkImageMemoryBarrier2; the
// vulkan package records each one with vkCmdPipelineBarrier2.
//
// # Scopes
//
// A command's use of a resource is aggregated (planner.Use): the OR of the
// stages and access flags of its accesses to it. A barrier's source scope is
// the earlier uses' stages and their write access flags (read flags make
// nothing available, so a write-after-read barrier is execution-only); its
// destination scope is the later use's stages and all of its access flags.
// A layout transition counts as a write: it makes a use modifying even
// without write access flags.
//
// The first use of an imported image whose declared initial layout differs
// from the layout it needs gets a transition from the initial layout whose
// source stages are the use's own stages and whose source access is empty:
// it chains with whatever the caller did before the frame (a semaphore wait
// at those stages, or its own barrier), which the caller owns. Imported
// resources get hazard barriers only, never alias barriers.
//
// # Merging
//
// Build emits at most one barrier per command and resource: the hazard
// barrier of a command OR-s the scopes of all its predecessors on that
// resource, which share one layout. A write after reads waits for those
// reads only, execution-only: the barriers before the reads already ordered
// the earlier write before them and made it available, and the reads'
// stages chain the two barriers, so the earlier write is not waited for
// twice. Build leaves out a hazard barrier that an earlier one implies: a
// barrier on the same resource, or a memory barrier, recorded after every
// predecessor and no later than the command, whose scopes include the
// needed ones and which changes no layout. Pipeline barriers apply to every
// later command, so one barrier after a write serves all the readers it
// covers.
//
// Alias barriers name every old occupant whose bytes meet the new range,
// except one whose shared bytes are all reused by later old occupants that
// it is before (entirely before in the DAG, or serialized before them
// under the execution and budget orderings) and that are buffers: the
// alias barriers of those later occupants (memory barriers) order it
// before them, and theirs order them before the new one (a chain that
// verify.Plan proves). Every other old occupant is named, not only the
// latest one. Images never chain an older occupant: an image barrier's
// access scope is the image's subresources, which may not fill the bytes
// the image is placed in (its required size), so the older occupant's
// writes in that padding would never be made available.
//
// Dependencies keeps one DependencyInfo per command and drops a memory
// barrier that another memory barrier of the same command includes (two
// new buffers whose alias barriers have the same scopes share one
// VkMemoryBarrier2), and a buffer barrier that one of them includes.
//
// # Cost and ownership
//
// Build is O(U + B·W + P) for U uses, B barriers, W the barriers of one
// resource between a use and its predecessors (usually one or two), and P
// pairs of pooled resources that share bytes (plus the Before queries).
// It allocates the barrier slice and one array of old occupants; the plan
// owns both. Dependencies allocates its result; the caller owns it. Nothing
// here does I/O, starts goroutines or depends on map order: the same graph
// and plan give the same barriers.
//
// # Queues
//
// Single queue only (SPEC §4): barriers carry no queue family indices (the
// recorder writes VK_QUEUE_FAMILY_IGNORED). Cross-queue aliasing would turn
// alias transitions into semaphore edges; it is future work.
package barriers
