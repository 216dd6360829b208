// Package exact is aliasplan's constraint-solving placement strategy: a
// branch-and-bound search over canonical placements that returns the best
// plan it finds together with a proven lower bound, and says "optimal"
// only when it has proved it.
//
// # What it solves
//
// One planner.Problem: items (size, alignment) and which pairs interfere.
// Interval problems (Problem.Intervals) interfere by lifetime overlap, the
// Dynamic Storage Allocation problem of ML compilers; graph problems come
// from a render graph's "entirely before" partial order (Problem.Neighbors).
// The objective is the peak: the size of the one pool that holds every
// item. Byte ranges and lifetimes are half-open, [Start, End).
//
// # How
//
// Solve first takes the better of first fit and best fit (so it is never
// worse than the default strategy), splits the problem into independent
// components, and gives interval components a few greedy dives (the
// search's own canonical placement without backtracking) and graph
// components randomized first fits now and then. It then runs
// decision searches, "does it fit in capacity C?", with C at the proven
// lower bound and, now and then, halfway to the incumbent; each search is
// a depth-first search with constraint propagation, restarted with new
// candidate orders under a growing node budget (the Luby sequence). Most
// restarts branch on what lies at the lowest level of one section (a
// member or none), the others on the next item of the canonical order. An
// exhausted search raises the lower bound; a successful one lowers the
// incumbent. It stops when they meet (proven optimal) or the budget is
// spent. docs/exact.md describes every rule and why none of them removes
// every optimal solution.
//
// On components of 200 items or more some restarts are band searches
// instead: the bottom band of the best placement is kept and the items
// above it searched again below the best peak; they only ever improve
// the placement, never the bound. Options.Capacity turns the question
// into "does it fit in C?": Solve stops at the first placement within C
// or a proof that none exists, and Result.Verdict says which.
//
// The lower bound is the larger of planner.LowerBound (the heaviest set of
// pairwise interfering items) and what exhausted searches proved.
//
// # Budget and determinism
//
// Options.NodeLimit bounds the work in search nodes; with it the result
// depends only on the problem and the limit. Options.TimeLimit bounds wall
// time and applies only without a node limit; the result then depends on
// the machine. The zero Options mean DefaultNodeLimit, so Place is
// deterministic as planner.Strategy requires. Options.Progress receives
// the best peak, the bound and the node count at most once a second.
//
// # Cost
//
// The greedy incumbents cost what first fit and best fit cost (a few
// hundred milliseconds for 60 000 buffers). A dive costs O((n + r) log T)
// for n items, T time sections and r empty points raised. A search node
// costs, for the sections its placement touches, O(m log m + m·k) per
// section of m members (k: distinct lower bounds among them), repeated
// until no domain changes; memory is O(Σ sections per item). Components
// with more than 2 million item-section memberships or 20 000 items get
// the greedy incumbents and dives only, and their gap is reported as is;
// graph components with more than 4M interfering pairs get the greedy
// incumbent only (no neighbour lists: no quadratic memory).
//
// Everything before the first search node (components, model, cliques,
// dives) charges a step meter that reads the clock (time limit) or counts
// against the node budget; when it runs out, Solve returns the greedy
// incumbent with the planner's bound and Result.Stopped says so. The
// time limit therefore holds at every size, the greedy strategies, the
// planner's lower bound and the final check apart.
//
// # Pools
//
// The search places everything in one pool. When Problem.MaxPoolSize is
// set and the one pool would exceed it (or the lower bound already does),
// Solve returns the better greedy solution, which opens more pools; the
// bound still holds for any number of pools.
//
// # Contract
//
// Solve does not modify or retain the Problem; the returned Solution is new
// and belongs to the caller, and has passed planner.CheckSolution. A
// Strategy holds only its options, so one value may serve concurrent
// calls. The search runs on the calling goroutine (the greedy strategies
// it calls may use more, and on problems of 2048 items or more the lower
// bound runs on one more goroutine beside them; all are joined).
package exact
