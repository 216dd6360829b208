package vulkan

import "fmt"

// Version is a Vulkan API version number (VK_MAKE_API_VERSION).
type Version uint32

// MakeVersion packs major.minor.patch.
func MakeVersion(major, minor, patch uint32) Version {
	return Version(major<<22 | minor<<12 | patch)
}

var (
	version11 = MakeVersion(1, 1, 0)
	version13 = MakeVersion(1, 3, 0)
)

func (v Version) Major() uint32 { return uint32(v) >> 22 & 0x7f }
func (v Version) Minor() uint32 { return uint32(v) >> 12 & 0x3ff }
func (v Version) Patch() uint32 { return uint32(v) & 0xfff }

func (v Version) String() string { return fmt.Sprintf("%d.%d.%d", v.Major(), v.Minor(), v.Patch()) }

// atLeast compares ignoring the variant and patch fields.
func (v Version) atLeast(w Version) bool {
	return v.Major() > w.Major() || v.Major() == w.Major() && v.Minor() >= w.Minor()
}

// apiChoice is how a device is driven.
type apiChoice struct {
	API      Version // the version in effect: the lower of the instance's and the device's
	Sync2Ext bool    // synchronization2 through VK_KHR_synchronization2 (else core 1.3)
}

// chooseAPI decides how to drive a device, or says what it lacks:
// Vulkan 1.1 for the *2 memory calls and dedicated allocations, and
// synchronization2 from Vulkan 1.3 or VK_KHR_synchronization2. It is pure
// so that every branch is tested without such a device.
func chooseAPI(name string, instanceAPI, deviceAPI Version, hasSync2Ext bool) (apiChoice, error) {
	api := min(instanceAPI, deviceAPI)
	switch {
	case !api.atLeast(version11):
		return apiChoice{}, fmt.Errorf("%w: %q: Vulkan %s in effect (device %s, instance %s); aliasplan needs Vulkan 1.1 (vkGetBufferMemoryRequirements2, vkBindBufferMemory2, dedicated allocations) and Vulkan 1.3 or VK_KHR_synchronization2",
			ErrUnsupported, name, api, deviceAPI, instanceAPI)
	case api.atLeast(version13):
		return apiChoice{API: api}, nil
	case hasSync2Ext:
		return apiChoice{API: api, Sync2Ext: true}, nil
	}
	return apiChoice{}, fmt.Errorf("%w: %q: Vulkan %s in effect (device %s, instance %s) and no VK_KHR_synchronization2; aliasplan needs Vulkan 1.3, or Vulkan 1.1 with VK_KHR_synchronization2, for vkCmdPipelineBarrier2",
		ErrUnsupported, name, api, deviceAPI, instanceAPI)
}
