package interval

var Stats struct{ Queries, Sources, Nexts, SrcNexts, Inserts, SubInserts int }

func (t *Timeline) SizeHist() map[int]int {
	h := map[int]int{}
	for _, s := range t.sub {
		if s != nil {
			b := 1
			for b < s.len() {
				b *= 4
			}
			h[b]++
		}
	}
	for _, s := range t.cover {
		if s != nil {
			b := 1
			for b < s.len() {
				b *= 4
			}
			h[-b]++
		}
	}
	return h
}

func (s *runSet) len() int {
	if s.big != nil {
		return s.big.Len()
	}
	return len(s.small)
}
