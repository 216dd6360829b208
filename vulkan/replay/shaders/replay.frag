#version 450
#extension GL_GOOGLE_include_directive : require
#ifdef NOFMT
#extension GL_EXT_shader_image_load_formatted : require // *_nf.spv (fmtless.go)
#endif
// replay.frag: one command's fragment-stage accesses and colour outputs.
// Fragment p (row-major in the render area) reads elements p, p+stride,
// ... of every fragment-stage slot; its outputs derive from the element-p
// reads. Depth and stencil tests run early, so a fragment that fails them
// adds nothing: the digest sees what the depth/stencil attachment held.
#define SET 1
#define N_S2F 8
#define N_MS 1
#define N_R32F 2
#define N_SBW 4
#define N_IW 4
#define I0 pix
#define STEP pc.stride
uint pix;
// The render area differs between a command's passes (attachments of
// different extents): its width and pixel count come per pass.
layout(push_constant) uniform PC {
	uint width;
	uint stride;
	uint own[5]; // per slot (Params.s index): F_OWN reads on in this pass
} pc;
#define OWN_ON(k) ((pc.own[(k) >> 5] & (1u << ((k) & 31))) != 0u)
#include "common.glsl"

layout(early_fragment_tests) in;

#ifndef NUINT
#define NUINT 0
#endif
#ifndef NFLOAT
#define NFLOAT 8
#endif

// Outputs: NFLOAT float locations, then NUINT unsigned ones (R32_UINT
// attachments), nothing else: the pipeline's attachments match exactly.
#define FOUT(i) layout(location = i) out vec4 o##i;
#define UOUT(i) layout(location = i) out uvec4 o##i;
#define OUTV(i) hash(H ^ ((i + 1u) * 0x27D4EB2Du) ^ pix)
// OM0..OM7: each unsigned output's mask, the width of its attachment's
// narrowest component (pipeline.go, outMasks), so that an 8-, 16-, 10- or
// 2-bit integer attachment stores the bits written instead of the clamp of
// a 32-bit hash word.
layout(constant_id = 60) const uint OM0 = 0xffffffffu;
layout(constant_id = 61) const uint OM1 = 0xffffffffu;
layout(constant_id = 62) const uint OM2 = 0xffffffffu;
layout(constant_id = 63) const uint OM3 = 0xffffffffu;
layout(constant_id = 64) const uint OM4 = 0xffffffffu;
layout(constant_id = 65) const uint OM5 = 0xffffffffu;
layout(constant_id = 66) const uint OM6 = 0xffffffffu;
layout(constant_id = 67) const uint OM7 = 0xffffffffu;
#if 0 < NFLOAT
FOUT(0)
#elif 0 < NFLOAT + NUINT
UOUT(0)
#endif
#if 1 < NFLOAT
FOUT(1)
#elif 1 < NFLOAT + NUINT
UOUT(1)
#endif
#if 2 < NFLOAT
FOUT(2)
#elif 2 < NFLOAT + NUINT
UOUT(2)
#endif
#if 3 < NFLOAT
FOUT(3)
#elif 3 < NFLOAT + NUINT
UOUT(3)
#endif
#if 4 < NFLOAT
FOUT(4)
#elif 4 < NFLOAT + NUINT
UOUT(4)
#endif
#if 5 < NFLOAT
FOUT(5)
#elif 5 < NFLOAT + NUINT
UOUT(5)
#endif
#if 6 < NFLOAT
FOUT(6)
#elif 6 < NFLOAT + NUINT
UOUT(6)
#endif
#if 7 < NFLOAT
FOUT(7)
#elif 7 < NFLOAT + NUINT
UOUT(7)
#endif

void main() {
	pix = uint(gl_FragCoord.y) * pc.width + uint(gl_FragCoord.x);
	H = hash(P.seed ^ pix);
	D = hash(P.seed ^ (pix * 0xC2B2AE35u));
	readAll();
	writeAll();
	atomicAdd(L.lane[pix & 255u], D);
#if 0 < NFLOAT
	o0 = unit(spread(OUTV(0u)));
#elif 0 < NFLOAT + NUINT
	o0 = spread(OUTV(0u)) & uvec4(OM0);
#endif
#if 1 < NFLOAT
	o1 = unit(spread(OUTV(1u)));
#elif 1 < NFLOAT + NUINT
	o1 = spread(OUTV(1u)) & uvec4(OM1);
#endif
#if 2 < NFLOAT
	o2 = unit(spread(OUTV(2u)));
#elif 2 < NFLOAT + NUINT
	o2 = spread(OUTV(2u)) & uvec4(OM2);
#endif
#if 3 < NFLOAT
	o3 = unit(spread(OUTV(3u)));
#elif 3 < NFLOAT + NUINT
	o3 = spread(OUTV(3u)) & uvec4(OM3);
#endif
#if 4 < NFLOAT
	o4 = unit(spread(OUTV(4u)));
#elif 4 < NFLOAT + NUINT
	o4 = spread(OUTV(4u)) & uvec4(OM4);
#endif
#if 5 < NFLOAT
	o5 = unit(spread(OUTV(5u)));
#elif 5 < NFLOAT + NUINT
	o5 = spread(OUTV(5u)) & uvec4(OM5);
#endif
#if 6 < NFLOAT
	o6 = unit(spread(OUTV(6u)));
#elif 6 < NFLOAT + NUINT
	o6 = spread(OUTV(6u)) & uvec4(OM6);
#endif
#if 7 < NFLOAT
	o7 = unit(spread(OUTV(7u)));
#elif 7 < NFLOAT + NUINT
	o7 = spread(OUTV(7u)) & uvec4(OM7);
#endif
}
