package replay

import (
	"errors"
	"fmt"
	"strings"

	vkg "github.com/goki/vulkan"

	"github.com/aliasplan/aliasplan/vk"

	p "github.com/aliasplan/aliasplan/planner"
	"github.com/aliasplan/aliasplan/vulkan"
)

// Stages the replay has no pipeline or command for. A use in one of them
// is refused after querying the device for the extension the stage
// needs: a device without it cannot run the stage (a device limit, named
// as such); a device with it is told the replay has not learnt the stage
// yet (docs/replay.md, "What is left").
var unbuiltStages = []struct {
	stage vk.Stage
	ext   []string // any of these provides the stage
	what  string
}{
	// VIDEO_DECODE_KHR: videoDecodeReason (videodecode.go) names the
	// queue families.
	{vk.StageFragmentDensityProcessEXT, []string{"VK_EXT_fragment_density_map"}, "fragment density maps"},
	// COMMAND_PREPROCESS: dgc.go (VK_EXT_device_generated_commands; a
	// device with only the NV extension is refused there, naming it).
	// OPTICAL_FLOW_NV: opticalFlowReason (oflow.go) names what is missing.
	{vk.StageMicromapBuildEXT, []string{"VK_EXT_opacity_micromap"}, "micromap builds"},
	{vk.StageSubpassShadingHUAWEI | vk.StageInvocationMaskHUAWEI | vk.StageClusterCullingShaderHUAWEI,
		[]string{"VK_HUAWEI_subpass_shading", "VK_HUAWEI_invocation_mask", "VK_HUAWEI_cluster_culling_shader"}, "HUAWEI stages"},
}

// refineUnbuilt rewords analyzeCommand's refusal of command c when the
// access is in a stage the replay has no work for: it names the device
// extension the stage needs and whether the device has it.
func refineUnbuilt(dev *vulkan.Device, g *p.Graph, c p.CommandID, err error) error {
	var ue *UnsupportedError
	if !errors.As(err, &ue) {
		return err
	}
	if strings.HasPrefix(ue.Reason, "storage-image reads of format") || strings.HasPrefix(ue.Reason, "multisampled storage-image reads of format") {
		var f vkg.PhysicalDeviceFeatures
		vkg.GetPhysicalDeviceFeatures(dev.Physical(), &f)
		f.Deref()
		if f.ShaderStorageImageReadWithoutFormat != vkg.True {
			ue.Reason += fmt.Sprintf("; %s lacks shaderStorageImageReadWithoutFormat (queried), which format-less reads would need", dev.Info().Name)
		} else {
			ue.Reason += fmt.Sprintf("; %s has shaderStorageImageReadWithoutFormat, but the stage has no format-less read arrays (fmtless.go: every shader stage of the replay's slot arrays has them)", dev.Info().Name)
		}
		return ue
	}
	var st vk.Stage
	for _, a := range g.Commands[c].Accesses {
		if g.Resources[a.Resource].Name == ue.Resource {
			st |= a.Stages
		}
	}
	if st&vk.StageOpticalFlowNV != 0 {
		ue.Reason = opticalFlowReason(queryOpticalFlow(dev), g, c) // oflow.go
		return ue
	}
	if st&vk.StageVideoDecode != 0 {
		f := queryOpticalFlow(dev)                                                                                   // its queue families are every stage's
		ue.Reason = videoDecodeReason(f.name, deviceExtensionSet(dev)[extVideoDecode], f.Families, f.GraphicsFamily) // videodecode.go
		return ue
	}
	for _, u := range unbuiltStages {
		if st&u.stage == 0 {
			continue
		}
		have := deviceExtensionSet(dev)
		for _, e := range u.ext {
			if have[e] {
				ue.Reason = fmt.Sprintf("%s has %s, but the replay has no %s work (not built; docs/replay.md, what is left)", dev.Info().Name, e, u.what)
				return ue
			}
		}
		ue.Reason = fmt.Sprintf("%s lacks %s (queried): the device cannot run %s", dev.Info().Name, u.ext[0], u.what)
		return ue
	}
	return err
}

func deviceExtensionSet(dev *vulkan.Device) map[string]bool {
	out := map[string]bool{}
	var n uint32
	if vkg.EnumerateDeviceExtensionProperties(dev.Physical(), "\x00", &n, nil) != vkg.Success || n == 0 {
		return out
	}
	props := make([]vkg.ExtensionProperties, n)
	if vkg.EnumerateDeviceExtensionProperties(dev.Physical(), "\x00", &n, props) != vkg.Success {
		return out
	}
	for i := range props[:n] {
		props[i].Deref()
		out[vkg.ToString(props[i].ExtensionName[:])] = true
	}
	return out
}
