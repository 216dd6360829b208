#version 450
#extension GL_GOOGLE_include_directive : require
#ifdef NOFMT
#extension GL_EXT_shader_image_load_formatted : require // comp_nf.spv, comp_ms_nf.spv (fmtless.go)
#endif
// replay.comp: one command's compute-shader accesses. One invocation per
// element index (the dispatch covers the largest slot); it reads element e
// of every read slot, then writes element e of every write slot with a
// value derived from what it read, and the workgroup adds its digest to
// one of the command's lanes.
#define SET 0
#define N_S2F 24
#ifndef N_MS
#define N_MS 0 // comp_ms.spv: 1 (msaa.go)
#endif
#define N_R32F 12
#define N_SBW 8
#define N_IW 12
#define BASE_WRITES 1
#define I0 gid
#define STEP n_
layout(local_size_x = 64) in;
uint gid;
#include "common.glsl"

shared uint red[64];

void main() {
	gid = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u;
	H = hash(P.seed ^ gid);
	D = 0u;
	// Racing controls only (spin 0 elsewhere): a slow command whose
	// reads and writes come late, values unchanged in kind.
	for (uint i = 0u; i < P.spin; i++) {
		H = hash(H + i);
	}
	readAll();
	writeAll();
	uint l = gl_LocalInvocationIndex;
	red[l] = D + 1u; // + 1: a dispatch that ran shows in the lanes even when it reads nothing (condrender.go)
	barrier();
	for (uint s = 32u; s > 0u; s >>= 1u) {
		if (l < s) {
			red[l] += red[l + s];
		}
		barrier();
	}
	if (l == 0u) {
		uint wg = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
		atomicAdd(L.lane[wg & 255u], red[0]);
	}
}
