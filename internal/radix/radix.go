// Package radix sorts large arrays by 64-bit keys in linear time: a stable
// least-significant-digit radix sort, 8 or 16 bits a pass, that skips a pass
// when every key has the same digit there (keys that differ only in their
// low bits cost one or two passes, equal keys none).
//
// The planner's interval paths sort a million lifetimes or offsets at a
// time (CheckSolution's sweep, the max-load bound, greedy's time slots);
// a comparison sort through an index costs a cache miss per comparison
// there.
package radix

// small is the length below which Sort uses insertion sort.
const small = 32

// Sort sorts keys ascending and permutes vals with them (len(vals) ==
// len(keys)), stably: equal keys keep their input order. It allocates
// one copy of each slice (none below 32 keys: insertion sort), and from
// 65,536 keys a 512 KiB count array.
func Sort[V any](keys []uint64, vals []V) {
	n := len(keys)
	if len(vals) != n {
		panic("radix: keys and vals differ in length")
	}
	if n < small {
		insertion(keys, vals)
		return
	}
	// One pass over the keys finds the digits that vary: a digit whose
	// bits are equal in every key (or, the same, in every key and the
	// first) moves nothing.
	var diff uint64
	k0 := keys[0]
	for _, k := range keys {
		diff |= k ^ k0
	}
	if diff == 0 {
		return
	}
	kb, vb := make([]uint64, n), make([]V, n)
	if n < wide {
		var count [1 << 8]int // on the stack
		passes(keys, vals, kb, vb, diff, 8, count[:])
	} else {
		passes(keys, vals, kb, vb, diff, 16, make([]int, 1<<16))
	}
}

// wide is the length from which Sort takes 16-bit digits (a 512 KiB
// count array, allocated); below it, 8-bit digits (2 KiB on the stack),
// so that sorting a frame's few hundred items allocates only the copies.
const wide = 1 << 16

// passes runs one counting pass per digit of the given width that varies
// in diff, between keys/vals and the scratch kb/vb, and leaves the
// result in keys/vals.
func passes[V any](keys []uint64, vals []V, kb []uint64, vb []V, diff uint64, width uint, count []int) {
	src, dst, vsrc, vdst := keys, kb, vals, vb
	mask := uint64(len(count) - 1)
	for shift := uint(0); shift < 64; shift += width {
		if (diff>>shift)&mask == 0 {
			continue
		}
		clear(count)
		for _, k := range src {
			count[(k>>shift)&mask]++
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for x, k := range src {
			d := (k >> shift) & mask
			p := count[d]
			count[d] = p + 1
			dst[p] = k
			vdst[p] = vsrc[x]
		}
		src, dst, vsrc, vdst = dst, src, vdst, vsrc
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
		copy(vals, vsrc)
	}
}

func insertion[V any](keys []uint64, vals []V) {
	for i := 1; i < len(keys); i++ {
		k, v := keys[i], vals[i]
		j := i
		for ; j > 0 && keys[j-1] > k; j-- {
			keys[j], vals[j] = keys[j-1], vals[j-1]
		}
		keys[j], vals[j] = k, v
	}
}

// Int64 maps a signed key to an unsigned one of the same order.
func Int64(x int64) uint64 { return uint64(x) ^ 1<<63 }
