#version 450
// replay_fsr.vert: the full-screen triangle of a shading-rate pass
// (fsr.go): vertices 0..2 cover the render area.

void main() {
	uint v = uint(gl_VertexIndex);
	gl_Position = vec4(v == 1u ? 3.0 : -1.0, v == 2u ? 3.0 : -1.0, 0.5, 1.0);
}
