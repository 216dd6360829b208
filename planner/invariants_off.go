//go:build !invariants

package planner

const invariants = false
