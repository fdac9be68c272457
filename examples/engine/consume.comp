// The engine's consumer pass: y[i] = 2 * cumsum[i], reading vkscan's output.
#version 450
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer Src { uint cumsum[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Dst { uint y[]; };
layout(push_constant) uniform Params { uint count; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < count) y[i] = 2u * cumsum[i];
}
