package exact

import (
	"encoding/csv"
	"os"
	"strconv"
	"testing"

	"github.com/aliasplan/aliasplan/planner"
)

// readCSV reads a MiniMalloc CSV (id,lower,upper,size[,alignment][,offset]);
// an offset column is ignored.
func readCSV(tb testing.TB, path string) *planner.Problem {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Skipf("data: %v", err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		tb.Fatal(err)
	}
	col := map[string]int{}
	for k, h := range rows[0] {
		col[h] = k
	}
	items := make([]planner.Item, 0, len(rows)-1)
	for _, r := range rows[1:] {
		num := func(name string) int64 {
			v, err := strconv.ParseInt(r[col[name]], 10, 64)
			if err != nil {
				tb.Fatal(err)
			}
			return v
		}
		it := planner.Item{Start: num("lower"), End: num("upper"), Size: uint64(num("size")), Alignment: 1}
		if _, ok := col["alignment"]; ok {
			it.Alignment = uint64(num("alignment"))
		}
		items = append(items, it)
	}
	p, err := planner.NewIntervalProblem(items, 0)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}
