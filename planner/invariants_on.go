//go:build invariants

package planner

// invariants enables the self-checks of Compile and Place (go test -tags
// invariants); they cost more than the work they check.
const invariants = true
