// The .npy file format (numpy's own serialisation of one array), limited to
// what vkscan can scan: little-endian numeric types of 2 to 8 bytes.
// https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
//
// Layout: magic "\x93NUMPY", major and minor version bytes, the header length
// (uint16 for 1.0, uint32 for 2.0 and 3.0, little-endian), then the header: a
// Python dict literal {'descr': ..., 'fortran_order': ..., 'shape': (...)},
// padded with spaces and ended by '\n'; the raw array data follows.
//
// No Vulkan and no I/O here, so a fuzzer can drive parseHeader() directly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace vkscan::npy {

// UInt16 ("<u2") and Void2 ("|V2", raw 2-byte records) are read only as the
// bits of bfloat16, which numpy has no dtype for (vkscan cumsum
// --input-dtype bfloat16).
enum class DType { Float16, Float32, Float64, Int32, UInt32, Int64, UInt64, UInt16, Void2 };

// The dtypes vkscan sums as numpy does.
inline constexpr DType kAllDTypes[] = {DType::Float16, DType::Float32, DType::Float64, DType::Int32,
                                       DType::UInt32,  DType::Int64,   DType::UInt64};

size_t dtypeSize(DType type) noexcept;

// The descr numpy writes on a little-endian machine, e.g. "<f4".
const char* dtypeDescr(DType type) noexcept;

// A file (or header) that is not a valid .npy of a supported type. what() is
// one line saying what is wrong, without the file name.
class NpyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Header {
  DType dtype = DType::Float32;
  bool fortranOrder = false;
  std::vector<uint64_t> shape;

  // The product of shape (1 for a 0-d array). Throws NpyError on overflow.
  uint64_t elementCount() const;
  // elementCount() * dtypeSize(). Throws NpyError on overflow.
  uint64_t dataBytes() const;
};

// Magic, version and header length: 10 bytes for version 1.0, 12 after.
inline constexpr size_t kMaxPreambleSize = 12;

// Headers past this are refused before they are read: a valid header of a
// supported dtype is under 200 bytes, and the length field alone could
// otherwise make the reader allocate 4 GiB.
inline constexpr uint64_t kMaxHeaderSize = 1 << 20;

// Given the first bytes of a file (kMaxPreambleSize, or all of a shorter
// file), checks the magic and version and returns the offset where the array
// data begins, never below kMaxPreambleSize: a header of version 1.0 shorter
// than 2 bytes cannot hold the dict, and refusing it here means readers that
// take kMaxPreambleSize bytes first never read into the data. Throws NpyError.
uint64_t dataOffset(std::string_view prefix);

// Parses the preamble and header at the start of `bytes`, which must hold at
// least dataOffset(bytes) bytes; anything after is ignored. Throws NpyError.
Header parseHeader(std::string_view bytes);

// The preamble and header numpy would write for `header`: version 1.0 unless
// the header needs more than 65535 bytes, padded so the data is 64-byte
// aligned.
std::string formatHeader(const Header& header);

// "(3, 4)", "(3,)" or "()", as Python prints the shape tuple.
std::string formatShape(const std::vector<uint64_t>& shape);

}  // namespace vkscan::npy
