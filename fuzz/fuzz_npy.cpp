// libFuzzer target: the .npy header parser of tools/cli (vkscan_npy).
// Arbitrary bytes go through dataOffset() and parseHeader(); they may only
// throw NpyError. A header that parses must survive formatHeader() and parse
// back to the same header, and its data size must be consistent.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "npy.hpp"

using namespace vkscan::npy;

namespace {

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "fuzz_npy: invariant broken: %s\n", what);
  std::abort();
}

#define EXPECT(condition) \
  if (!(condition)) fail(#condition)

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t length) {
  std::string_view input(reinterpret_cast<const char*>(bytes), length);
  try {
    uint64_t offset = dataOffset(input.substr(0, kMaxPreambleSize));
    EXPECT(offset >= 10);
  } catch (const NpyError&) {
  }
  Header header;
  try {
    header = parseHeader(input);
  } catch (const NpyError&) {
    return 0;
  }
  uint64_t offset = dataOffset(input.substr(0, kMaxPreambleSize));
  EXPECT(offset <= length);
  EXPECT(offset <= kMaxPreambleSize + kMaxHeaderSize);
  uint64_t elements = 0;
  try {
    elements = header.elementCount();
    EXPECT(header.dataBytes() == elements * dtypeSize(header.dtype));
  } catch (const NpyError&) {
    // Overflowing shapes are refused here rather than by parseHeader.
  }
  std::string formatted = formatHeader(header);
  EXPECT(formatted.size() % 64 == 0);
  Header again = parseHeader(formatted);
  EXPECT(again.dtype == header.dtype);
  EXPECT(again.fortranOrder == header.fortranOrder);
  EXPECT(again.shape == header.shape);
  EXPECT(dataOffset(std::string_view(formatted).substr(0, kMaxPreambleSize)) == formatted.size());
  return 0;
}
