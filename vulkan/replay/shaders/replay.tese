#version 450
#extension GL_GOOGLE_include_directive : require
#ifdef NOFMT
#extension GL_EXT_shader_image_load_formatted : require // *_nf.spv (fmtless.go)
#endif
// replay.tese: one command's tessellation-evaluation-stage accesses. Each
// patch (tessellation levels 1) yields its three corners; the invocation
// of corner c of patch q is element i = q · 3 + c and reads elements i,
// i+stride, ... (stride: the draw's vertex count). The position is the
// corner's control point (barycentric weights 1, 0, 0: exact).
#define SET 3
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

layout(triangles, equal_spacing, ccw) in;

void main() {
	vec3 c = gl_TessCoord;
	uint corner = c.x > 0.5 ? 0u : (c.y > 0.5 ? 1u : 2u);
	inv = uint(gl_PrimitiveID) * 3u + corner;
	H = hash(P.seed ^ inv);
	D = hash(P.seed ^ (inv * 0x9E3779B1u));
	readAll();
	writeAll();
	atomicAdd(L.lane[inv & 255u], D);
	gl_Position = c.x * gl_in[0].gl_Position + c.y * gl_in[1].gl_Position + c.z * gl_in[2].gl_Position;
}
