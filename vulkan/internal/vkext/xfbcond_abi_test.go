package vkext

// The structures of xfbcond.h, checked by TestABI.
func init() {
	abi = append(abi,
		struct {
			ap, vk string
			fields [][2]string
		}{"apPhysicalDeviceTransformFeedbackFeatures", "VkPhysicalDeviceTransformFeedbackFeaturesEXT", fieldsSame("sType", "pNext", "transformFeedback", "geometryStreams")},
		struct {
			ap, vk string
			fields [][2]string
		}{"apPhysicalDeviceTransformFeedbackProperties", "VkPhysicalDeviceTransformFeedbackPropertiesEXT", fieldsSame("sType", "pNext", "maxTransformFeedbackStreams",
			"maxTransformFeedbackBuffers", "maxTransformFeedbackBufferSize", "maxTransformFeedbackStreamDataSize", "maxTransformFeedbackBufferDataSize",
			"maxTransformFeedbackBufferDataStride", "transformFeedbackQueries", "transformFeedbackStreamsLinesTriangles",
			"transformFeedbackRasterizationStreamSelect", "transformFeedbackDraw")},
		struct {
			ap, vk string
			fields [][2]string
		}{"apPhysicalDeviceConditionalRenderingFeatures", "VkPhysicalDeviceConditionalRenderingFeaturesEXT", fieldsSame("sType", "pNext", "conditionalRendering", "inheritedConditionalRendering")},
		struct {
			ap, vk string
			fields [][2]string
		}{"apConditionalRenderingBeginInfo", "VkConditionalRenderingBeginInfoEXT", fieldsSame("sType", "pNext", "buffer", "offset", "flags")},
	)
	consts = append(consts,
		[2]string{"apSTypeTransformFeedbackFeatures", "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT"},
		[2]string{"apSTypeTransformFeedbackProperties", "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_PROPERTIES_EXT"},
		[2]string{"apSTypeConditionalRenderingFeatures", "VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT"},
		[2]string{"apSTypeConditionalRenderingBeginInfo", "VK_STRUCTURE_TYPE_CONDITIONAL_RENDERING_BEGIN_INFO_EXT"},
	)
}
