//go:build !invariants

package interval

const invariants = false
