package format

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/aliasplan/aliasplan/internal/datadir"
	"github.com/aliasplan/aliasplan/planner"
)

func TestCSVRead(t *testing.T) {
	in := "id,lower,upper,size\n" +
		"a,0,3,16\n" +
		"\n" + // blank lines are skipped
		" b , 2 , 5 , 8 \n"
	bufs, err := ReadIntervals(strings.NewReader(in), "p.csv")
	if err != nil {
		t.Fatal(err)
	}
	want := []IntervalBuffer{{"a", 0, 3, 16, 1}, {"b", 2, 5, 8, 1}}
	if !reflect.DeepEqual(bufs, want) {
		t.Fatalf("got %+v, want %+v", bufs, want)
	}
	// Columns in any order, alignment, an offset column that is ignored,
	// upper-case names, a byte-order mark.
	in = "\ufeffOffset,size,ALIGNMENT,upper,lower,id\n" +
		"999,4096,256,10,1,x\n" +
		"not-a-number,1,1,2,0,y\n"
	bufs, err = ReadIntervals(strings.NewReader(in), "q.csv")
	if err != nil {
		t.Fatal(err)
	}
	want = []IntervalBuffer{{"x", 1, 10, 4096, 256}, {"y", 0, 2, 1, 1}}
	if !reflect.DeepEqual(bufs, want) {
		t.Fatalf("got %+v, want %+v", bufs, want)
	}
	items := IntervalItems(bufs)
	if items[0] != (planner.Item{Size: 4096, Alignment: 256, Start: 1, End: 10}) {
		t.Errorf("IntervalItems = %+v", items[0])
	}
	if bufs, err := ReadIntervals(strings.NewReader("id,lower,upper,size\n"), "e.csv"); err != nil || len(bufs) != 0 {
		t.Errorf("header only: %v, %v", bufs, err)
	}
}

func TestCSVReadErrors(t *testing.T) {
	const h = "id,lower,upper,size\n"
	tests := []struct {
		name, in string
		rule     planner.Rule
		item     string
		detail   string // a substring of Detail
	}{
		{"empty file", "", planner.RuleSyntax, "", "empty file"},
		{"missing column", "id,lower,size\nx,0,1\n", planner.RuleMissingField, "line 1", `"upper"`},
		{"unknown column", "id,lower,upper,size,color\nx,0,1,2,red\n", planner.RuleUnknownField, "line 1", `"color"`},
		{"column twice", "id,lower,upper,size,size\n", planner.RuleUnknownField, "line 1", "twice"},
		{"field count", h + "a,0,1,4\nb,0,1\n", planner.RuleSyntax, "line 3", "number of fields"},
		{"bad quote", h + "\"a,0,1,4\n", planner.RuleSyntax, "line 2", ""},
		{"not an integer", h + "a,0,x1,4\n", planner.RuleSyntax, "line 2", `upper "x1" is not an integer`},
		{"fraction", h + "a,0,1,4.5\n", planner.RuleSyntax, "line 2", "size"},
		{"empty value", h + "a,,1,4\n", planner.RuleSyntax, "line 2", "lower"},
		{"negative lower", h + "a,-1,1,4\n", planner.RuleField, "line 2", "negative"},
		{"negative size", h + "a,0,1,-4\n", planner.RuleField, "line 2", "negative"},
		{"huge negative", h + "a,-99999999999999999999,1,4\n", planner.RuleField, "line 2", "negative"},
		{"size too big", h + "a,0,1,18446744073709551616\n", planner.RuleField, "line 2", "64 bits"},
		{"lower too big", h + "a,9223372036854775808,9223372036854775809,4\n", planner.RuleField, "line 2", "int64"},
		{"empty lifetime", h + "a,0,1,4\nb,5,5,4\n", planner.RuleEmptyLifetime, "line 3", `"b"`},
		{"reversed lifetime", h + "a,7,5,4\n", planner.RuleEmptyLifetime, "line 2", "[7, 5)"},
		{"zero size", h + "a,0,1,0\n", planner.RuleZeroSize, "line 2", "size is 0"},
		{"alignment 0", "id,lower,upper,size,alignment\na,0,1,4,0\n", planner.RuleAlignment, "line 2", "alignment 0"},
		{"alignment 3", "id,lower,upper,size,alignment\na,0,1,4,3\n", planner.RuleAlignment, "line 2", "alignment 3"},
		{"duplicate id", h + "a,0,1,4\nb,0,1,4\na,2,3,4\n", planner.RuleDuplicateName, "line 4", "line 2"},
		{"empty id", h + " ,0,1,4\n", planner.RuleEmptyName, "line 2", "empty id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadIntervals(strings.NewReader(tt.in), "bad.csv")
			var ge *planner.GraphError
			if !errors.As(err, &ge) {
				t.Fatalf("error %v (%T), want a *GraphError", err, err)
			}
			if ge.File != "bad.csv" || ge.Rule != tt.rule || ge.Item != tt.item || !strings.Contains(ge.Detail, tt.detail) {
				t.Errorf("got file %q item %q rule %s detail %q; want item %q rule %s detail containing %q",
					ge.File, ge.Item, ge.Rule, ge.Detail, tt.item, tt.rule, tt.detail)
			}
			if !strings.Contains(err.Error(), "bad.csv") {
				t.Errorf("message %q does not name the file", err)
			}
		})
	}
	_, err := ReadIntervals(strings.NewReader(h+"a,0,1,4\na,0,1,4\n"), "d.csv")
	if ge := (*planner.GraphError)(nil); !errors.As(err, &ge) || ge.Resource != "a" {
		t.Errorf("duplicate id error does not name the id: %v", err)
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestCSVReadIOError(t *testing.T) {
	_, err := ReadIntervals(failingReader{}, "f.csv")
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("err = %v", err)
	}
}

func TestCSVWriteSolution(t *testing.T) {
	bufs := []IntervalBuffer{{"a", 0, 3, 16, 1}, {"b,c", 2, 5, 8, 1}}
	sol := &planner.Solution{Pool: []int32{0, 0}, Offset: []uint64{0, 16}, PoolSizes: []uint64{24}}
	var out bytes.Buffer
	if err := WriteSolution(&out, bufs, sol); err != nil {
		t.Fatal(err)
	}
	want := "id,lower,upper,size,offset\na,0,3,16,0\n\"b,c\",2,5,8,16\n"
	if out.String() != want {
		t.Errorf("wrote\n%s\nwant\n%s", out.String(), want)
	}
	back, err := ReadIntervals(&out, "round.csv")
	if err != nil || !reflect.DeepEqual(back, bufs) {
		t.Errorf("round trip: %+v, %v", back, err)
	}

	bufs[1].Alignment = 8
	out.Reset()
	if err := WriteSolution(&out, bufs, sol); err != nil {
		t.Fatal(err)
	}
	if want := "id,lower,upper,size,alignment,offset\na,0,3,16,1,0\n\"b,c\",2,5,8,8,16\n"; out.String() != want {
		t.Errorf("wrote\n%s\nwant\n%s", out.String(), want)
	}

	two := &planner.Solution{Pool: []int32{0, 1}, Offset: []uint64{0, 0}, PoolSizes: []uint64{16, 8}}
	if err := WriteSolution(&out, bufs, two); err == nil || !strings.Contains(err.Error(), "2 pools") {
		t.Errorf("two pools: %v", err)
	}
	if err := WriteSolution(&out, bufs[:1], sol); err == nil {
		t.Error("length mismatch not reported")
	}
}

// csvFiles are the MiniMalloc files of the test data (internal/datadir).
func csvFiles(t testing.TB) []datadir.File {
	var files []datadir.File
	for _, k := range []datadir.Kind{datadir.Perfect, datadir.Slack, datadir.Traces} {
		files = append(files, datadir.Files(t, k)...)
	}
	return files
}

// csvSeeds returns the MiniMalloc files of the test data.
func csvSeeds(t testing.TB) [][]byte {
	var seeds [][]byte
	for _, file := range csvFiles(t) {
		f := file.Path
		data, err := os.ReadFile(f)
		if err != nil {
			t.Logf("seed %s: %v", f, err)
			continue
		}
		if len(data) > 64<<10 { // the fuzzer mutates small inputs better
			data = data[:bytes.LastIndexByte(data[:64<<10], '\n')+1]
		}
		seeds = append(seeds, data)
	}
	return seeds
}

func TestCSVData(t *testing.T) {
	for _, file := range csvFiles(t) {
		f := file.Path
		r, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		bufs, err := ReadIntervals(r, f)
		r.Close()
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if _, err := planner.NewIntervalProblem(IntervalItems(bufs), 0); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func FuzzReadIntervals(f *testing.F) {
	f.Add([]byte("id,lower,upper,size\na,0,1,4\n"))
	f.Add([]byte("id,lower,upper,size,alignment,offset\na,0,1,4,2,0\n\"b\n\",1,3,9,1,x\n"))
	for _, s := range csvSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		bufs, err := ReadIntervals(bytes.NewReader(data), "fuzz.csv")
		if err != nil {
			var ge *planner.GraphError
			if errors.As(err, &ge) && ge.File != "fuzz.csv" {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		p, err := planner.NewIntervalProblem(IntervalItems(bufs), 0)
		if err != nil {
			t.Fatalf("read succeeded but the problem is invalid: %v", err)
		}
		sol := &planner.Solution{Pool: make([]int32, len(bufs)), Offset: make([]uint64, len(bufs))}
		for i := range p.Items {
			sol.Offset[i] = uint64(i) * 3 // any offsets: the reader ignores them
		}
		var out bytes.Buffer
		if err := WriteSolution(&out, bufs, sol); err != nil {
			t.Fatal(err)
		}
		back, err := ReadIntervals(&out, "back.csv")
		if err != nil {
			t.Fatalf("written solution does not read back: %v\n%s", err, out.String())
		}
		if len(back) != len(bufs) || (len(bufs) > 0 && !reflect.DeepEqual(back, bufs)) {
			t.Fatalf("round trip changed the buffers:\n%+v\n%+v", bufs, back)
		}
	})
}

func ExampleReadIntervals() {
	in := `id,lower,upper,size,offset
a,0,2,256,999
b,1,3,128,0
c,2,4,256,0
`
	bufs, err := ReadIntervals(strings.NewReader(in), "example.csv")
	if err != nil {
		panic(err)
	}
	p, err := planner.NewIntervalProblem(IntervalItems(bufs), 0)
	if err != nil {
		panic(err)
	}
	// a and c never live together, so c may reuse a's bytes; b overlaps
	// both. (A strategy would find this; here it is written out.)
	sol := &planner.Solution{Pool: []int32{0, 0, 0}, Offset: []uint64{0, 256, 0}, PoolSizes: []uint64{384}}
	if err := planner.CheckSolution(p, sol); err != nil {
		panic(err)
	}
	if err := WriteSolution(os.Stdout, bufs, sol); err != nil {
		panic(err)
	}
	// Output:
	// id,lower,upper,size,offset
	// a,0,2,256,0
	// b,1,3,128,256
	// c,2,4,256,0
}
