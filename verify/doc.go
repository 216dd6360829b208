// Package verify is the project's independent check of a plan: Plan (the
// first violation), All (every violation, for aliasplan check) and
// Placement (the memory side only). It imports the compiled analysis
// (planner.Compiled: uses, happens-before, initial and terminal uses) and
// the plan, never a strategy or the barrier builder, so that what it
// accepts does not depend on how the plan was made — a structural
// guarantee, tested by the repository's import rules.
//
// What it checks: no two interfering resources share a byte; offsets
// aligned and inside their pools; classes and memory types; statuses,
// Aliased flags and every stat recomputed; the execution order respects
// every DAG edge; every edge, layout change and alias covered by a
// barrier or a chain of barriers (sources meeting destinations, writes
// made available and visible); serializations of the execution and
// budget orders listed exactly and covered.
//
// The lower bound is recomputed with planner.Compiled.GroupLowerBound on
// each pool group's members and the items verify builds from the plan
// (slots as placed, windows from the compiled uses): from 2,048 members
// up the flow runs on the DAG's network as Place's does, without the
// group's P²/8-byte interference matrix, which cost 3.8 of Verify's 5 s
// at 30,000 commands; smaller groups link item pairs on the matrix.
// Under the invariants build tag both networks run and must agree
// (GroupLowerBound checks it).
//
// Cost: O(R log R + byte-overlapping pairs) plus the lower bound for the
// placement, O(A + B + alias pairs) for the barriers (R resources, A
// accesses, B barriers). Errors are *planner.BarrierError, *planner.PlacementError or
// *Error values naming the resource, command or pool and the rule.
package verify
