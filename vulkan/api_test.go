package vulkan

import (
	"errors"
	"strings"
	"testing"

	vk "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/planner"
)

// These tests need no device.

func TestChooseAPI(t *testing.T) {
	v := MakeVersion
	tests := []struct {
		name             string
		instance, device Version
		ext              bool
		want             apiChoice
		missing          string // the error names it; "" for success
	}{
		{"1.3 device", v(1, 3, 0), v(1, 3, 230), false, apiChoice{API: v(1, 3, 0)}, ""},
		{"1.4 device, 1.3 instance", v(1, 3, 0), v(1, 4, 312), false, apiChoice{API: v(1, 3, 0)}, ""},
		{"1.2 device with the extension", v(1, 3, 0), v(1, 2, 198), true, apiChoice{API: v(1, 2, 198), Sync2Ext: true}, ""},
		{"1.1 device with the extension", v(1, 3, 0), v(1, 1, 100), true, apiChoice{API: v(1, 1, 100), Sync2Ext: true}, ""},
		{"1.3 device behind a 1.2 loader", v(1, 2, 0), v(1, 3, 230), true, apiChoice{API: v(1, 2, 0), Sync2Ext: true}, ""},
		{"1.2 device without the extension", v(1, 3, 0), v(1, 2, 198), false, apiChoice{}, "VK_KHR_synchronization2"},
		{"1.0 device", v(1, 3, 0), v(1, 0, 61), true, apiChoice{}, "Vulkan 1.1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := chooseAPI("gpu", tc.instance, tc.device, tc.ext)
			if tc.missing == "" {
				if err != nil || got != tc.want {
					t.Fatalf("chooseAPI = %+v, %v; want %+v", got, err, tc.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.missing) || !errors.Is(err, ErrUnsupported) || !Unavailable(err) {
				t.Fatalf("chooseAPI error %v; want ErrUnsupported naming %s", err, tc.missing)
			}
		})
	}
}

func TestOwnMemoryType(t *testing.T) {
	h200 := planner.ProfileH200.Types // [0] none, [1] DL, [2] HV|HC, [3] HV|HC|cached, [4] DL|HV|HC
	lavapipe := planner.ProfileLavapipe.Types
	tests := []struct {
		types []planner.MemoryType
		bits  uint32
		mem   planner.Memory
		want  uint32
		ok    bool
	}{
		{h200, 0x1f, planner.GPUOnly, 1, true},
		{h200, 0x1f, planner.CPUToGPU, 2, true},
		{h200, 0x1f, planner.GPUToCPU, 3, true},
		{h200, 0x3, planner.CPUToGPU, 0, false}, // optimal images: no host-visible type
		{h200, 0x10, planner.GPUOnly, 4, true},
		{lavapipe, 0x1, planner.GPUOnly, 0, true},
		{lavapipe, 0x1, planner.GPUToCPU, 0, true},
	}
	for _, tc := range tests {
		got, ok := ownMemoryType(tc.types, tc.bits, tc.mem)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ownMemoryType(bits %#x, %s) = %d, %t; want %d, %t", tc.bits, tc.mem, got, ok, tc.want, tc.ok)
		}
	}
}

func TestErrors(t *testing.T) {
	if got := check("vkCreateImage", vk.ErrorOutOfDeviceMemory).Error(); got != "vulkan: vkCreateImage: VK_ERROR_OUT_OF_DEVICE_MEMORY" {
		t.Errorf("Error() = %q", got)
	}
	if check("vkCreateImage", vk.Success) != nil {
		t.Error("check(Success) != nil")
	}
	if got := (&Error{Call: "vkFoo", Result: vk.Result(-424242)}).Error(); got != "vulkan: vkFoo: VkResult(-424242)" {
		t.Errorf("unknown result: %q", got)
	}
	cause := check("vkAllocateMemory", vk.ErrorOutOfDeviceMemory)
	be := &BindError{Step: "allocate pool 1", Detail: "1024 bytes of memory type 1", Err: cause}
	if got, want := be.Error(), "vulkan: bind: allocate pool 1: 1024 bytes of memory type 1: vulkan: vkAllocateMemory: VK_ERROR_OUT_OF_DEVICE_MEMORY"; got != want {
		t.Errorf("BindError = %q, want %q", got, want)
	}
	var ve *Error
	if !errors.As(be, &ve) || ve.Result != vk.ErrorOutOfDeviceMemory {
		t.Error("BindError does not unwrap to the *Error")
	}
	be = &BindError{Step: "validate", Resource: "gbuffer", Rule: RuleAlignment, Detail: "offset 8 is not a multiple of the alignment 64"}
	if got, want := be.Error(), `vulkan: bind: validate: resource "gbuffer": offset 8 is not a multiple of the alignment 64 (rule alignment)`; got != want {
		t.Errorf("BindError = %q, want %q", got, want)
	}
	for _, err := range []error{ErrNoLoader, ErrNoDevice, ErrNoValidationLayer, ErrUnsupported} {
		if !Unavailable(err) {
			t.Errorf("Unavailable(%v) = false", err)
		}
	}
	if Unavailable(cause) {
		t.Error("Unavailable(a failed call) = true")
	}
}

func TestVersion(t *testing.T) {
	v := MakeVersion(1, 3, 239)
	if v.String() != "1.3.239" || !v.atLeast(MakeVersion(1, 3, 0)) || v.atLeast(MakeVersion(1, 4, 0)) || !v.atLeast(MakeVersion(1, 1, 500)) {
		t.Errorf("Version %s comparisons wrong", v)
	}
}

func TestAliasable(t *testing.T) {
	img := planner.Resource{Kind: planner.KindImage}
	if !aliasable(&img) {
		t.Error("a transient device-local image is not aliasable")
	}
	for _, r := range []planner.Resource{
		{Kind: planner.KindImage, Imported: true},
		{Kind: planner.KindImage, Dedicated: true},
		{Kind: planner.KindImage, Memory: planner.GPUToCPU},
		{Kind: planner.KindBuffer},
	} {
		if aliasable(&r) {
			t.Errorf("%+v is aliasable", r)
		}
	}
}
