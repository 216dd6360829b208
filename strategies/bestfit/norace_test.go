//go:build !race

package bestfit_test

const raceEnabled = false
