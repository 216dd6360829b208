//go:build !invariants

package exact

const invariants = false
