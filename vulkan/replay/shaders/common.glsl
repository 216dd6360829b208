// common.glsl: what every replay shader stage shares. A stage defines
// SET (its descriptor set), the descriptor-array sizes N_S2F, N_R32F,
// N_SBW and N_IW,
// I0 (its first element) and STEP (the element stride), then includes
// this file and calls readAll() and then writeAll().
//
// Each stage reads the slots its command declares for that stage (the
// params say which, and their extents): element e of slot k is word e of
// a buffer, or texel e (row-major, then slices) of one mip level of an
// image. Every element read is hashed with its slot's salt and index into
// D (summed into the command's digest lanes, so order does not matter) and
// the element-I0 reads into H, from which the values written at element
// I0 derive: a stale or clobbered input changes both.
//
// Descriptor indices are constants (the macros unroll each array):
// lavapipe has no dynamic indexing of image arrays, and no storage-image
// reads without a format, so storage images come in one array per format.
// Every array here is read-only (synchronization validation takes each
// bound descriptor's static use as its access, so a resource the command
// only reads must not sit in an array the shader writes); the write-only
// arrays follow. Invocation I0 writes elements I0, I0+STEP, ... (compute:
// element I0 alone) with values derived from what it read at I0. Unused slots hold null
// descriptors (VK_EXT_robustness2), which no access touches.

#extension GL_EXT_samplerless_texture_functions : require // utb: texelFetch of a utextureBuffer

// Slot offsets into Params.s; the same in every stage.
#define OFF_SB 0
#define OFF_UB 8
#define OFF_S2F 12
#define OFF_S2U 36
#define OFF_S3F 40
#define OFF_R8 42
#define OFF_RGBA8 44
#define OFF_R16F 46
#define OFF_RG16F 48
#define OFF_RGBA16F 50
#define OFF_R32F 52
#define OFF_RGBA32F 64
#define OFF_R11G11B10F 66
#define OFF_R32UI 68
#define OFF_RGBA16F3D 70
#define OFF_SBW 71
#define OFF_IW 79
#define OFF_IWU 91
#define OFF_IW3 93
#define OFF_S2MS 94
#define OFF_S2MSU 98
#define OFF_S3U 100
#define OFF_R32UI3D 102
#define OFF_IW3U 103
#define OFF_UTB 104
#define OFF_STB 106
#define OFF_STBW 108
#define OFF_IMS_RGBA8 110
#define OFF_IMS_RGBA16F 112
#define OFF_IMS_R32F 114
#define OFF_IMS_R32UI 116
#define OFF_IWMS 118
#define OFF_IWMSU 120
#define OFF_RG32F 122
#define OFF_RGBA32UI 124
#define OFF_RGBA16 126
#define OFF_RGB10A2 128
#define OFF_RG8 130
#ifdef NOFMT
// Format-less reads (fmtless.go): the *_nf variants of every stage.
#define OFF_NF2 132
#define OFF_NF2U 134
#define OFF_NF2I 136
#define OFF_NF3 138
#define OFF_NF3U 139
#define OFF_NF3I 140
#define OFF_NFMS 141
#define OFF_NFMSU 143
#define OFF_NFMSI 145
#endif
// Signed-integer storage writes (sint.go): EXTRA variants only.
#define OFF_IWI 147
#define OFF_IW3I 149
#define OFF_IWMSI 150
#if defined(EXTRA) || defined(NOFMT)
#define N_SLOTS 152
#else
#define N_SLOTS 132
#endif

#define F_READ 1u
#define F_WRITE 2u
#define F_INDIRECT 4u
// F_OWN: a fragment-stage read of a subresource that one of the command's
// colour attachments writes (selfrace.go): read only in the pass that
// renders into it (OWN_ON, a push constant), only at the fragment's own
// pixel, before its output writes that pixel: no other invocation writes
// what it reads, nothing else reads what it writes.
#define F_OWN 8u
// F_FIT8, F_FIT16: an unsigned write into a format of 8- or 16-bit
// components: the values are masked to that width, so they are stored as
// they are (out-of-range values clamp to the maximum on lavapipe: every
// texel would read 255), e.g. shading-rate texels (fsr.go).
#define F_FIT8 16u
#define F_FIT16 32u
// F_ASRANGE: a storage buffer an indirect acceleration-structure build
// reads its VkAccelerationStructureBuildRangeInfoKHR from (raytrace.go,
// indirect builds): words 0..3 are a valid range, primitiveCount 1..16
// (the replay's builds allocate 16 triangles), offsets 0.
#define F_ASRANGE 64u
#ifndef OWN_ON
#define OWN_ON(k) false
#endif

// Specialization constants: per array, a mask of the slots the part
// uses, so that the driver compiles only those (the rest is dead code).
layout(constant_id = 0) const uint M_SB = 0xffffffffu;
layout(constant_id = 1) const uint M_UB = 0xffffffffu;
layout(constant_id = 2) const uint M_S2F = 0xffffffffu;
layout(constant_id = 3) const uint M_S2U = 0xffffffffu;
layout(constant_id = 4) const uint M_S3F = 0xffffffffu;
layout(constant_id = 5) const uint M_R8 = 0xffffffffu;
layout(constant_id = 6) const uint M_RGBA8 = 0xffffffffu;
layout(constant_id = 7) const uint M_R16F = 0xffffffffu;
layout(constant_id = 8) const uint M_RG16F = 0xffffffffu;
layout(constant_id = 9) const uint M_RGBA16F = 0xffffffffu;
layout(constant_id = 10) const uint M_R32F = 0xffffffffu;
layout(constant_id = 11) const uint M_RGBA32F = 0xffffffffu;
layout(constant_id = 12) const uint M_R11G11B10F = 0xffffffffu;
layout(constant_id = 13) const uint M_R32UI = 0xffffffffu;
layout(constant_id = 14) const uint M_RGBA16F3D = 0xffffffffu;
layout(constant_id = 15) const uint M_SBW = 0xffffffffu;
layout(constant_id = 16) const uint M_IW = 0xffffffffu;
layout(constant_id = 17) const uint M_IWU = 0xffffffffu;
layout(constant_id = 18) const uint M_IW3 = 0xffffffffu;
layout(constant_id = 19) const uint M_S2MS = 0xffffffffu;
layout(constant_id = 20) const uint M_S2MSU = 0xffffffffu;
layout(constant_id = 21) const uint M_S3U = 0xffffffffu;
layout(constant_id = 22) const uint M_R32UI3D = 0xffffffffu;
layout(constant_id = 23) const uint M_IW3U = 0xffffffffu;
layout(constant_id = 24) const uint M_UTB = 0xffffffffu;
layout(constant_id = 25) const uint M_STB = 0xffffffffu;
layout(constant_id = 26) const uint M_STBW = 0xffffffffu;
layout(constant_id = 27) const uint M_IMS_RGBA8 = 0xffffffffu;
layout(constant_id = 28) const uint M_IMS_RGBA16F = 0xffffffffu;
layout(constant_id = 29) const uint M_IMS_R32F = 0xffffffffu;
layout(constant_id = 30) const uint M_IMS_R32UI = 0xffffffffu;
layout(constant_id = 31) const uint M_IWMS = 0xffffffffu;
layout(constant_id = 32) const uint M_IWMSU = 0xffffffffu;
layout(constant_id = 33) const uint M_RG32F = 0xffffffffu;
layout(constant_id = 34) const uint M_RGBA32UI = 0xffffffffu;
layout(constant_id = 35) const uint M_RGBA16 = 0xffffffffu;
layout(constant_id = 36) const uint M_RGB10A2 = 0xffffffffu;
layout(constant_id = 37) const uint M_RG8 = 0xffffffffu;
#ifdef NOFMT
layout(constant_id = 38) const uint M_NF2 = 0xffffffffu;
layout(constant_id = 39) const uint M_NF2U = 0xffffffffu;
layout(constant_id = 40) const uint M_NF2I = 0xffffffffu;
layout(constant_id = 41) const uint M_NF3 = 0xffffffffu;
layout(constant_id = 42) const uint M_NF3U = 0xffffffffu;
layout(constant_id = 43) const uint M_NF3I = 0xffffffffu;
layout(constant_id = 44) const uint M_NFMS = 0xffffffffu;
layout(constant_id = 45) const uint M_NFMSU = 0xffffffffu;
layout(constant_id = 46) const uint M_NFMSI = 0xffffffffu;
#endif
#ifdef EXTRA
layout(constant_id = 47) const uint M_IWI = 0xffffffffu;
layout(constant_id = 48) const uint M_IW3I = 0xffffffffu;
layout(constant_id = 49) const uint M_IWMSI = 0xffffffffu;
#endif

struct Slot {
	uint w, h, d; // extent in elements (a buffer: words, 1, 1; a uniform buffer: uvec4s; a 2D image: layers; multisampled: samples, one layer per slot)
	uint flags;   // F_* | salt << 8
};

layout(std430, set = SET, binding = 0) readonly buffer Params {
	uint seed;   // the command's seed
	uint width;  // fragment: the render area's width
	uint stride; // graphics: elements per pass (pixels, or vertices)
	uint spin;   // compute: extra hash rounds before writing (racing controls)
	vec4 z;      // vertex: the depth of the three corners
	Slot s[N_SLOTS];
} P;

layout(std430, set = SET, binding = 1) buffer Lanes {
	uint lane[256];
} L;

layout(std430, set = SET, binding = 2) readonly buffer SB { uint w[]; } sb[8];
layout(std140, set = SET, binding = 3) uniform UB { uvec4 v[4096]; } ub[4];
layout(set = SET, binding = 4) uniform sampler2DArray s2f[N_S2F];
layout(set = SET, binding = 5) uniform usampler2DArray s2u[4];
layout(set = SET, binding = 6) uniform sampler3D s3f[2];
layout(set = SET, binding = 7, r8) uniform readonly image2DArray i_r8[2];
layout(set = SET, binding = 8, rgba8) uniform readonly image2DArray i_rgba8[2];
layout(set = SET, binding = 9, r16f) uniform readonly image2DArray i_r16f[2];
layout(set = SET, binding = 10, rg16f) uniform readonly image2DArray i_rg16f[2];
layout(set = SET, binding = 11, rgba16f) uniform readonly image2DArray i_rgba16f[2];
layout(set = SET, binding = 12, r32f) uniform readonly image2DArray i_r32f[N_R32F];
layout(set = SET, binding = 13, rgba32f) uniform readonly image2DArray i_rgba32f[2];
layout(set = SET, binding = 14, r11f_g11f_b10f) uniform readonly image2DArray i_r11g11b10f[2];
layout(set = SET, binding = 15, r32ui) uniform readonly uimage2DArray i_r32ui[2];
layout(set = SET, binding = 16, rgba16f) uniform readonly image3D i_rgba16f3d[1];
// EXTRA (the *_x variants, used only by parts that need them: shaders
// without these arrays compile faster on lavapipe) adds the vertex and
// fragment write arrays, unsigned 3D images, texel buffers and
// multisampled storage images; BASE_WRITES (compute) has the writes always.
#if defined(EXTRA) || defined(BASE_WRITES)
layout(std430, set = SET, binding = 17) writeonly buffer SBW { uint w[]; } sbw[N_SBW];
layout(set = SET, binding = 18) writeonly uniform image2DArray iw[N_IW];
layout(set = SET, binding = 19) writeonly uniform uimage2DArray iwu[2];
layout(set = SET, binding = 20) writeonly uniform image3D iw3[1];
#endif
#ifdef EXTRA
layout(set = SET, binding = 23) uniform usampler3D s3u[2];
layout(set = SET, binding = 24, r32ui) uniform readonly uimage3D i_r32ui3d[1];
layout(set = SET, binding = 25) writeonly uniform uimage3D iw3u[1];
layout(set = SET, binding = 26) uniform utextureBuffer utb[2]; // no sampler: SPIR-V 1.6 has no sampled image of Dim Buffer
layout(set = SET, binding = 27, r32ui) uniform readonly uimageBuffer stb[2];
layout(set = SET, binding = 28) writeonly uniform uimageBuffer stbw[2];
// Signed-integer storage writes (sint.go; format-less, like iw and iwu):
// an SINT view needs an integer-signed image type.
layout(set = SET, binding = 49) writeonly uniform iimage2DArray iwi[2];
layout(set = SET, binding = 50) writeonly uniform iimage3D iw3i[1];
#if N_MS > 0 && defined(BASE_WRITES)
layout(set = SET, binding = 51) writeonly uniform iimage2DMS iwmsi[2];
#endif
// More storage-image read formats (storageformats.go); not in the
// tessellation and geometry stages (PRE_RASTER), whose five-set pipeline
// layout would exceed lavapipe's 256 storage images.
#ifndef PRE_RASTER
layout(set = SET, binding = 35, rg32f) uniform readonly image2DArray i_rg32f[2];
layout(set = SET, binding = 36, rgba32ui) uniform readonly uimage2DArray i_rgba32ui[2];
layout(set = SET, binding = 37, rgba16) uniform readonly image2DArray i_rgba16[2];
layout(set = SET, binding = 38, rgb10_a2) uniform readonly image2DArray i_rgb10a2[2];
layout(set = SET, binding = 39, rg8) uniform readonly image2DArray i_rg8[2];
#endif
#endif
#if N_MS > 0
layout(set = SET, binding = 21) uniform sampler2DMS s2ms[4];
layout(set = SET, binding = 22) uniform usampler2DMS s2msu[2];
#ifdef EXTRA
layout(set = SET, binding = 29, rgba8) uniform readonly image2DMS i_ms_rgba8[2];
layout(set = SET, binding = 30, rgba16f) uniform readonly image2DMS i_ms_rgba16f[2];
layout(set = SET, binding = 31, r32f) uniform readonly image2DMS i_ms_r32f[2];
layout(set = SET, binding = 32, r32ui) uniform readonly uimage2DMS i_ms_r32ui[2];
layout(set = SET, binding = 33) writeonly uniform image2DMS iwms[2];
layout(set = SET, binding = 34) writeonly uniform uimage2DMS iwmsu[2];
#endif
#endif
#ifdef NOFMT
// Storage-image reads without a format qualifier (the device's
// shaderStorageImageReadWithoutFormat; fmtless.go): the *_nf variants of
// the compute, vertex, fragment, tessellation, geometry, task, mesh and
// ray generation stages.
layout(set = SET, binding = 40) uniform readonly image2DArray i_nf2[2];
layout(set = SET, binding = 41) uniform readonly uimage2DArray i_nf2u[2];
layout(set = SET, binding = 42) uniform readonly iimage2DArray i_nf2i[2];
layout(set = SET, binding = 43) uniform readonly image3D i_nf3[1];
layout(set = SET, binding = 44) uniform readonly uimage3D i_nf3u[1];
layout(set = SET, binding = 45) uniform readonly iimage3D i_nf3i[1];
#if N_MS > 0
layout(set = SET, binding = 46) uniform readonly image2DMS i_nfms[2];
layout(set = SET, binding = 47) uniform readonly uimage2DMS i_nfmsu[2];
layout(set = SET, binding = 48) uniform readonly iimage2DMS i_nfmsi[2];
#endif
#endif

uint hash(uint x) {
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

uint mixv(uint h, uvec4 v) {
	h = hash(h ^ v.x);
	h = hash(h ^ v.y);
	h = hash(h ^ v.z);
	return hash(h ^ v.w);
}

// unit turns four hashes into floats in [0, 1): representable (after
// rounding) in every float and unorm format, never NaN.
vec4 unit(uvec4 u) { return vec4(u >> 8u) * (1.0 / 16777216.0); }

uvec4 spread(uint h) { return uvec4(h, hash(h ^ 1u), hash(h ^ 2u), hash(h ^ 3u)); }

// fit masks an unsigned write of slot k to its format's width (F_FIT8, F_FIT16).
uvec4 fit(uint k, uvec4 v) {
	uint f = P.s[k].flags;
	return (f & F_FIT8) != 0u ? v & 0xffu : ((f & F_FIT16) != 0u ? v & 0xffffu : v);
}

ivec3 coord(uint k, uint e) {
	uint w = P.s[k].w, h = P.s[k].h;
	return ivec3(int(e % w), int((e / w) % h), int(e / (w * h)));
}

uint count(uint k) { return P.s[k].w * P.s[k].h * P.s[k].d; }

// A multisampled slot (one layer) reads element (x, y, sample).
ivec2 mscoord(uint k, uint e) { return coord(k, e).xy; }
int mssample(uint k, uint e) { return coord(k, e).z; }

uint H; // hash of the element-I0 reads
uint D; // this invocation's digest contribution

#define ACC(k, v) { uint h_ = mixv((P.s[k].flags >> 8) ^ (e * 0x9E3779B1u), v); D += h_; if (e == I0) H = hash(H ^ h_); }
#define READ(m, i, k, LOAD) if ((m & (1u << (i))) != 0u) { uint n_ = count(k); uint e0_ = I0; uint s_ = STEP; if ((P.s[k].flags & F_OWN) != 0u) { s_ = n_; if (!OWN_ON(k)) e0_ = n_; } for (uint e = e0_; e < n_; e += s_) { ACC(k, LOAD) } }

#define R_SB(i) READ(M_SB, i, OFF_SB + i, uvec4(sb[i].w[e], 0u, 0u, 0u))
#define R_UB(i) READ(M_UB, i, OFF_UB + i, ub[i].v[e])
#define R_S2F(i) READ(M_S2F, i, OFF_S2F + i, floatBitsToUint(texelFetch(s2f[i], coord(OFF_S2F + i, e), 0)))
#define R_S2U(i) READ(M_S2U, i, OFF_S2U + i, texelFetch(s2u[i], coord(OFF_S2U + i, e), 0))
#define R_S3F(i) READ(M_S3F, i, OFF_S3F + i, floatBitsToUint(texelFetch(s3f[i], coord(OFF_S3F + i, e), 0)))
#define R_IMG(m, off, arr, i) READ(m, i, off + i, floatBitsToUint(imageLoad(arr[i], coord(off + i, e))))
#define R_R32UI(i) READ(M_R32UI, i, OFF_R32UI + i, imageLoad(i_r32ui[i], coord(OFF_R32UI + i, e)))
#define R_IMG3(i) READ(M_RGBA16F3D, i, OFF_RGBA16F3D + i, floatBitsToUint(imageLoad(i_rgba16f3d[i], coord(OFF_RGBA16F3D + i, e))))

#define R_S2MS(i) READ(M_S2MS, i, OFF_S2MS + i, floatBitsToUint(texelFetch(s2ms[i], mscoord(OFF_S2MS + i, e), mssample(OFF_S2MS + i, e))))
#define R_S2MSU(i) READ(M_S2MSU, i, OFF_S2MSU + i, texelFetch(s2msu[i], mscoord(OFF_S2MSU + i, e), mssample(OFF_S2MSU + i, e)))

#define R_S3U(i) READ(M_S3U, i, OFF_S3U + i, texelFetch(s3u[i], coord(OFF_S3U + i, e), 0))
#define R_R32UI3D(i) READ(M_R32UI3D, i, OFF_R32UI3D + i, imageLoad(i_r32ui3d[i], coord(OFF_R32UI3D + i, e)))
#define R_UTB(i) READ(M_UTB, i, OFF_UTB + i, texelFetch(utb[i], int(e)))
#define R_RGBA32UI(i) READ(M_RGBA32UI, i, OFF_RGBA32UI + i, imageLoad(i_rgba32ui[i], coord(OFF_RGBA32UI + i, e)))
#define R_STB(i) READ(M_STB, i, OFF_STB + i, imageLoad(stb[i], int(e)))

#define R_IMS(m, off, arr, i) READ(m, i, off + i, floatBitsToUint(imageLoad(arr[i], mscoord(off + i, e), mssample(off + i, e))))
#define R_IMSU(i) READ(M_IMS_R32UI, i, OFF_IMS_R32UI + i, imageLoad(i_ms_r32ui[i], mscoord(OFF_IMS_R32UI + i, e), mssample(OFF_IMS_R32UI + i, e)))

#define R2(M, m, off, arr) M(m, off, arr, 0) M(m, off, arr, 1)
#define R_NFU(m, off, arr, i) READ(m, i, off + i, uvec4(imageLoad(arr[i], coord(off + i, e))))
#define R_NFMSU(m, off, arr, i) READ(m, i, off + i, uvec4(imageLoad(arr[i], mscoord(off + i, e), mssample(off + i, e))))

void readAll() {
	R_SB(0) R_SB(1) R_SB(2) R_SB(3) R_SB(4) R_SB(5) R_SB(6) R_SB(7)
	R_UB(0) R_UB(1) R_UB(2) R_UB(3)
	R_S2F(0) R_S2F(1) R_S2F(2) R_S2F(3) R_S2F(4) R_S2F(5) R_S2F(6) R_S2F(7)
#if N_S2F > 8
	R_S2F(8) R_S2F(9) R_S2F(10) R_S2F(11) R_S2F(12) R_S2F(13) R_S2F(14) R_S2F(15)
	R_S2F(16) R_S2F(17) R_S2F(18) R_S2F(19) R_S2F(20) R_S2F(21) R_S2F(22) R_S2F(23)
#endif
	R_S2U(0) R_S2U(1) R_S2U(2) R_S2U(3)
	R_S3F(0) R_S3F(1)
	R2(R_IMG, M_R8, OFF_R8, i_r8)
	R2(R_IMG, M_RGBA8, OFF_RGBA8, i_rgba8)
	R2(R_IMG, M_R16F, OFF_R16F, i_r16f)
	R2(R_IMG, M_RG16F, OFF_RG16F, i_rg16f)
	R2(R_IMG, M_RGBA16F, OFF_RGBA16F, i_rgba16f)
	R2(R_IMG, M_R32F, OFF_R32F, i_r32f)
#if N_R32F > 2
	R_IMG(M_R32F, OFF_R32F, i_r32f, 2) R_IMG(M_R32F, OFF_R32F, i_r32f, 3) R_IMG(M_R32F, OFF_R32F, i_r32f, 4) R_IMG(M_R32F, OFF_R32F, i_r32f, 5)
	R_IMG(M_R32F, OFF_R32F, i_r32f, 6) R_IMG(M_R32F, OFF_R32F, i_r32f, 7) R_IMG(M_R32F, OFF_R32F, i_r32f, 8) R_IMG(M_R32F, OFF_R32F, i_r32f, 9)
	R_IMG(M_R32F, OFF_R32F, i_r32f, 10) R_IMG(M_R32F, OFF_R32F, i_r32f, 11)
#endif
	R2(R_IMG, M_RGBA32F, OFF_RGBA32F, i_rgba32f)
	R2(R_IMG, M_R11G11B10F, OFF_R11G11B10F, i_r11g11b10f)
	R_R32UI(0) R_R32UI(1)
	R_IMG3(0)
#ifdef EXTRA
	R_S3U(0) R_S3U(1)
	R_R32UI3D(0)
	R_UTB(0) R_UTB(1)
	R_STB(0) R_STB(1)
#ifndef PRE_RASTER
	R2(R_IMG, M_RG32F, OFF_RG32F, i_rg32f)
	R_RGBA32UI(0) R_RGBA32UI(1)
	R2(R_IMG, M_RGBA16, OFF_RGBA16, i_rgba16)
	R2(R_IMG, M_RGB10A2, OFF_RGB10A2, i_rgb10a2)
	R2(R_IMG, M_RG8, OFF_RG8, i_rg8)
#endif
#endif
#if N_MS > 0
	R_S2MS(0) R_S2MS(1) R_S2MS(2) R_S2MS(3)
	R_S2MSU(0) R_S2MSU(1)
#ifdef EXTRA
	R2(R_IMS, M_IMS_RGBA8, OFF_IMS_RGBA8, i_ms_rgba8)
	R2(R_IMS, M_IMS_RGBA16F, OFF_IMS_RGBA16F, i_ms_rgba16f)
	R2(R_IMS, M_IMS_R32F, OFF_IMS_R32F, i_ms_r32f)
	R_IMSU(0) R_IMSU(1)
#endif
#endif
#ifdef NOFMT
	R2(R_IMG, M_NF2, OFF_NF2, i_nf2)
	R2(R_NFU, M_NF2U, OFF_NF2U, i_nf2u)
	R2(R_NFU, M_NF2I, OFF_NF2I, i_nf2i)
	R_IMG(M_NF3, OFF_NF3, i_nf3, 0)
	R_NFU(M_NF3U, OFF_NF3U, i_nf3u, 0)
	R_NFU(M_NF3I, OFF_NF3I, i_nf3i, 0)
#if N_MS > 0
	R2(R_IMS, M_NFMS, OFF_NFMS, i_nfms)
	R2(R_NFMSU, M_NFMSU, OFF_NFMSU, i_nfmsu)
	R2(R_NFMSU, M_NFMSI, OFF_NFMSI, i_nfmsi)
#endif
#endif
}

uint wval(uint k, uint e) { return hash(H ^ (P.s[k].flags >> 8) ^ hash(e + P.seed)); }

#define WRITE(m, i, k, STORE) if ((m & (1u << (i))) != 0u) { uint n_ = count(k); for (uint e = I0; e < n_; e += STEP) { STORE; } }
#define W_SB(i) WRITE(M_SBW, i, OFF_SBW + i, { uint v_ = wval(OFF_SBW + i, e); if ((P.s[OFF_SBW + i].flags & F_ASRANGE) != 0u && e < 4u) v_ = e == 0u ? 1u + (v_ & 15u) : 0u; else if ((P.s[OFF_SBW + i].flags & F_INDIRECT) != 0u && e < 4u) v_ = e == 0u ? 12288u + 3u * (v_ & 31u) : (e == 1u ? 1u : 0u); sbw[i].w[e] = v_; })
#define W_IW(i) WRITE(M_IW, i, OFF_IW + i, imageStore(iw[i], coord(OFF_IW + i, e), unit(spread(wval(OFF_IW + i, e)))))
#define W_IWU(i) WRITE(M_IWU, i, OFF_IWU + i, imageStore(iwu[i], coord(OFF_IWU + i, e), fit(OFF_IWU + i, spread(wval(OFF_IWU + i, e)))))
#define W_IW3(i) WRITE(M_IW3, i, OFF_IW3 + i, imageStore(iw3[i], coord(OFF_IW3 + i, e), unit(spread(wval(OFF_IW3 + i, e)))))

#define W_IW3U(i) WRITE(M_IW3U, i, OFF_IW3U + i, imageStore(iw3u[i], coord(OFF_IW3U + i, e), spread(wval(OFF_IW3U + i, e))))
#define W_STBW(i) WRITE(M_STBW, i, OFF_STBW + i, imageStore(stbw[i], int(e), uvec4(wval(OFF_STBW + i, e), 0u, 0u, 0u)))

#define W_IWMS(i) WRITE(M_IWMS, i, OFF_IWMS + i, imageStore(iwms[i], mscoord(OFF_IWMS + i, e), mssample(OFF_IWMS + i, e), unit(spread(wval(OFF_IWMS + i, e)))))
#define W_IWMSU(i) WRITE(M_IWMSU, i, OFF_IWMSU + i, imageStore(iwmsu[i], mscoord(OFF_IWMSU + i, e), mssample(OFF_IWMSU + i, e), spread(wval(OFF_IWMSU + i, e))))
#define W_IWI(i) WRITE(M_IWI, i, OFF_IWI + i, imageStore(iwi[i], coord(OFF_IWI + i, e), ivec4(spread(wval(OFF_IWI + i, e)))))
#define W_IW3I(i) WRITE(M_IW3I, i, OFF_IW3I + i, imageStore(iw3i[i], coord(OFF_IW3I + i, e), ivec4(spread(wval(OFF_IW3I + i, e)))))
#define W_IWMSI(i) WRITE(M_IWMSI, i, OFF_IWMSI + i, imageStore(iwmsi[i], mscoord(OFF_IWMSI + i, e), mssample(OFF_IWMSI + i, e), ivec4(spread(wval(OFF_IWMSI + i, e)))))

void writeAll() {
#if defined(EXTRA) || defined(BASE_WRITES)
	W_SB(0) W_SB(1) W_SB(2) W_SB(3)
#if N_SBW > 4
	W_SB(4) W_SB(5) W_SB(6) W_SB(7)
#endif
	W_IW(0) W_IW(1) W_IW(2) W_IW(3)
#if N_IW > 4
	W_IW(4) W_IW(5) W_IW(6) W_IW(7) W_IW(8) W_IW(9) W_IW(10) W_IW(11)
#endif
	W_IWU(0) W_IWU(1)
	W_IW3(0)
#endif
#ifdef EXTRA
	W_IW3U(0)
	W_STBW(0) W_STBW(1)
	W_IWI(0) W_IWI(1)
	W_IW3I(0)
#if N_MS > 0
	W_IWMS(0) W_IWMS(1)
	W_IWMSU(0) W_IWMSU(1)
#ifdef BASE_WRITES
	W_IWMSI(0) W_IWMSI(1)
#endif
#endif
#endif
}
