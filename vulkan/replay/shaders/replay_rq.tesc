#version 460
// replay_rq.tesc: the tessellation control shader of a ray-query draw
// (rqgfx.go): 256 patches of one control point, one isoline each. With
// QUERY (rqtc.spv) patch v traces lane v (traceCell, rq.glsl); without
// (rqtcp.spv) it only passes the patch on to a querying evaluation shader.
#ifdef QUERY
#extension GL_EXT_ray_query : require
#extension GL_GOOGLE_include_directive : require
#include "rq.glsl"
#endif
layout(vertices = 1) out;

void main() {
#ifdef QUERY
	uint v = uint(gl_PrimitiveID);
	if (v < 256u) {
		L.lane[v] = traceCell(v);
	}
#endif
	gl_TessLevelOuter[0] = 1.0;
	gl_TessLevelOuter[1] = 1.0;
	gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
}
