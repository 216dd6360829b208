//go:build !race

package firstfit_test

const raceEnabled = false
