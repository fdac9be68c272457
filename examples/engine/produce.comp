// The engine's producer pass: x[i] = i % 7 + 1, the input of the scan.
#version 450
layout(local_size_x = 64) in;

// Binding 1 is the pass's output in both of the example's passes, which
// share one descriptor set layout; the producer reads nothing (binding 0).
layout(set = 0, binding = 1, std430) writeonly buffer Dst { uint x[]; };
layout(push_constant) uniform Params { uint count; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < count) x[i] = i % 7u + 1u;
}
