#version 450
// replay_dgc.comp: the dispatch that device-generated commands execute
// (dgc.go). Every sequence that launches a workgroup adds, per
// invocation, a word derived from the command's seed to one of its
// lanes: the lanes count the workgroups the generated commands ran, so
// the command's digest sees the sequence count its graph buffer held.
// token is 0, or, under the push-constant layout, the word the sequence's
// PUSH_CONSTANT token pushed (distinct per sequence): then the lanes also
// see which sequences ran.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Lanes { uint lane[256]; };
layout(push_constant) uniform Seed { uint seed; uint token; };

void main() {
	uint i = gl_LocalInvocationID.x;
	uint v = (seed ^ token ^ (i * 2654435761u)) | 1u;
	atomicAdd(lane[(i * 4u + (seed & 3u)) & 255u], v);
}
