#include "stream.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <system_error>
#include <vector>

#include "failure.hpp"

namespace vkscan::cli {
namespace {

// An array seen in memory order as blocks[outer] of rows[axis length] of
// `inner` elements: C order puts the dimensions before the axis outside,
// Fortran order those after it.
struct Blocks {
  uint64_t outer = 1;
  uint64_t length = 1;
  uint64_t inner = 1;
};

Blocks blocksOf(const ScanDesc& desc) {
  Blocks b;
  const bool fortran = !desc.input.strides.empty();
  for (uint32_t d = 0; d < desc.input.sizes.size(); ++d) {
    const uint64_t size = desc.input.sizes[d];
    if (d == desc.axis) {
      b.length = size;
    } else if ((d < desc.axis) != fortran) {
      b.outer *= size;
    } else {
      b.inner *= size;
    }
  }
  return b;
}

// Host and device bytes per element of a chunk: the mapped input, the
// output's host buffer, and run()'s input and output buffers.
uint64_t bytesPerElement(const ScanDesc& desc) {
  return 2 * (dataTypeSize(desc.input.dataType) + dataTypeSize(desc.output.dataType));
}

// The input file, mapped read-only; the pages of each chunk are dropped once
// the device has it, so resident memory stays near one chunk.
class MappedInput {
 public:
  MappedInput(const npy::NpyReader& reader, uint64_t dataBytes)
      : offset_(reader.dataStart()), bytes_(offset_ + dataBytes) {
    if (dataBytes == 0) return;
    void* address = ::mmap(nullptr, bytes_, PROT_READ, MAP_SHARED, reader.fd(), 0);
    if (address == MAP_FAILED) {
      throw std::system_error(errno, std::generic_category(), "mmap failed");
    }
    base_ = static_cast<const std::byte*>(address);
    ::madvise(const_cast<std::byte*>(base_), bytes_, MADV_SEQUENTIAL);
  }
  ~MappedInput() {
    if (base_ != nullptr) ::munmap(const_cast<std::byte*>(base_), bytes_);
  }
  MappedInput(const MappedInput&) = delete;
  MappedInput& operator=(const MappedInput&) = delete;

  const std::byte* data(uint64_t offset) const { return base_ + offset_ + offset; }

  void release(uint64_t offset, uint64_t bytes) const {
    // Whole pages inside the range; a page shared with the next chunk stays.
    const uint64_t page = 4096;
    uint64_t begin = (offset_ + offset + page - 1) / page * page;
    uint64_t end = (offset_ + offset + bytes) / page * page;
    if (end > begin) ::madvise(const_cast<std::byte*>(base_) + begin, end - begin, MADV_DONTNEED);
  }

 private:
  const std::byte* base_ = nullptr;
  uint64_t offset_;
  uint64_t bytes_;
};

// `lines` x `rows` x `inner` packed, scanned along the rows.
ScanDesc chunkDesc(const ScanDesc& desc, uint64_t lines, uint64_t rows, uint64_t inner) {
  ScanDesc chunk = desc;
  chunk.input.sizes = {uint32_t(lines), uint32_t(rows), uint32_t(inner)};
  chunk.input.strides = {};
  chunk.output.sizes = chunk.input.sizes;
  chunk.output.strides = {};
  chunk.axis = 1;
  return chunk;
}

}  // namespace

uint64_t inMemoryBytes(const ScanDesc& desc) {
  uint64_t elements = 1;
  for (uint32_t size : desc.input.sizes) elements *= size;
  return elements * bytesPerElement(desc);
}

void streamScan(const Device& device, const ScanDesc& desc, const npy::NpyReader& reader,
                OutputFile& output, const std::string& outputHeader, uint64_t memoryLimit,
                Progress& progress) {
  const Blocks blocks = blocksOf(desc);
  const uint64_t inSize = dataTypeSize(desc.input.dataType);
  const uint64_t outSize = dataTypeSize(desc.output.dataType);
  const uint64_t maxElements = std::max<uint64_t>(1, memoryLimit / bytesPerElement(desc));
  const uint64_t blockElements = blocks.length * blocks.inner;
  const MappedInput input(reader, blocks.outer * blockElements * inSize);
  output.write(outputHeader.data(), outputHeader.size());
  const uint64_t outputStart = outputHeader.size();
  progress.phase("scanning in chunks", blocks.outer * blockElements * outSize);
  uint64_t written = 0;
  std::vector<std::byte> result;

  // Runs one chunk of elements [first, first + count) of the array.
  const auto runChunk = [&](const ScanDesc& chunk, uint64_t first, uint64_t count,
                            const void* carryIn, void* totals) {
    result.resize(size_t(std::max(chunk.output.totalBytes(), count * outSize)));
    RunData data;
    data.input = input.data(first * inSize);
    data.output = result.data();
    data.carryIn = carryIn;
    data.totals = totals;
    run(device, chunk, data);
    input.release(first * inSize, count * inSize);
    output.writeAt(outputStart + first * outSize, result.data(), size_t(count * outSize));
    written += count * outSize;
    progress.advance(written);
  };

  if (blockElements <= maxElements) {
    // Whole blocks: every line is in the chunk, no carries.
    const uint64_t perChunk = std::max<uint64_t>(1, maxElements / blockElements);
    for (uint64_t block = 0; block < blocks.outer; block += perChunk) {
      const uint64_t count = std::min(perChunk, blocks.outer - block);
      runChunk(chunkDesc(desc, count, blocks.length, blocks.inner), block * blockElements,
               count * blockElements, nullptr, nullptr);
    }
    return;
  }
  if (blocks.inner * 1 > maxElements) {
    throw Failure(kExitUsage, "--memory " + std::to_string(memoryLimit) +
                                  " bytes do not hold one row of the " +
                                  std::to_string(blocks.inner) +
                                  " elements inside the axis (in memory order), the least "
                                  "chunk that streams; raise --memory");
  }
  uint64_t rowsPerChunk = 1;
  while (rowsPerChunk * 16 * blocks.inner <= maxElements) rowsPerChunk *= 16;
  const bool decreasing = desc.axisDirection == AxisDirection::Decreasing;
  for (uint64_t block = 0; block < blocks.outer; ++block) {
    ChunkCarries carries(desc.operation, desc.output.dataType, blocks.inner, rowsPerChunk);
    std::vector<std::byte> totals(size_t(carries.carryBytes()));
    // Chunks in traversal order: from the axis's end when decreasing, the
    // last (shorter) one then at its start.
    for (uint64_t done = 0; done < blocks.length; done += rowsPerChunk) {
      const uint64_t rows = std::min(rowsPerChunk, blocks.length - done);
      const uint64_t firstRow = decreasing ? blocks.length - done - rows : done;
      ScanDesc chunk = chunkDesc(desc, 1, rows, blocks.inner);
      const TensorDesc lineValues{carries.type(), {1, 1, uint32_t(blocks.inner)}, {}};
      // The first chunk without a carry: an exclusive sum then starts at
      // +0.0, as the whole array's does.
      if (done != 0) chunk.carryIn = lineValues;
      chunk.totals = lineValues;
      runChunk(chunk, (block * blocks.length + firstRow) * blocks.inner, rows * blocks.inner,
               done != 0 ? carries.carries() : nullptr, totals.data());
      carries.push(totals.data(), rows);
    }
  }
}

}  // namespace vkscan::cli
