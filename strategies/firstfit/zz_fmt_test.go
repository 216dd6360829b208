package firstfit

import "fmt"

func fmtF(x float64) string { return fmt.Sprintf("%.4f", x) }
