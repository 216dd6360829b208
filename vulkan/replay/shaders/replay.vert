#version 450
#extension GL_GOOGLE_include_directive : require
#ifdef NOFMT
#extension GL_EXT_shader_image_load_formatted : require // *_nf.spv (fmtless.go)
#endif
// replay.vert: one command's vertex-stage accesses. Vertices 0..2 are a
// full-screen triangle at the depths the params give; the rest are
// degenerate (no fragments) and exist so that the vertex-stage reads are
// spread over many invocations (vertex v reads elements v, v+stride, ...).
// With VATTR, each vertex also consumes one 32-bit vertex attribute.
#define SET 0
#define N_S2F 8
#define N_MS 1
#define N_R32F 2
#define N_SBW 4
#define N_IW 4
#define I0 vid
#define STEP P.stride
uint vid;
#include "common.glsl"

#ifdef VATTR
layout(location = 0) in uint attr;
#endif

void main() {
	vid = uint(gl_VertexIndex);
	H = hash(P.seed ^ vid);
	D = hash(P.seed ^ (vid * 0x9E3779B1u) ^ uint(gl_InstanceIndex));
#ifdef VATTR
	D += hash(attr ^ (vid * 0x85EBCA6Bu) ^ P.seed);
#endif
	readAll();
	writeAll();
	atomicAdd(L.lane[vid & 255u], D);
	if (vid < 3u) {
		vec2 xy = vec2(vid == 1u ? 3.0 : -1.0, vid == 2u ? 3.0 : -1.0);
		gl_Position = vec4(xy, P.z[vid], 1.0);
	} else {
		gl_Position = vec4(2.0, 2.0, 0.5, 1.0);
	}
}
