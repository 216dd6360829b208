#version 460
#extension GL_EXT_ray_tracing : require
// replay.rchit: the closest hit: instance, primitive, distance in 1/4096
// (raytrace.go).
layout(location = 0) rayPayloadInEXT uvec4 hit;
hitAttributeEXT vec2 bary;

void main() { hit = uvec4(1u, uint(gl_InstanceCustomIndexEXT), uint(gl_PrimitiveID), uint(round(gl_HitTEXT * 4096.0))); }
