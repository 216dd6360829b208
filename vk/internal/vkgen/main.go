// Command vkgen writes package vk's enum constants and name tables
// (names_gen.go) from the Vulkan header that the binding ships,
// github.com/goki/vulkan's vulkan/vulkan_core.h, so each name is written
// once, in the header. Run it through go generate in vk:
//
//	go generate ./vk
//
// It finds the header in the module cache with go list (the module is the
// one go.mod requires; go mod download fetches it). -header names another
// file. Which names it takes, how it spells them in Go and where the block
// sizes of formats come from: gen.go and formats.go.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// bindingModule holds the header.
const bindingModule = "github.com/goki/vulkan"

func main() {
	out := flag.String("o", "names_gen.go", "the file to write")
	headerPath := flag.String("header", "", "vulkan_core.h (default: the one in "+bindingModule+"'s module directory)")
	flag.Parse()
	if err := run(*out, *headerPath); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(out, headerPath string) error {
	module := bindingModule
	if headerPath == "" {
		var err error
		headerPath, module, err = findHeader()
		if err != nil {
			return err
		}
	}
	src, err := os.ReadFile(headerPath)
	if err != nil {
		return fmt.Errorf("vkgen: %w", err)
	}
	code, err := Generate(src, module)
	if err != nil {
		return err
	}
	return os.WriteFile(out, code, 0o644)
}

// findHeader returns the path of vulkan_core.h in the binding's module
// directory and the module's path and version ("github.com/goki/vulkan
// v1.0.8"), asking go list; an error if the module is not downloaded.
func findHeader() (path, module string, err error) {
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}\t{{.Path}} {{.Version}}", bindingModule)
	cmd.Stderr = nil
	b, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return "", "", fmt.Errorf("vkgen: go list -m %s: %v: %s", bindingModule, err, strings.TrimSpace(string(ee.Stderr)))
		}
		return "", "", fmt.Errorf("vkgen: go list -m %s: %w", bindingModule, err)
	}
	dir, module, _ := strings.Cut(strings.TrimSpace(string(b)), "\t")
	if dir == "" {
		return "", "", fmt.Errorf("vkgen: %s is not in the module cache (go mod download %s)", module, bindingModule)
	}
	path = filepath.Join(dir, "vulkan", "vulkan_core.h")
	if _, err := os.Stat(path); err != nil {
		return "", "", fmt.Errorf("vkgen: %w", err)
	}
	return path, module, nil
}
