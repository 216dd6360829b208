#version 460
// replay_rq.vert: the vertex shader of a ray-query draw (rqgfx.go).
// With QUERY (rqv.spv) vertex v < 256 of a 256-point draw traces lane v
// of the command's vertex-stage ray queries (traceCell, rq.glsl) and
// stores it: a plain store, so a vertex shaded twice stores the same
// word. Without it (rqp.spv) vertices 0..2 are a full-screen triangle
// for the draws whose ray queries are in a later stage.
#ifdef QUERY
#extension GL_EXT_ray_query : require
#extension GL_GOOGLE_include_directive : require
#include "rq.glsl"
#endif

void main() {
	uint v = uint(gl_VertexIndex);
#ifdef QUERY
	if (v < 256u) {
		L.lane[v] = traceCell(v);
	}
	gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
#else
	gl_Position = vec4(v % 3u == 1u ? 3.0 : -1.0, v % 3u == 2u ? 3.0 : -1.0, 0.5, 1.0);
#endif
	gl_PointSize = 1.0;
}
