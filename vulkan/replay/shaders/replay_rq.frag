#version 460
#extension GL_EXT_ray_query : require
#extension GL_GOOGLE_include_directive : require
// replay_rq.frag: the fragment shader of a ray-query draw (rqgfx.go): a
// full-screen triangle over a 16x16 attachment-less pass, pixel (x, y)
// tracing lane 16y + x (traceCell, rq.glsl) and storing it.
#include "rq.glsl"

void main() {
	uvec2 c = uvec2(gl_FragCoord.xy);
	if (c.x < 16u && c.y < 16u) {
		uint v = c.y * 16u + c.x;
		L.lane[v] = traceCell(v);
	}
}
