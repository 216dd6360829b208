#version 460
#extension GL_EXT_ray_query : require
#extension GL_GOOGLE_include_directive : require
// replay_rq.geom: the geometry shader of a ray-query draw (rqgfx.go):
// point v < 256 of a 256-point draw traces lane v (traceCell, rq.glsl)
// and stores it; it emits nothing.
#include "rq.glsl"
layout(points) in;
layout(points, max_vertices = 1) out;

void main() {
	uint v = uint(gl_PrimitiveIDIn);
	if (v < 256u) {
		L.lane[v] = traceCell(v);
	}
}
