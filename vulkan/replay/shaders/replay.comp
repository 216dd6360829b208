#version 450
#extension GL_GOOGLE_include_directive : require
// replay.comp: one command's compute-shader accesses. One invocation per
// element index (the dispatch covers the largest slot); it reads element e
// of every read slot, then writes element e of every write slot with a
// value derived from what it read, and the workgroup adds its digest to
// one of the command's lanes.
#define SET 0
#define N_S2F 24
#define N_MS 0
#define N_R32F 12
#define I0 gid
#define STEP n_
layout(local_size_x = 64) in;
uint gid;
#include "common.glsl"

layout(std430, set = SET, binding = 17) writeonly buffer SBW { uint w[]; } sbw[8];
layout(set = SET, binding = 18) writeonly uniform image2DArray iw[12];
layout(set = SET, binding = 19) writeonly uniform uimage2DArray iwu[2];
layout(set = SET, binding = 20) writeonly uniform image3D iw3[1];

layout(constant_id = 15) const uint M_SBW = 0xffffffffu;
layout(constant_id = 16) const uint M_IW = 0xffffffffu;
layout(constant_id = 17) const uint M_IWU = 0xffffffffu;
layout(constant_id = 18) const uint M_IW3 = 0xffffffffu;

shared uint red[64];

uint wval(uint k) { return hash(H ^ (P.s[k].flags >> 8) ^ hash(gid + P.seed)); }

#define WRITE(m, i, k, STORE) if ((m & (1u << (i))) != 0u && gid < count(k)) { STORE; }
#define W_SB(i) WRITE(M_SBW, i, OFF_SBW + i, { uint v_ = wval(OFF_SBW + i); if ((P.s[OFF_SBW + i].flags & F_INDIRECT) != 0u && gid < 4u) v_ = gid == 0u ? 12288u + 3u * (v_ & 31u) : (gid == 1u ? 1u : 0u); sbw[i].w[gid] = v_; })
#define W_IW(i) WRITE(M_IW, i, OFF_IW + i, imageStore(iw[i], coord(OFF_IW + i, gid), unit(spread(wval(OFF_IW + i)))))
#define W_IWU(i) WRITE(M_IWU, i, OFF_IWU + i, imageStore(iwu[i], coord(OFF_IWU + i, gid), spread(wval(OFF_IWU + i))))
#define W_IW3(i) WRITE(M_IW3, i, OFF_IW3 + i, imageStore(iw3[i], coord(OFF_IW3 + i, gid), unit(spread(wval(OFF_IW3 + i)))))

void main() {
	gid = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u;
	H = hash(P.seed ^ gid);
	D = 0u;
	// Racing controls only (spin 0 elsewhere): a slow command whose
	// reads and writes come late, values unchanged in kind.
	for (uint i = 0u; i < P.spin; i++) {
		H = hash(H + i);
	}
	readAll();
	W_SB(0) W_SB(1) W_SB(2) W_SB(3) W_SB(4) W_SB(5) W_SB(6) W_SB(7)
	W_IW(0) W_IW(1) W_IW(2) W_IW(3) W_IW(4) W_IW(5) W_IW(6) W_IW(7) W_IW(8) W_IW(9) W_IW(10) W_IW(11)
	W_IWU(0) W_IWU(1)
	W_IW3(0)
	uint l = gl_LocalInvocationIndex;
	red[l] = D;
	barrier();
	for (uint s = 32u; s > 0u; s >>= 1u) {
		if (l < s) {
			red[l] += red[l + s];
		}
		barrier();
	}
	if (l == 0u) {
		uint wg = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
		atomicAdd(L.lane[wg & 255u], red[0]);
	}
}
