// Package bytemodel replays a plan's commands and barriers over a model of
// device memory the way synchronization validation tracks it, byte range
// by byte range, and reports the hazards that the validation layer would
// report. It is a second, independent check beside verify.Plan, written
// from the layer's rules (VULKAN-NOTES.md, "Measured and read since"),
// not from the planner's: verify reasons about uses, DAG edges and
// barrier scopes of one resource; this model knows nothing of the DAG and
// only executes the plan.
//
// The model (after the layer's ResourceAccessState):
//
//   - Memory is cut into segments: per pool, the elementary ranges between
//     the placements' boundaries; every resource outside a pool is its own
//     segment. A resource's accesses reach its segments.
//   - A segment holds its last write (one part per stage: stage, access,
//     the stage×access pairs it is visible to, and its dependency chain:
//     the stages ordered after it) and its last reads since that write (per
//     stage: access and dependency chain).
//   - A barrier reaches every segment when it is a VkMemoryBarrier2 and only
//     its resource's segments when it is a buffer or image barrier. Where
//     it reaches, a write is in its first scope when the write's stage and
//     access are in its first access scope, or the write's chain meets its
//     first execution scope; the write then becomes visible to the second
//     access scope and its chain grows by the second execution scope. A
//     read is in its first scope when the read's stage or chain meets the
//     first execution scope; its chain grows by the second execution scope.
//     Barriers of one vkCmdPipelineBarrier2 call are applied together, to
//     the state before the call: they do not chain with each other.
//   - An image barrier that changes the layout is a write over the image's
//     segments: it must have every earlier read in its first execution
//     scope (directly or by chain) or, with no read since, the last write in
//     its first scope; it then replaces the segment's state by the
//     transition, visible to its second access scope, chained to its second
//     execution scope.
//   - A read must find every part of the last write visible to its stage
//     and access (read-after-write); a write must find each read since the
//     last write chained to its stage (write-after-read) or, with no read,
//     the last write visible to its stage and access (write-after-write).
//   - TOP_OF_PIPE and BOTTOM_OF_PIPE are as synchronization2 defines them:
//     in a first scope TOP_OF_PIPE is no stage and BOTTOM_OF_PIPE every
//     stage (execution only); in a second scope the reverse. Meta stages and
//     accesses count as what they stand for.
//
// It is stricter than the layer in three places, each the letter of the
// Vulkan spec: a buffer or image barrier's first access scope holds only
// accesses through its own resource (the layer credits any access at the
// bytes it reaches, so it passes an image alias barrier that folds in the
// old occupant's writes; the spec does not: issue 18); a read must find the
// write visible itself (the layer also passes a read whose stage an
// earlier clean read was chained to); and a use at several stages is a
// read or write at each of them. Image
// accesses and barriers reach the whole image (plans with subresource
// ranges are not placed yet). Plans with several queues are not modelled
// (Check says so).
//
// Cost: O((C + B)·S·P) for C command uses, B barriers, S segments a barrier
// reaches and P parts per segment (a few). It is a test tool: it allocates
// freely.
package bytemodel
