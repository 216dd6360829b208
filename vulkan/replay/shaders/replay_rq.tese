#version 460
// replay_rq.tese: the tessellation evaluation shader of a ray-query draw
// (rqgfx.go). With QUERY (rqte.spv) every vertex of patch v's isoline
// traces lane v (traceCell, rq.glsl) and stores it (the same word from
// each); without (rqtep.spv) it only places the vertex.
#ifdef QUERY
#extension GL_EXT_ray_query : require
#extension GL_GOOGLE_include_directive : require
#include "rq.glsl"
#endif
layout(isolines) in;

void main() {
#ifdef QUERY
	uint v = uint(gl_PrimitiveID);
	if (v < 256u) {
		L.lane[v] = traceCell(v);
	}
#endif
	gl_Position = gl_in[0].gl_Position;
}
