package exact

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

func TestScratchOne(t *testing.T) {
	f := filepath.Join(dataDir, "perfect", os.Getenv("FILES"))
	p := readCSV(t, f)
	m := buildModel(p, components(p)[0], true)
	s := newSearch(m)
	round, _ := strconv.Atoi(os.Getenv("ROUND"))
	lim, _ := strconv.ParseInt(os.Getenv("LIM"), 10, 64)
	s.setOrder(valueOrder(m, round))
	t0 := time.Now()
	st := s.run(m.maxLoad, lim)
	t.Logf("status %d nodes %d %v", st, s.nodes, time.Since(t0))
}

func TestScratchSubset(t *testing.T) {
	var sc [3][]uint64
	for _, tc := range []struct {
		sz  []uint64
		cap uint64
	}{{[]uint64{3, 5, 7}, 11}, {[]uint64{3, 5, 7}, 100}, {[]uint64{10, 20}, 5}, {[]uint64{6, 6, 6, 1}, 13}} {
		got := maxSubsetSum(tc.sz, tc.cap, &sc)
		want := uint64(0)
		for mask := 0; mask < 1<<len(tc.sz); mask++ {
			var s uint64
			for i := range tc.sz {
				if mask&(1<<i) != 0 {
					s += tc.sz[i]
				}
			}
			if s <= tc.cap {
				want = max(want, s)
			}
		}
		if got != want {
			t.Errorf("%v %d: %d want %d", tc.sz, tc.cap, got, want)
		}
	}
}

func randOrder(n, round int) []int32 {
	r := rand.New(rand.NewPCG(uint64(round), 1))
	o := make([]int32, n)
	for i := range o {
		o[i] = int32(i)
	}
	r.Shuffle(len(o), func(a, b int) { o[a], o[b] = o[b], o[a] })
	return o
}
