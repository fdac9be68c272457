// The CPU scans the tool's results are checked against (cumsum, cumprod,
// cummax, cummin), and the test data they run on. The data makes every order
// give the same exact result, so the library's canonical order need not be
// reproduced: float sums are of small integers, float products of powers of
// two, maxima and minima select an element (exact in any order); integers use
// their full range, so wrap-around and signed comparison are exercised.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "npy.hpp"

namespace vkscan::test {

inline bool isFloat(npy::DType type) {
  return type == npy::DType::Float16 || type == npy::DType::Float32 || type == npy::DType::Float64;
}

// Exact for the values used here: integers of magnitude up to 2048, and
// powers of two in the normal range.
inline uint16_t floatToHalf(float value) {
  if (value == 0.0f) return std::signbit(value) ? 0x8000 : 0;
  int exponent = 0;
  const float mantissa = std::frexp(std::fabs(value), &exponent);  // [0.5, 1)
  const auto fraction = uint16_t(std::lround((mantissa * 2.0f - 1.0f) * 1024.0f));
  return uint16_t((std::signbit(value) ? 0x8000 : 0) | ((exponent + 14) << 10) | fraction);
}

inline float halfToFloat(uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1F;
  const int fraction = bits & 0x3FF;
  const float special = fraction != 0 ? NAN : INFINITY;
  const float magnitude = exponent == 31  ? special
                          : exponent == 0 ? std::ldexp(float(fraction), -24)
                                          : std::ldexp(float(fraction | 0x400), exponent - 25);
  return (bits & 0x8000) ? -magnitude : magnitude;
}

inline double loadFloat(npy::DType type, const char* p) {
  switch (type) {
    case npy::DType::Float16: {
      uint16_t h;
      std::memcpy(&h, p, 2);
      return halfToFloat(h);
    }
    case npy::DType::Float32: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    default: {
      double d;
      std::memcpy(&d, p, 8);
      return d;
    }
  }
}

inline void storeFloat(npy::DType type, char* p, double value) {
  if (type == npy::DType::Float16) {
    const uint16_t h = floatToHalf(float(value));
    std::memcpy(p, &h, 2);
  } else if (type == npy::DType::Float32) {
    const auto f = float(value);
    std::memcpy(p, &f, 4);
  } else {
    std::memcpy(p, &value, 8);
  }
}

// The element's bits, zero-extended: sums of these wrap like the device's.
inline uint64_t loadBits(npy::DType type, const char* p) {
  uint64_t bits = 0;
  std::memcpy(&bits, p, npy::dtypeSize(type));
  return bits;
}

inline void storeBits(npy::DType type, char* p, uint64_t bits) {
  std::memcpy(p, &bits, npy::dtypeSize(type));
}

// Element strides of a packed array in C or Fortran order.
inline std::vector<uint64_t> packedStrides(const std::vector<uint64_t>& shape, bool fortranOrder) {
  std::vector<uint64_t> strides(shape.size());
  uint64_t stride = 1;
  for (size_t k = 0; k < shape.size(); ++k) {
    const size_t d = fortranOrder ? k : shape.size() - 1 - k;
    strides[d] = stride;
    stride *= shape[d];
  }
  return strides;
}

inline uint64_t elementCount(const std::vector<uint64_t>& shape) {
  uint64_t count = 1;
  for (uint64_t d : shape) count *= d;
  return count;
}

// An INT32, UINT32 or INT64 element as int64_t, whose order is the type's.
inline int64_t loadInteger(npy::DType type, const char* p) {
  const uint64_t bits = loadBits(type, p);
  if (type == npy::DType::Int32) return int64_t(int32_t(uint32_t(bits)));
  return int64_t(bits);
}

// The bits of `type`'s greatest (or least) value: +-inf for floats.
inline uint64_t extremeBits(npy::DType type, bool greatest) {
  switch (type) {
    case npy::DType::Float16:
      return greatest ? 0x7C00 : 0xFC00;
    case npy::DType::Float32:
      return greatest ? 0x7F800000 : 0xFF800000;
    case npy::DType::Float64:
      return greatest ? 0x7FF0000000000000 : 0xFFF0000000000000;
    case npy::DType::Int32:
      return greatest ? 0x7FFFFFFF : 0x80000000;
    case npy::DType::Int64:
      return greatest ? 0x7FFFFFFFFFFFFFFF : 0x8000000000000000;
    default:  // unsigned
      return greatest ? ~uint64_t{0} : 0;
  }
}

// The default quiet NaN of a float type, negative or not: the NaN a device
// keeps through a selection (vkscan does not promise other payloads).
inline uint64_t quietNaNBits(npy::DType type, bool negative) {
  switch (type) {
    case npy::DType::Float16:
      return negative ? 0xFE00 : 0x7E00;
    case npy::DType::Float32:
      return negative ? 0xFFC00000 : 0x7FC00000;
    default:
      return negative ? 0xFFF8000000000000 : 0x7FF8000000000000;
  }
}

struct ScanCase {
  std::string command = "cumsum";  // or cumprod, cummax, cummin
  npy::DType type = npy::DType::Float32;
  std::vector<uint64_t> shape;
  bool fortranOrder = false;
  uint32_t axis = 0;
  bool exclusive = false;
  bool reverse = false;
};

// The running value of one line of a scan: a number for cumsum and cumprod,
// the selected element's bits for cummax and cummin, and for those the
// selected element's index along the axis (PyTorch's cummax indices).
class Fold {
 public:
  explicit Fold(const ScanCase& c) : c_(c) {
    if (c.command == "cumprod") {
      floatValue_ = 1;
      bits_ = 1;
    } else if (c.command == "cummax" || c.command == "cummin") {
      bits_ = extremeBits(c.type, c.command == "cummin");
    }
  }

  void add(const char* element, uint64_t index = 0) {
    const bool selects = c_.command == "cummax" || c_.command == "cummin";
    if (selects) {
      if (takesLater(element)) {
        bits_ = loadBits(c_.type, element);
        index_ = index;
      }
    } else if (isFloat(c_.type)) {
      const double value = loadFloat(c_.type, element);
      floatValue_ = c_.command == "cumprod" ? floatValue_ * value : floatValue_ + value;
    } else {
      // Wraps modulo 2^64, so modulo 2^32 once stored as 32 bits.
      const uint64_t value = loadBits(c_.type, element);
      bits_ = c_.command == "cumprod" ? bits_ * value : bits_ + value;
    }
  }

  void store(char* out) const {
    if (isFloat(c_.type) && c_.command != "cummax" && c_.command != "cummin") {
      storeFloat(c_.type, out, floatValue_);
    } else {
      storeBits(c_.type, out, bits_);
    }
  }

  uint64_t index() const { return index_; }

 private:
  // The later element wins ties (-0.0 against +0.0 too) and a NaN always
  // wins, as PyTorch's cummax and cummin.
  bool takesLater(const char* element) const {
    const bool maximum = c_.command == "cummax";
    if (isFloat(c_.type)) {
      char current[8];
      storeBits(c_.type, current, bits_);
      const double earlier = loadFloat(c_.type, current);
      const double later = loadFloat(c_.type, element);
      if (std::isnan(later)) return true;
      if (std::isnan(earlier)) return false;
      return maximum ? later >= earlier : later <= earlier;
    }
    if (c_.type == npy::DType::UInt64) {
      const uint64_t later = loadBits(c_.type, element);
      return maximum ? later >= bits_ : later <= bits_;
    }
    char current[8];
    storeBits(c_.type, current, bits_);
    const int64_t earlier = loadInteger(c_.type, current);
    const int64_t later = loadInteger(c_.type, element);
    return maximum ? later >= earlier : later <= earlier;
  }

  const ScanCase& c_;
  double floatValue_ = 0;
  uint64_t bits_ = 0;
  uint64_t index_ = 0;
};

// The scan c.command names of `data` (the array's bytes in memory order);
// with `indices`, cummax's or cummin's indices instead, as int64 in the
// same order.
inline std::string referenceScan(const ScanCase& c, const std::string& data, bool indices = false) {
  const uint64_t count = elementCount(c.shape);
  std::string out(indices ? size_t(count) * 8 : data.size(), '\0');
  if (count == 0) return out;
  const size_t size = npy::dtypeSize(c.type);
  const std::vector<uint64_t> strides = packedStrides(c.shape, c.fortranOrder);
  const uint64_t length = c.shape[c.axis];
  std::vector<uint64_t> index(c.shape.size(), 0);
  for (uint64_t line = 0; line < count / length; ++line) {
    uint64_t base = 0;
    for (size_t d = 0; d < index.size(); ++d) base += index[d] * strides[d];
    Fold fold(c);
    for (uint64_t step = 0; step < length; ++step) {
      const uint64_t i = c.reverse ? length - 1 - step : step;
      const size_t offset = size_t((base + i * strides[c.axis]) * size);
      const char* in = data.data() + offset;
      if (!c.exclusive) fold.add(in, i);
      if (indices) {
        storeBits(npy::DType::Int64, out.data() + offset / size * 8, fold.index());
      } else {
        fold.store(out.data() + offset);
      }
      if (c.exclusive) fold.add(in, i);
    }
    for (size_t d = index.size(); d-- > 0;) {
      if (d == c.axis) continue;
      if (++index[d] < c.shape[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

// `count` elements of data that every order scans exactly (see the top):
// integers take random bits; floats are integers in [-8, 8] for cumsum,
// +-0.5, +-1 and +-2 for cumprod (lines of at most 14 stay in FLOAT16's
// normal range), and for cummax and cummin integers in [-3, 3] with zeros of
// both signs and quiet NaNs of both signs, so ties and NaNs are frequent.
inline std::string randomData(const std::string& command, npy::DType type, uint64_t count,
                              std::mt19937_64& rng) {
  const size_t size = npy::dtypeSize(type);
  std::string data(size_t(count) * size, '\0');
  std::uniform_int_distribution<int> small(-8, 8);
  std::uniform_int_distribution<int> choice(0, 15);
  for (uint64_t i = 0; i < count; ++i) {
    char* p = data.data() + i * size;
    if (!isFloat(type)) {
      storeBits(type, p, rng());
    } else if (command == "cumprod") {
      const int pick = choice(rng);
      storeFloat(type, p, std::ldexp(pick % 2 ? -1.0 : 1.0, pick / 2 % 3 - 1));
    } else if (command == "cummax" || command == "cummin") {
      const int pick = choice(rng);
      if (pick == 0 || pick == 1) {
        storeBits(type, p, quietNaNBits(type, pick == 1));
      } else if (pick == 2 || pick == 3) {
        storeFloat(type, p, pick == 3 ? -0.0 : 0.0);
      } else {
        storeFloat(type, p, pick % 7 - 3);
      }
    } else {
      storeFloat(type, p, small(rng));
    }
  }
  return data;
}

}  // namespace vkscan::test
