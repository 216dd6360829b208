// Package datadir finds the data the tests read: the repository's own
// (testdata/ at the module root, written by scripts/gentestdata, small
// enough to review), which every test runs on, and the held-out data set
// beside the repository (../shared/data, or $ALIASPLAN_DATA), an extra
// run of the same tests when it is there.
//
// A test asks for a kind (Frames, Perfect, Slack, Traces) and ranges over
// the files: first the repository's, which must exist (a missing one fails
// the test and says how to regenerate it), then the held-out ones. Without
// the held-out set the test says so in a skipped "heldout" subtest (go
// test -v shows it), or fails when ALIASPLAN_REQUIRE_DATA=1, as CI sets
// it (.ci/run). ALIASPLAN_DATA=/nonexistent shows what a clean clone
// without the data set runs.
//
// It imports only the standard library and "testing": any test package
// may use it, format's and planner's internal tests included.
package datadir

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Environment variables.
const (
	// EnvDir names the held-out data set's directory (default
	// ../shared/data beside the module root).
	EnvDir = "ALIASPLAN_DATA"
	// EnvRequire, when set and not "0", makes a missing held-out data set
	// a failure instead of a skip.
	EnvRequire = "ALIASPLAN_REQUIRE_DATA"
)

// Kind is a family of data files.
type Kind int

const (
	// Frames are render-graph frames (graph files, SPEC §5).
	Frames Kind = iota
	// Perfect are interval problems (MiniMalloc CSV) that tile time ×
	// memory without gaps: the optimum is the capacity in the file name
	// (NAME.CAPACITY.csv) and equals the max-load bound.
	Perfect
	// Slack are perfect tilings with some rectangles removed: each fits
	// in the capacity in its name; the optimum may be lower.
	Slack
	// Traces are interval problems shaped like ML memory traces (the
	// held-out set's idealloc/ instances).
	Traces
)

// patterns are each kind's files, in the repository's testdata and in the
// held-out set.
var patterns = [...]struct{ repo, heldOut string }{
	Frames:  {"frames/*.json", "frames/*.json"},
	Perfect: {"perfect/*.csv", "perfect/*.csv"},
	Slack:   {"slack/*.csv", "slack/*.csv"},
	Traces:  {"traces/*.csv", "idealloc/*/*.csv"},
}

func (k Kind) String() string {
	return [...]string{"frames", "perfect", "slack", "traces"}[k]
}

// File is one data file.
type File struct {
	Path string // absolute
	// Name is the file's base name without its extension
	// ("deferred-1080p", "perfect-1.1048576").
	Name string
	// HeldOut is true for a file of the held-out data set.
	HeldOut bool
}

// Test is the file's subtest name: Name, under "heldout/" for a held-out
// file.
func (f File) Test() string {
	if f.HeldOut {
		return "heldout/" + f.Name
	}
	return f.Name
}

// Root returns the module root: the nearest directory at or above the
// working directory (a test's package directory) holding go.mod.
func Root(tb testing.TB) string {
	tb.Helper()
	root, err := findRoot()
	if err != nil {
		tb.Fatalf("datadir: %v", err)
	}
	return root
}

var findRoot = sync.OnceValues(func() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", fmt.Errorf("no go.mod at or above %s", dir)
		}
		d = up
	}
})

// Repo returns the repository's data directory, <root>/testdata.
func Repo(tb testing.TB) string {
	tb.Helper()
	return filepath.Join(Root(tb), "testdata")
}

// HeldOutDir returns the held-out data set's directory ($ALIASPLAN_DATA,
// else ../shared/data beside the module root) and whether it exists.
func HeldOutDir(tb testing.TB) (string, bool) {
	tb.Helper()
	dir := os.Getenv(EnvDir)
	if dir == "" {
		dir = filepath.Join(filepath.Dir(Root(tb)), "shared", "data")
	}
	st, err := os.Stat(dir)
	return dir, err == nil && st.IsDir()
}

// Required reports whether a missing held-out data set fails the tests
// ($ALIASPLAN_REQUIRE_DATA set and not "0").
func Required() bool {
	v := os.Getenv(EnvRequire)
	return v != "" && v != "0"
}

// Files returns the repository's files of kind k followed by the held-out
// set's. No repository file fails tb (the testdata is part of the
// repository); no held-out set is reported as Missing describes.
func Files(tb testing.TB, k Kind) []File {
	tb.Helper()
	files := RepoFiles(tb, k)
	return append(files, heldOut(tb, k, false)...)
}

// RepoFiles returns only the repository's files of kind k (for golden
// files, which are written for them); none fails tb.
func RepoFiles(tb testing.TB, k Kind) []File {
	tb.Helper()
	dir := Repo(tb)
	files := glob(dir, patterns[k].repo, false)
	if len(files) == 0 {
		tb.Fatalf("datadir: no %s in %s (%s): the repository's test data is missing; go run ./scripts/gentestdata writes it", k, dir, patterns[k].repo)
	}
	return files
}

// HeldOutFiles returns only the held-out set's files of kind k, for tests
// that have nothing to run on the repository's: without the set it skips
// tb (fails it when Required).
func HeldOutFiles(tb testing.TB, k Kind) []File {
	tb.Helper()
	return heldOut(tb, k, true)
}

// Lookup returns the file of kind k whose Test() is name: a repository
// file ("deferred-320x180"), or a held-out one ("heldout/deferred-1080p"),
// which skips tb without the held-out set (fails it when Required). No
// such file fails tb.
func Lookup(tb testing.TB, k Kind, name string) File {
	tb.Helper()
	var files []File
	if strings.HasPrefix(name, "heldout/") {
		files = HeldOutFiles(tb, k)
	} else {
		files = RepoFiles(tb, k)
	}
	for _, f := range files {
		if f.Test() == name {
			return f
		}
	}
	tb.Fatalf("datadir: no %s file %q", k, name)
	return File{}
}

func heldOut(tb testing.TB, k Kind, skip bool) []File {
	tb.Helper()
	dir, ok := HeldOutDir(tb)
	var files []File
	if ok {
		files = glob(dir, patterns[k].heldOut, true)
	}
	if len(files) > 0 {
		return files
	}
	why := fmt.Sprintf("held-out data set: no %s under %s (../shared/data beside the repository, or $%s)", patterns[k].heldOut, dir, EnvDir)
	if Required() {
		tb.Fatalf("datadir: %s, and $%s is set: the held-out run must not be skipped", why, EnvRequire)
	}
	if skip {
		tb.Skip(why + ": skipped")
	}
	// The repository's files ran; a skipped subtest says what did not.
	if t, ok := tb.(*testing.T); ok {
		t.Run("heldout/"+k.String(), func(t *testing.T) { t.Skip(why + ": the repository's test data only") })
	} else {
		tb.Log(why + ": the repository's test data only")
	}
	return nil
}

// glob lists dir/pattern sorted, as Files.
func glob(dir, pattern string, held bool) []File {
	paths, _ := filepath.Glob(filepath.Join(dir, pattern))
	slices.Sort(paths)
	files := make([]File, 0, len(paths))
	for _, p := range paths {
		name := filepath.Base(p)
		name = strings.TrimSuffix(name, filepath.Ext(name))
		files = append(files, File{Path: p, Name: name, HeldOut: held})
	}
	return files
}
