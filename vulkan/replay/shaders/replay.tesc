#version 450
#extension GL_GOOGLE_include_directive : require
#ifdef NOFMT
#extension GL_EXT_shader_image_load_formatted : require // *_nf.spv (fmtless.go)
#endif
// replay.tesc: one command's tessellation-control-stage accesses. The
// draw's vertices come in patches of three (the full-screen triangle,
// then degenerate ones); invocation i (patch · 3 + output control point)
// reads elements i, i+stride, ... (stride: the draw's vertex count) and
// passes its control point through, tessellation levels 1 (the patch is
// one triangle, not subdivided).
#define SET 2
#define N_S2F 8
#define N_MS 1
#define N_R32F 2
#define N_SBW 4
#define N_IW 4
#define PRE_RASTER
#define I0 inv
#define STEP P.stride
uint inv;
#include "common.glsl"

layout(vertices = 3) out;

void main() {
	inv = uint(gl_PrimitiveID) * 3u + uint(gl_InvocationID);
	H = hash(P.seed ^ inv);
	D = hash(P.seed ^ (inv * 0x9E3779B1u));
	readAll();
	writeAll();
	atomicAdd(L.lane[inv & 255u], D);
	gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
	if (gl_InvocationID == 0) {
		gl_TessLevelOuter[0] = 1.0;
		gl_TessLevelOuter[1] = 1.0;
		gl_TessLevelOuter[2] = 1.0;
		gl_TessLevelInner[0] = 1.0;
	}
}
