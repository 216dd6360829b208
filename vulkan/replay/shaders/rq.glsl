// rq.glsl: what the replay's ray-query shaders share (replay_rq.comp and
// the graphics-stage ones, replay_rq.vert/.tesc/.tese/.geom/.frag;
// raytrace.go, rqgfx.go): the set (Params, Lanes, up to 4 top-level
// structures), the rays per structure (push constants) and the trace of
// one ray. traceCell(v) traces every ray i = v, v + 256, ... of every
// structure and sums what they hit: one of the 256 lanes, the sum the
// compute dispatch adds into lane v.
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

uint traceCell(uint v) {
	uint n = max(max(PC_.rays[0], PC_.rays[1]), max(PC_.rays[2], PC_.rays[3]));
	uint d = 0u;
	for (uint i = v; i < n; i += 256u) {
		if (i < PC_.rays[0]) d += trace(tlas[0], i, 0u);
		if (i < PC_.rays[1]) d += trace(tlas[1], i, 1u);
		if (i < PC_.rays[2]) d += trace(tlas[2], i, 2u);
		if (i < PC_.rays[3]) d += trace(tlas[3], i, 3u);
	}
	return d;
}
