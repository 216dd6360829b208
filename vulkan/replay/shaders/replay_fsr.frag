#version 450
// replay_fsr.frag: the fragment shader of a shading-rate pass (fsr.go).
// The pass's pipeline takes each fragment's size from the shading-rate
// attachment (combiner ops KEEP, REPLACE), so the fragments it runs, and
// the rate each reports in gl_ShadingRateEXT, are what the attachment's
// texels say. Every fragment adds a hash of its position and rate to one
// of the part's first 240 lanes and counts itself in lane 240 + its rate
// (atomic sums: the order of fragments does not
// matter), so the part's digest is a function of the attachment's texels
// (their low four bits, which encode the rate). With DRY (fsr_frag_dry.spv,
// fsrDry: a local check of the passes' plumbing on devices without the
// extension) no attachment decides the sizes (every fragment is 1x1) and
// the rate is read from the rate image bound as an R8_UINT storage image
// (binding 1), texel p / 16 (fsrDry's texel size).
#ifndef DRY
#extension GL_EXT_fragment_shading_rate : require
#endif

layout(set = 0, binding = 0, std430) buffer Lanes {
	uint lane[256];
} L;

#ifdef DRY
layout(set = 0, binding = 1, r8ui) uniform readonly uimage2D R;
#endif

layout(push_constant) uniform Push {
	uint seed; // the command's seed and the subresource's index
} P;

uint hash(uint x) {
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

void main() {
	uvec2 p = uvec2(gl_FragCoord.xy);
#ifdef DRY
	uint rate = imageLoad(R, ivec2(p / 16u)).x & 15u;
#else
	uint rate = uint(gl_ShadingRateEXT);
#endif
	uint h = hash(P.seed ^ hash(p.x ^ hash(p.y ^ hash(rate + 1u))));
	atomicAdd(L.lane[hash(p.x * 65599u + p.y) % 240u], h);
	// Lanes 240..255 count the fragments of each rate (tests log them).
	atomicAdd(L.lane[240u + (rate & 15u)], 1u);
}
