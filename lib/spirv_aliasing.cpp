#include "spirv_aliasing.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vkscan/vkscan.hpp>

namespace vkscan::detail {
namespace {

// Opcodes, storage classes and decorations from the SPIR-V specification.
constexpr uint32_t kMagic = 0x07230203u;
constexpr uint32_t kOpVariable = 59;
constexpr uint32_t kOpDecorate = 71;
constexpr uint32_t kOpMemberDecorate = 72;
constexpr uint32_t kOpDecorationGroup = 73;
constexpr uint32_t kOpGroupDecorate = 74;
constexpr uint32_t kOpGroupMemberDecorate = 75;
constexpr uint32_t kOpDecorateId = 332;
constexpr uint32_t kOpDecorateString = 5632;
constexpr uint32_t kOpMemberDecorateString = 5633;
constexpr uint32_t kStorageBuffer = 12;
constexpr uint32_t kRestrict = 19;
constexpr uint32_t kAliased = 20;
constexpr uint32_t kNonWritable = 24;
constexpr size_t kHeaderWords = 5;

bool isAnnotation(uint32_t opcode) {
  return opcode == kOpDecorate || opcode == kOpMemberDecorate || opcode == kOpDecorationGroup ||
         opcode == kOpGroupDecorate || opcode == kOpGroupMemberDecorate ||
         opcode == kOpDecorateId || opcode == kOpDecorateString ||
         opcode == kOpMemberDecorateString;
}

}  // namespace

uint32_t declareStorageBuffersAliased(std::vector<uint32_t>& words) {
  if (words.size() < kHeaderWords || words[0] != kMagic) {
    throw Error("a kernel binary is no SPIR-V module");
  }
  std::set<uint32_t> buffers;
  std::set<uint32_t> decided;  // already Aliased or Restrict
  size_t firstAnnotation = 0;
  // Instructions move down over the NonWritable decorations dropped (a hint
  // only, so the module means the same without it).
  size_t kept = kHeaderWords;
  for (size_t i = kHeaderWords; i < words.size();) {
    uint32_t count = words[i] >> 16;
    uint32_t opcode = words[i] & 0xffffu;
    if (count == 0 || i + count > words.size()) {
      throw Error("a kernel binary has a malformed instruction at word " + std::to_string(i));
    }
    bool nonWritable = (opcode == kOpDecorate && count == 3 && words[i + 2] == kNonWritable) ||
                       (opcode == kOpMemberDecorate && count == 4 && words[i + 3] == kNonWritable);
    if (nonWritable) {
      i += count;
      continue;
    }
    if (isAnnotation(opcode) && firstAnnotation == 0) firstAnnotation = kept;
    if (opcode == kOpVariable && count >= 4 && words[i + 3] == kStorageBuffer) {
      buffers.insert(words[i + 2]);
    }
    if (opcode == kOpDecorate && count >= 3 &&
        (words[i + 2] == kAliased || words[i + 2] == kRestrict)) {
      decided.insert(words[i + 1]);
    }
    std::copy(words.begin() + static_cast<std::ptrdiff_t>(i),
              words.begin() + static_cast<std::ptrdiff_t>(i + count),
              words.begin() + static_cast<std::ptrdiff_t>(kept));
    kept += count;
    i += count;
  }
  words.resize(kept);
  std::vector<uint32_t> added;
  for (uint32_t id : buffers) {
    if (decided.count(id) != 0) continue;
    added.insert(added.end(), {(3u << 16) | kOpDecorate, id, kAliased});
  }
  if (added.empty()) return 0;
  // Every module with storage buffers decorates their bindings.
  if (firstAnnotation == 0) throw Error("a kernel binary has storage buffers but no annotations");
  words.insert(words.begin() + static_cast<std::ptrdiff_t>(firstAnnotation), added.begin(),
               added.end());
  return static_cast<uint32_t>(added.size() / 3);
}

}  // namespace vkscan::detail
