#version 460
#extension GL_EXT_ray_query : require
#extension GL_GOOGLE_include_directive : require
// replay_rq.comp: one command's ray-query reads of acceleration structures
// (raytrace.go). Slot s (up to 4 top-level structures, PC.rays[s] rays
// each) is traced by invocations i < PC.rays[s]: ray i starts above cell
// (i mod 256) of a 16x16 grid over the unit square, shifted by i / 256
// in x (one tile per instance), and points down -z. What it hits
// (committed type, instance, primitive, distance in 1/4096) is hashed
// into the command's digest lanes: a structure built from other
// triangles, or clobbered, changes it.
layout(local_size_x = 64) in;

#include "rq.glsl"

void main() {
	uint i = gl_GlobalInvocationID.x;
	uint d = 0u;
	if (i < PC_.rays[0]) d += trace(tlas[0], i, 0u);
	if (i < PC_.rays[1]) d += trace(tlas[1], i, 1u);
	if (i < PC_.rays[2]) d += trace(tlas[2], i, 2u);
	if (i < PC_.rays[3]) d += trace(tlas[3], i, 3u);
	if (d != 0u) {
		atomicAdd(L.lane[i & 255u], d);
	}
}
