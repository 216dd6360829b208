package greedy

// The helpers of orders_test.go, for the data tests of the strategies
// (data_test.go and frames_test.go, package greedy_test: they import
// firstfit and bestfit, which import this package).
var (
	ReadCSV      = readCSV
	MaxLoad      = maxLoad
	CompileFrame = compileFrame
)
