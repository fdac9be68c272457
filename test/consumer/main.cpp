#include <cstdio>
#include <vector>
#include <vkscan/host.hpp>

int main() {
  if (vkscan::version() != VKSCAN_VERSION) {
    std::fprintf(stderr, "consumer: library %u, headers %d\n", vkscan::version(), VKSCAN_VERSION);
    return 1;
  }
  try {
    vkscan::Device device = vkscan::createDevice();
    vkscan::CumulativeSummationDesc desc;
    desc.input = {vkscan::DataType::Float32, {1, 1, 3, 4}, {}};
    desc.output = desc.input;
    desc.axis = 3;
    std::vector<float> input = {2, 1, 3, 5, 3, 8, 7, 3, 9, 6, 2, 4};
    std::vector<float> output(input.size());
    vkscan::run(device, desc, input.data(), output.data());
    const std::vector<float> expected = {2, 3, 6, 11, 3, 11, 18, 21, 9, 15, 17, 21};
    if (output != expected) {
      std::fprintf(stderr, "consumer: wrong result\n");
      return 1;
    }
    std::printf("consumer: ok on %s\n", vkscan::capabilities(device).deviceName.c_str());
    return 0;
  } catch (const vkscan::Error& error) {
    std::fprintf(stderr, "consumer: %s\n", error.what());
    return 1;
  }
}
