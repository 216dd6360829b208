package aliasplan_test

import (
	"go/build"
	"strings"
	"testing"
)

// TestPureCoreImports enforces the layout of SPEC §1: the pure core
// imports only the standard library, btree and bitset (and its own
// packages as the table allows); no cgo, no vulkan.
func TestPureCoreImports(t *testing.T) {
	const mod = "github.com/aliasplan/aliasplan/"
	allowed := map[string][]string{
		"internal/invariants":        {},
		"internal/suggest":           {},
		"internal/radix":             {},
		"vk":                         {mod + "internal/suggest"},
		"interval":                   {"github.com/google/btree", mod + "internal/invariants"},
		"planner":                    {mod + "interval", mod + "vk", mod + "internal/invariants", mod + "internal/radix"},
		"verify":                     {mod + "planner", mod + "interval", mod + "vk"},
		"strategies/internal/greedy": {mod + "planner", mod + "interval", "github.com/google/btree", mod + "internal/invariants", mod + "internal/radix"},
		"strategies/firstfit":        {mod + "planner", mod + "strategies/internal/greedy"},
		"strategies/bestfit":         {mod + "planner", mod + "strategies/internal/greedy"},
		"strategies/exact":           {mod + "planner", mod + "interval", mod + "strategies/firstfit", mod + "strategies/bestfit", mod + "internal/invariants"},
		"strategies/strategytest":    {mod + "planner"},
		"barriers":                   {mod + "planner", mod + "interval", mod + "vk"},
		"format":                     {mod + "planner", mod + "vk", mod + "internal/suggest"},
	}
	for pkg, ok := range allowed {
		p, err := build.Default.Import(mod+pkg, ".", 0)
		if err != nil {
			t.Errorf("%s: %v", pkg, err)
			continue
		}
		if len(p.CgoFiles) > 0 {
			t.Errorf("%s uses cgo: %v", pkg, p.CgoFiles)
		}
		for _, imp := range p.Imports {
			if imp == "C" {
				t.Errorf("%s imports C", pkg)
				continue
			}
			if !strings.Contains(imp, ".") { // standard library
				continue
			}
			found := false
			for _, a := range ok {
				found = found || imp == a
			}
			if !found {
				t.Errorf("%s imports %s; the pure core may import only %v and the standard library", pkg, imp, ok)
			}
		}
	}
}
