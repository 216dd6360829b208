#version 450
#extension GL_GOOGLE_include_directive : require
// replay.frag: one command's fragment-stage accesses and colour outputs.
// Fragment p (row-major in the render area) reads elements p, p+stride,
// ... of every fragment-stage slot; its outputs derive from the element-p
// reads. Depth and stencil tests run early, so a fragment that fails them
// adds nothing: the digest sees what the depth/stencil attachment held.
// NUINT colour locations at the end are unsigned (R32_UINT attachments),
// the others float.
#define SET 1
#define N_S2F 8
#define N_R32F 2
#define I0 pix
#define STEP P.stride
uint pix;
#include "common.glsl"

layout(early_fragment_tests) in;

#ifndef NUINT
#define NUINT 0
#endif

#define FOUT(i) layout(location = i) out vec4 o##i;
#define UOUT(i) layout(location = i) out uvec4 o##i;
#if NUINT > 7
UOUT(0)
#else
FOUT(0)
#endif
#if NUINT > 6
UOUT(1)
#else
FOUT(1)
#endif
#if NUINT > 5
UOUT(2)
#else
FOUT(2)
#endif
#if NUINT > 4
UOUT(3)
#else
FOUT(3)
#endif
#if NUINT > 3
UOUT(4)
#else
FOUT(4)
#endif
#if NUINT > 2
UOUT(5)
#else
FOUT(5)
#endif
#if NUINT > 1
UOUT(6)
#else
FOUT(6)
#endif
#if NUINT > 0
UOUT(7)
#else
FOUT(7)
#endif

#define OUTV(i) hash(H ^ ((i + 1u) * 0x27D4EB2Du) ^ pix)

void main() {
	pix = uint(gl_FragCoord.y) * P.width + uint(gl_FragCoord.x);
	H = hash(P.seed ^ pix);
	D = hash(P.seed ^ (pix * 0xC2B2AE35u));
	readAll();
	atomicAdd(L.lane[pix & 255u], D);
#if NUINT > 7
	o0 = spread(OUTV(0u));
#else
	o0 = unit(spread(OUTV(0u)));
#endif
#if NUINT > 6
	o1 = spread(OUTV(1u));
#else
	o1 = unit(spread(OUTV(1u)));
#endif
#if NUINT > 5
	o2 = spread(OUTV(2u));
#else
	o2 = unit(spread(OUTV(2u)));
#endif
#if NUINT > 4
	o3 = spread(OUTV(3u));
#else
	o3 = unit(spread(OUTV(3u)));
#endif
#if NUINT > 3
	o4 = spread(OUTV(4u));
#else
	o4 = unit(spread(OUTV(4u)));
#endif
#if NUINT > 2
	o5 = spread(OUTV(5u));
#else
	o5 = unit(spread(OUTV(5u)));
#endif
#if NUINT > 1
	o6 = spread(OUTV(6u));
#else
	o6 = unit(spread(OUTV(6u)));
#endif
#if NUINT > 0
	o7 = spread(OUTV(7u));
#else
	o7 = unit(spread(OUTV(7u)));
#endif
}
