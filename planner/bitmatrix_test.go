package planner

import (
	"math/rand/v2"
	"testing"
)

// TestTranspose64 checks the 64×64 block transpose against the definition.
func TestTranspose64(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 50; trial++ {
		var x [64]uint64
		for r := range x {
			x[r] = rng.Uint64()
		}
		y := x
		transpose64(&y)
		for r := 0; r < 64; r++ {
			for c := 0; c < 64; c++ {
				if (x[r]>>c)&1 != (y[c]>>r)&1 {
					t.Fatalf("trial %d: bit (%d, %d) is %d, transposed (%d, %d) is %d", trial, r, c, (x[r]>>c)&1, c, r, (y[c]>>r)&1)
				}
			}
		}
	}
}

// TestMirror checks that mirroring a random upper triangle gives the
// symmetric matrix, on sizes around block boundaries.
func TestMirror(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 2, 63, 64, 65, 127, 128, 129, 200} {
		m := newBitMatrix(n)
		want := make([][]bool, n)
		for i := range want {
			want[i] = make([]bool, n)
		}
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if rng.IntN(3) == 0 {
					m.row(i)[j>>6] |= 1 << (uint(j) & 63)
					want[i][j], want[j][i] = true, true
				}
			}
		}
		m.mirror()
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if got := m.row(i)[j>>6]&(1<<(uint(j)&63)) != 0; got != want[i][j] {
					t.Fatalf("n=%d: bit (%d, %d) is %v, want %v", n, i, j, got, want[i][j])
				}
			}
			// Padding bits beyond n stay clear.
			if n%64 != 0 && m.row(i)[len(m.row(i))-1]>>(uint(n)&63) != 0 {
				t.Fatalf("n=%d: row %d has bits beyond n", n, i)
			}
		}
	}
}
