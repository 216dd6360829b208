#version 450
// xfb.vert: transform feedback (xfb.go). Point v of a draw captures one
// word into transform feedback buffer 0, derived from v and the
// command's seed (the draw's firstInstance): fixed vertex outputs, so the
// captured bytes are the same in every run. No descriptors, no
// rasterization (the pipeline discards).
layout(location = 0, xfb_buffer = 0, xfb_offset = 0, xfb_stride = 4) flat out uint word;

uint hash(uint x) {
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

void main() {
	word = hash(uint(gl_InstanceIndex) ^ hash(uint(gl_VertexIndex)));
	gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
	gl_PointSize = 1.0;
}
