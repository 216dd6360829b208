package replay

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		out, src, flags := fields[0], fields[1], fields[2:]
		args := append([]string{"-V", "--target-env", "vulkan1.1"}, flags...)
		args = append(args, "-o", filepath.Join(dir, out), src)
		cmd := exec.Command(tool, args...)
		cmd.Dir = "shaders"
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: glslangValidator: %v\n%s", out, err, msg)
		}
		got, err := os.ReadFile(filepath.Join(dir, out))
		if err != nil {
			t.Fatal(err)
		}
		want, err := spirv.ReadFile("shaders/" + out)
		if err != nil {
			t.Fatalf("%s: not embedded: %v (run go generate ./vulkan/replay)", out, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s compiled now: run go generate ./vulkan/replay", out, src)
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
