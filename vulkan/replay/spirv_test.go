package replay

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// TestSPIRVMatchesSource recompiles every shader variant of
// shaders/variants.txt with glslangValidator, as go generate does, and
// compares it with the embedded SPIR-V, so a shader edited without
// regenerating fails. It skips, saying so, where glslangValidator is not
// installed (Debian: glslang-tools; make test's setup installs it).
func TestSPIRVMatchesSource(t *testing.T) {
	tool, err := exec.LookPath("glslangValidator")
	if err != nil {
		t.Skip("SKIP: glslangValidator not installed (Debian: glslang-tools), SPIR-V not compared with its source")
	}
	f, err := os.Open("shaders/variants.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dir := t.TempDir()
	type variant struct {
		out, src string
		flags    []string
	}
	var vs []variant
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		vs = append(vs, variant{fields[0], fields[1], fields[2:]})
	}
	// One compiler a core (session 13: 35 more variants; the compiles
	// are independent).
	errs := make([]string, len(vs))
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	var wg sync.WaitGroup
	for i, v := range vs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			args := append([]string{"-V", "--target-env", "vulkan1.1"}, v.flags...)
			args = append(args, "-o", filepath.Join(dir, v.out), v.src)
			cmd := exec.Command(tool, args...)
			cmd.Dir = "shaders"
			if msg, err := cmd.CombinedOutput(); err != nil {
				errs[i] = fmt.Sprintf("%s: glslangValidator: %v\n%s", v.out, err, msg)
			}
		}()
	}
	wg.Wait()
	n := 0
	for i, v := range vs {
		if errs[i] != "" {
			t.Fatal(errs[i])
		}
		got, err := os.ReadFile(filepath.Join(dir, v.out))
		if err != nil {
			t.Fatal(err)
		}
		want, err := spirv.ReadFile("shaders/" + v.out)
		if err != nil {
			t.Fatalf("%s: not embedded: %v (run go generate ./vulkan/replay)", v.out, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s compiled now: run go generate ./vulkan/replay", v.out, v.src)
		}
		n++
	}
	if n == 0 {
		t.Fatal("shaders/variants.txt lists no shader")
	}
	embedded, _ := spirv.ReadDir("shaders")
	if len(embedded) != n {
		t.Errorf("%d SPIR-V files embedded, %d listed in variants.txt", len(embedded), n)
	}
}
