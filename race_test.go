//go:build race

package aliasplan_test

// raceEnabled is set when the race detector is on: the slowest frames
// cost more than CI affords there.
const raceEnabled = true
