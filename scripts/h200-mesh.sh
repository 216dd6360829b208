#!/usr/bin/env bash
# h200-mesh.sh, run THERE on the device machine from the repository root,
# with .gl and .vk carried (scripts/h200-prepare.sh makes them and puts
# this script in .vk): issue 21's extension stages on the H200 (branch
# mesh7): task and mesh shaders (VK_EXT_mesh_shader) and, where built,
# acceleration structures and ray queries. replay.test's tests open their
# own devices with vulkan.Config.ReplayStages, replay intact frames
# (aliased and unaliased: no message, equal digests) and run the digest
# negative controls (a placement that clobbers what the stage reads: the
# command's digest must differ). ALIASPLAN_REQUIRE_EXT=1 makes a missing
# extension fail instead of skip (the H200 has them all). Session 8
# (branch replay8-ray) adds TestAccelCopyStage (VK_KHR_ray_tracing_
# maintenance1 enabled, and the BUILD-stage fallback), TestMeshMixed*
# (mesh and vertex-pipeline work in one command) and TestMeshIndirect
# (mesh indirect reads as vkCmdDrawMeshTasksIndirectCountEXT; needs
# VK_KHR_draw_indirect_count), all taken by the pattern below. Session 10
# (branch as10) adds TestASInput* (builds over compute-written graph
# buffers as R16G16B16A16_SNORM vertices, their digest clobber control and
# refusals) and vulkan.test's TestDeviceAddressMemory; branch rt10 adds
# the ray generation stage's storage, uniform and sampled accesses
# (raygen.go): TestRayGenSlots, TestRayGenClobber, TestRayGenUnordered,
# TestRayGenNotEnabled and TestRayGenGeneratedFrames (RAYGEN_FRAMES seeds
# of proptest.RayShaderReplayFrame); branch rq10 adds TestGfxRayQuery*
# (ray queries in graphics stages): the H200 has no VK_KHR_ray_query, so
# they check that such a frame is refused naming it and skip (not failed
# under ALIASPLAN_REQUIRE_EXT=1). Session 13 (branch fmtless13) adds
# TestFormatless* (format-less storage reads in the tessellation,
# geometry, task and mesh stages, beside unsigned colour attachments, and
# the generated frames; ALIASPLAN_REQUIRE_FMTLESS=1: the H200 has
# shaderStorageImageReadWithoutFormat, so a refusal fails) and the task
# and mesh ray-query tests TestGfxRayQueryMesh* (no VK_KHR_ray_query
# there: they check the refusal and skip). Branch dgc13 adds
# TestASIndirect* (vkCmdBuildAccelerationStructuresIndirectKHR, ranges
# from compute-written graph buffers; asindirect.go): where the device
# lacks accelerationStructureIndirectBuild (NVIDIA's drivers are said to)
# TestASIndirectBuild checks the refusal names the feature and skips (not
# failed under ALIASPLAN_REQUIRE_EXT=1), TestASIndirectRefusedAsDeviceLimit
# passes, and TestASIndirectGeneratedFrames checks ASI_FRAMES (10) frames
# are refused; where it has it, they replay. TestASIndirectRangeWrites
# checks the range words the writers leave on any device. The session
# also adds TestASUpdate* and TestASBottomLevelLifetime (picked by the
# TestAS pattern). Output in $OUT/mesh-h200.log.
#   device run: command "bash .vk/h200-mesh.sh", carry [".gl", ".vk"]
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-.}"
log="$out/mesh-h200.log"
. "$(dirname "$0")/h200-env.sh"
export ALIASPLAN_SHARE_DEVICE=1 ALIASPLAN_REQUIRE_VULKAN=1 ALIASPLAN_REQUIRE_EXT=1 ALIASPLAN_REQUIRE_FMTLESS=1
export ALIASPLAN_VULKAN_DEVICE="${ALIASPLAN_VULKAN_DEVICE:-H200}"
export ALIASPLAN_MESH_FRAMES="${MESH_FRAMES:-40}" ALIASPLAN_RAY_FRAMES="${RAY_FRAMES:-40}" ALIASPLAN_RAYGEN_FRAMES="${RAYGEN_FRAMES:-40}" ALIASPLAN_ASI_FRAMES="${ASI_FRAMES:-10}"
(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true) 2>&1 | tee "$log"
tests="${MESH_TESTS:-TestMesh|TestAccel|TestRay|TestASInput|TestASScratch|TestASIndirect|TestASUpdate|TestASBottomLevel|TestGfxRayQuery|TestUnbuiltStagesNamed|TestFormatless|TestStorageImageBudget}"
(cd vulkan/replay && ../../.vk/replay.test -test.run "$tests" -test.v -test.count=1 2>&1) | tee -a "$log"
status=${PIPESTATUS[0]}
# Session 10: DEVICE_ADDRESS memory for build inputs (package vulkan).
(cd vulkan && ../.vk/vulkan.test -test.run 'TestDeviceAddressMemory' -test.v -test.count=1 2>&1) | tee -a "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
grep -E "^(--- |ok|FAIL|PASS)|SKIP|accelerationStructureIndirectBuild" "$log" | tail -60
exit "$status"
