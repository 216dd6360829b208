//go:build invariants

package greedy

// invariants checks every graph placement against plainFit (go test -tags
// invariants).
const invariants = true
