#version 460
#extension GL_EXT_ray_query : require
// replay_rq.comp: one command's ray-query reads of acceleration structures
// (raytrace.go). Slot s (up to 4 top-level structures, PC.rays[s] rays
// each) is traced by invocations i < PC.rays[s]: ray i starts above cell
// (i mod 256) of a 16x16 grid over the unit square, shifted by i / 256
// in x (one tile per instance), and points down -z. What it hits
// (committed type, instance, primitive, distance in 1/4096) is hashed
// into the command's digest lanes: a structure built from other
// triangles, or clobbered, changes it.
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) readonly buffer Params {
	uint seed;
} P;

layout(std430, set = 0, binding = 1) buffer Lanes {
	uint lane[256];
} L;

layout(set = 0, binding = 2) uniform accelerationStructureEXT tlas[4];

layout(push_constant) uniform PC {
	uint rays[4];
} PC_;

uint hash(uint x) {
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

uint trace(accelerationStructureEXT as, uint i, uint s) {
	uint cell = i & 255u;
	vec3 o = vec3(float(i >> 8) + (float(cell & 15u) + 0.5) / 16.0, (float(cell >> 4) + 0.5) / 16.0, 2.0);
	rayQueryEXT q;
	rayQueryInitializeEXT(q, as, gl_RayFlagsOpaqueEXT, 0xffu, o, 0.001, vec3(0.0, 0.0, -1.0), 4.0);
	while (rayQueryProceedEXT(q)) {
	}
	uint h = hash(P.seed ^ (s * 0x9E3779B1u) ^ hash(i));
	if (rayQueryGetIntersectionTypeEXT(q, true) == gl_RayQueryCommittedIntersectionTriangleEXT) {
		uint inst = uint(rayQueryGetIntersectionInstanceIdEXT(q, true));
		uint prim = uint(rayQueryGetIntersectionPrimitiveIndexEXT(q, true));
		uint t = uint(round(rayQueryGetIntersectionTEXT(q, true) * 4096.0));
		h = hash(h ^ 1u ^ (inst << 8) ^ (prim << 16));
		h = hash(h ^ t);
	}
	return h;
}

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
