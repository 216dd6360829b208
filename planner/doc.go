// Package planner is the core of aliasplan: the graph model, its
// validation and analysis, and placement. It is organised by concern:
//
//   - model: graph.go (Graph, Resource, Command, Access), plan.go (Plan,
//     Placement, Barrier, Stats), options.go (Options, the project's one
//     options type), errors.go (GraphError, PlacementError, BarrierError
//     and their Rules);
//   - Validate (validate.go): every rule a graph breaks, up to
//     MaxValidateErrors at once, naming the resource or command;
//     ValidateSizes (validate_sizes.go) for a graph of a valid one's
//     structure (SameStructure): only the rules a size can break;
//   - Compile (compile.go): uses, the dependency DAG, batches, the
//     happens-before closure (one bitset row per command), initial and
//     terminal uses, the Before relation that decides aliasing;
//   - placement: problem.go (Problem, Strategy, Solution, CheckSolution),
//     place.go (statuses, pool groups, Place), bound.go (the exact lower
//     bound), order.go and budget.go (execution and budget orderings),
//     profile.go (requirements estimates and limits).
//
// Enum values come from package vk; the check of a finished plan is
// package verify, which uses only this package's exported analysis; the
// barriers are package barriers. planner imports neither and no strategy
// (strategies import planner), has no I/O and no goroutines it does not
// join, and its output is deterministic.
//
// Ranges are half-open [Start, End). Slices returned by Compiled's
// accessors alias its storage: read, never modify. Cost per stage:
// docs/design.md.
package planner
