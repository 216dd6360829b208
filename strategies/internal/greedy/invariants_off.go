//go:build !invariants

package greedy

const invariants = false
