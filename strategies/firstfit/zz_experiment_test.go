package firstfit

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/aliasplan/aliasplan/planner"
)

func loadCSV(t testing.TB, f string) *planner.Problem {
	r, err := os.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	bufs, err := planner.ReadIntervals(r, f)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.NewIntervalProblem(planner.IntervalItems(bufs), 0)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func maxLoad(items []planner.Item) uint64 {
	type ev struct {
		t int64
		d int64
		s uint64
	}
	var evs []ev
	for _, it := range items {
		evs = append(evs, ev{it.Start, 1, it.Size}, ev{it.End, -1, it.Size})
	}
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].t != evs[j].t {
			return evs[i].t < evs[j].t
		}
		return evs[i].d < evs[j].d
	})
	var cur, best uint64
	for _, e := range evs {
		if e.d > 0 {
			cur += e.s
			best = max(best, cur)
		} else {
			cur -= e.s
		}
	}
	return best
}

func TestExperiment(t *testing.T) {
	if os.Getenv("EXP") == "" {
		t.Skip()
	}
	files, _ := filepath.Glob("/work/shared/data/idealloc/*/*.csv")
	pf, _ := filepath.Glob("/work/shared/data/perfect/*.csv")
	files = append(files, pf...)
	if g := os.Getenv("EXPFILES"); g != "" {
		files, _ = filepath.Glob(g)
	}
	all := append(append([]order{}, orders...), expOrders...)
	for _, f := range files {
		p := loadCSV(t, f)
		lb := maxLoad(p.Items)
		line := filepath.Base(f)
		for _, mode := range []fitMode{lowest, best} {
			for _, o := range all {
				t0 := time.Now()
				s, err := place("x", p, []order{o}, mode)
				if err != nil {
					t.Fatal(err)
				}
				d := time.Since(t0)
				if err := planner.CheckSolution(p, s); err != nil {
					t.Fatal(err)
				}
				m := "ff"
				if mode == best {
					m = "bf"
				}
				line += " " + m + "/" + o.name + "=" + ratio(s.Peak(), lb) + "(" + d.Round(time.Millisecond).String() + ")"
			}
		}
		t.Log(line)
	}
}

func ratio(a, b uint64) string {
	return strconvF(float64(a) / float64(b))
}

func strconvF(x float64) string { return fmt.Sprintf("%.4f", x) }

func BenchmarkExpOne(b *testing.B) {
	f := os.Getenv("EXPFILE")
	if f == "" {
		b.Skip()
	}
	p := loadCSV(b, f)
	for b.Loop() {
		place("x", p, []order{orders[0]}, fitMode(len(os.Getenv("EXPMODE"))))
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestExpCPU(t *testing.T) {
	f := os.Getenv("EXPFILE")
	if f == "" {
		t.Skip()
	}
	p := loadCSV(t, f)
	for _, mode := range []fitMode{lowest, best} {
		for _, o := range orders {
			var cpus []time.Duration
			var peak uint64
			for range 3 {
				c0 := cpuTime()
				s, _ := place("x", p, []order{o}, mode)
				cpus = append(cpus, cpuTime()-c0)
				peak = s.Peak()
			}
			sort.Slice(cpus, func(i, j int) bool { return cpus[i] < cpus[j] })
			t.Logf("mode %d order %s: cpu median %v ratio %s", mode, o.name, cpus[1], ratio(peak, maxLoad(p.Items)))
		}
	}
}
