package radix

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortAgreesWithStableSort compares Sort with slices.SortStableFunc on
// keys of several spreads (equal, low bits only, high bits only, full
// range, signed), the payload being the input position, so that the test
// fails if equal keys lose their input order or a varying digit is
// skipped.
func TestSortAgreesWithStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gens := map[string]func() uint64{
		"equal":  func() uint64 { return 42 },
		"low":    func() uint64 { return rng.Uint64N(100) },
		"high":   func() uint64 { return rng.Uint64N(8) << 60 },
		"mid":    func() uint64 { return rng.Uint64N(1<<20) << 20 },
		"full":   rng.Uint64,
		"signed": func() uint64 { return Int64(rng.Int64N(2000) - 1000) },
	}
	for name, gen := range gens {
		for _, n := range []int{0, 1, 2, 31, 32, 33, 1000, 65535, 65536, 100000} {
			keys := make([]uint64, n)
			vals := make([]int32, n)
			type kv struct {
				k uint64
				v int32
			}
			want := make([]kv, n)
			for i := range keys {
				keys[i], vals[i] = gen(), int32(i)
				want[i] = kv{keys[i], vals[i]}
			}
			slices.SortStableFunc(want, func(a, b kv) int { return cmp.Compare(a.k, b.k) })
			Sort(keys, vals)
			for i := range want {
				if keys[i] != want[i].k || vals[i] != want[i].v {
					t.Fatalf("%s n=%d: position %d is (%d, %d), want (%d, %d)", name, n, i, keys[i], vals[i], want[i].k, want[i].v)
				}
			}
		}
	}
}

func TestInt64Order(t *testing.T) {
	xs := []int64{-1 << 63, -5, -1, 0, 1, 7, 1<<63 - 1}
	for i := 1; i < len(xs); i++ {
		if Int64(xs[i-1]) >= Int64(xs[i]) {
			t.Errorf("Int64(%d) >= Int64(%d)", xs[i-1], xs[i])
		}
	}
}

func BenchmarkSort(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 1 << 20
	src := make([]uint64, n)
	for i := range src {
		src[i] = rng.Uint64N(1 << 40)
	}
	keys, vals := make([]uint64, n), make([]int32, n)
	for b.Loop() {
		copy(keys, src)
		for i := range vals {
			vals[i] = int32(i)
		}
		Sort(keys, vals)
	}
}
