#include <cstring>
#include <string>
#include <vector>
#include <vkscan/host.hpp>

#include "host/canonical_step.hpp"

namespace vkscan {

// Per level above the chunks', the serial fold (L of the header's canonical
// order) of the completed nodes of the group being filled, for every line;
// a group of 16 folds into one value of the next level up.
struct ChunkCarries::State {
  ScanOperation operation;
  DataType type;
  size_t size;
  uint64_t lines;
  uint64_t chunkLength;
  std::vector<std::vector<uint8_t>> folds;  // [level][line]
  std::vector<uint32_t> counts;             // nodes folded at each level
  std::vector<uint8_t> carries;
  bool ended = false;
};

namespace {

uint64_t checkedBytes(uint64_t lines, size_t size) {
  if (lines > (uint64_t{1} << 40) / size) {
    throw InvalidArgument("lines", std::to_string(lines) + " lines of carries do not fit memory");
  }
  return lines * size;
}

bool powerOf16(uint64_t length) {
  while (length % 16 == 0 && length > 1) length /= 16;
  return length == 1;
}

}  // namespace

ChunkCarries::ChunkCarries(ScanOperation operation, DataType outputType, uint64_t lines,
                           uint64_t chunkLength)
    : state_(std::make_unique<State>()) {
  if (static_cast<uint32_t>(operation) > static_cast<uint32_t>(ScanOperation::LogSumExp)) {
    throw InvalidArgument("operation", "not a ScanOperation");
  }
  if (!powerOf16(chunkLength)) {
    throw InvalidArgument("chunkLength", std::to_string(chunkLength) +
                                             " is not a power of 16 (1, 16, 256, ...): "
                                             "only whole subtrees of the canonical order chain");
  }
  State& s = *state_;
  s.operation = operation;
  s.type = carryType(outputType);
  s.size = dataTypeSize(s.type);
  s.lines = lines;
  s.chunkLength = chunkLength;
  s.carries.resize(checkedBytes(lines, s.size));
  for (uint64_t line = 0; line < lines; ++line) {
    detail::identityCanonical(operation, s.type, s.carries.data() + line * s.size);
  }
}

ChunkCarries::~ChunkCarries() = default;
ChunkCarries::ChunkCarries(ChunkCarries&&) noexcept = default;
ChunkCarries& ChunkCarries::operator=(ChunkCarries&&) noexcept = default;

DataType ChunkCarries::type() const noexcept {
  return state_->type;
}

uint64_t ChunkCarries::lines() const noexcept {
  return state_->lines;
}

const void* ChunkCarries::carries() const noexcept {
  return state_->carries.data();
}

uint64_t ChunkCarries::carryBytes() const noexcept {
  return state_->carries.size();
}

void ChunkCarries::push(const void* totals, uint64_t length) {
  State& s = *state_;
  if (s.ended) {
    throw InvalidArgument("length", "a chunk after a shorter one, which was the line's last");
  }
  if (length == 0 || length > s.chunkLength) {
    throw InvalidArgument("length", std::to_string(length) + " is not 1 to the chunk length " +
                                        std::to_string(s.chunkLength));
  }
  if (totals == nullptr) throw InvalidArgument("totals", "null");
  if (length < s.chunkLength) {
    s.ended = true;  // the last chunk: nothing follows that needs a carry
    return;
  }
  // The chunk's totals are level-0 values here; whole groups move up.
  std::vector<uint8_t> value(static_cast<const uint8_t*>(totals),
                             static_cast<const uint8_t*>(totals) + s.carries.size());
  for (size_t level = 0;; ++level) {
    if (level == s.folds.size()) {
      s.folds.emplace_back(s.carries.size());
      s.counts.push_back(0);
    }
    std::vector<uint8_t>& fold = s.folds[level];
    if (s.counts[level] == 0) {
      fold = value;
    } else {
      for (uint64_t line = 0; line < s.lines; ++line) {
        uint8_t* f = fold.data() + line * s.size;
        detail::combineCanonical(s.operation, s.type, f, value.data() + line * s.size, f);
      }
    }
    if (++s.counts[level] < 16) break;
    s.counts[level] = 0;
    value.swap(fold);
  }
  // X at the chunks' level: the folds from the top down, each level's carry
  // combined with the fold of its group (empty groups are the identity,
  // which changes nothing).
  for (uint64_t line = 0; line < s.lines; ++line) {
    uint8_t* carry = s.carries.data() + line * s.size;
    detail::identityCanonical(s.operation, s.type, carry);
    for (size_t level = s.folds.size(); level-- > 0;) {
      if (s.counts[level] == 0) continue;
      detail::combineCanonical(s.operation, s.type, carry, s.folds[level].data() + line * s.size,
                               carry);
    }
  }
}

}  // namespace vkscan
