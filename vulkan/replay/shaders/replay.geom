#version 450
#extension GL_GOOGLE_include_directive : require
#ifdef NOFMT
#extension GL_EXT_shader_image_load_formatted : require // *_nf.spv (fmtless.go)
#endif
// replay.geom: one command's geometry-stage accesses. Invocation i (the
// input triangle's primitive id) reads elements i, i+stride, ...
// (stride: the draw's triangle count) and emits its triangle unchanged.
#define SET 4
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

layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;

void main() {
	inv = uint(gl_PrimitiveIDIn);
	H = hash(P.seed ^ inv);
	D = hash(P.seed ^ (inv * 0x9E3779B1u));
	readAll();
	writeAll();
	atomicAdd(L.lane[inv & 255u], D);
	for (int i = 0; i < 3; i++) {
		gl_Position = gl_in[i].gl_Position;
		EmitVertex();
	}
	EndPrimitive();
}
