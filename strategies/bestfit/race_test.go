//go:build race

package bestfit_test

const raceEnabled = true
