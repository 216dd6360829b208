package verify

// RangesByCell turns off the ranged checks' shortcuts (ranges_box.go), so
// that a test can compare both ways.
var RangesByCell = &rangesByCell
