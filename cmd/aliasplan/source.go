package main

import (
	"fmt"

	"github.com/aliasplan/aliasplan/planner"
)

// source returns where requirements come from: a profile's estimates
// (--device none) or the Vulkan device. close releases the device.
func (s *sourceFlags) source(cmd string) (src planner.RequirementsSource, close func(), err error) {
	var prof *planner.Profile
	for _, p := range planner.Profiles {
		if p.Name == s.profile {
			prof = p
		}
	}
	if prof == nil {
		return nil, nil, usageErrorf(cmd, "--profile %q: unknown profile (want %s)", s.profile, profileNames())
	}
	switch s.device {
	case "none":
		return prof, func() {}, nil
	case "vulkan":
		return openDevice()
	}
	return nil, nil, usageErrorf(cmd, "--device %q: want none or vulkan", s.device)
}

// openDevice opens the first Vulkan device as a requirements source.
func openDevice() (planner.RequirementsSource, func(), error) {
	return nil, nil, fmt.Errorf("--device vulkan: not available: this build's vulkan package offers no requirements source yet; use --device none (requirements from --profile, labelled as estimates)")
}
