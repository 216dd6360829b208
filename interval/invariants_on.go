//go:build invariants

package interval

// invariants enables checkInvariants after every mutation (go test -tags
// invariants).
const invariants = true
