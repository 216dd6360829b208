//go:build invariants

package exact

// invariants enables checkInvariants at every search node (go test -tags
// invariants).
const invariants = true
