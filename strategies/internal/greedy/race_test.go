//go:build race

package greedy_test

const raceEnabled = true
