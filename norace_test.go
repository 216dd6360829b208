//go:build !race

package aliasplan_test

const raceEnabled = false
