// Scans an .npy file larger than the memory a command may use: chunks of
// the file, memory-mapped, go through the device one after another and the
// output is written as it goes, with the bits of a scan of the whole array.
#pragma once

#include <cstdint>
#include <string>

#include "npy_reader.hpp"
#include "output_file.hpp"
#include "progress.hpp"
#include "vkscan/host.hpp"

namespace vkscan::cli {

// Host and device memory one in-memory run of `desc` takes (the arrays, and
// run()'s buffers, which on CPU devices are host memory too).
uint64_t inMemoryBytes(const ScanDesc& desc);

// Writes the scan of `desc` (the whole array in `reader`'s file: C or
// Fortran order, packed) to `output` after `outputHeader`, in chunks that
// keep host and device memory near `memoryLimit` bytes:
// - whole blocks of lines where one block (the axis and the dimensions
//   inside it in memory order) fits, with no carries;
// - else, for each block, chunks of 16^k rows along the axis, each row the
//   elements inside the axis in memory order, chained by ChunkCarries.
// Throws Failure(kExitUsage) when 16^0 = 1 such row does not fit.
void streamScan(const Device& device, const ScanDesc& desc, const npy::NpyReader& reader,
                OutputFile& output, const std::string& outputHeader, uint64_t memoryLimit,
                Progress& progress);

}  // namespace vkscan::cli
