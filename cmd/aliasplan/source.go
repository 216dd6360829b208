package main

import (
	"fmt"

	"github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan"
)

// requirementsSource is where requirements come from, and what to release.
type requirementsSource struct {
	planner.RequirementsSource
	// maxAllocation is the device's maxMemoryAllocationSize (0: unknown,
	// or a profile).
	maxAllocation uint64
	close         func()
}

// Limits implements planner.LimitsSource with the wrapped source's limits
// (none when it has none): the embedded interface alone would hide them,
// and with them the image, heap and allocation checks.
func (s *requirementsSource) Limits() planner.Limits {
	if ls, ok := s.RequirementsSource.(planner.LimitsSource); ok {
		return ls.Limits()
	}
	return planner.Limits{}
}

// source opens where requirements come from for graph g: a profile's
// estimates (--device none) or the Vulkan device, which creates g's
// resources to ask for their requirements. The caller must call close.
func (s *sourceFlags) source(cmd string, g *planner.Graph) (*requirementsSource, error) {
	var prof *planner.Profile
	for _, p := range planner.Profiles {
		if p.Name == s.profile {
			prof = p
		}
	}
	if prof == nil {
		return nil, usageErrorf(cmd, "--profile %q: unknown profile (want %s)", s.profile, profileNames())
	}
	switch s.device {
	case "none":
		return &requirementsSource{RequirementsSource: prof, close: func() {}}, nil
	case "vulkan":
		d, err := vulkan.Open(vulkan.Config{})
		if err != nil {
			return nil, fmt.Errorf("--device vulkan: not available: %s (--device none plans with --profile estimates)", trimPkg(err.Error()))
		}
		res := d.NewResources(g)
		return &requirementsSource{RequirementsSource: res, maxAllocation: d.Info().MaxMemoryAllocationSize,
			close: func() {
				res.Close()
				d.Close()
			}}, nil
	}
	return nil, usageErrorf(cmd, "--device %q: want none or vulkan", s.device)
}
