// The CPU cumulative sum the tool's results are checked against, and the
// test data it runs on. Floats are small integers, so every summation order
// gives the same exact result and the library's canonical order need not be
// reproduced; integers use their full range, so wrap-around is exercised.
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

// Exact for the values used here: integers of magnitude up to 2048.
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
  const float magnitude = exponent == 0 ? std::ldexp(float(fraction), -24)
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

struct ScanCase {
  npy::DType type = npy::DType::Float32;
  std::vector<uint64_t> shape;
  bool fortranOrder = false;
  uint32_t axis = 0;
  bool exclusive = false;
  bool reverse = false;
};

// The cumulative sum of `data` (the array's bytes in memory order).
inline std::string referenceCumsum(const ScanCase& c, const std::string& data) {
  std::string out(data.size(), '\0');
  const uint64_t count = elementCount(c.shape);
  if (count == 0) return out;
  const size_t size = npy::dtypeSize(c.type);
  const std::vector<uint64_t> strides = packedStrides(c.shape, c.fortranOrder);
  const uint64_t length = c.shape[c.axis];
  std::vector<uint64_t> index(c.shape.size(), 0);
  for (uint64_t line = 0; line < count / length; ++line) {
    uint64_t base = 0;
    for (size_t d = 0; d < index.size(); ++d) base += index[d] * strides[d];
    double floatSum = 0;
    uint64_t bitSum = 0;
    for (uint64_t step = 0; step < length; ++step) {
      const uint64_t i = c.reverse ? length - 1 - step : step;
      const size_t offset = size_t((base + i * strides[c.axis]) * size);
      const char* in = data.data() + offset;
      char* result = out.data() + offset;
      const double f = isFloat(c.type) ? loadFloat(c.type, in) : 0.0;
      const uint64_t b = isFloat(c.type) ? 0 : loadBits(c.type, in);
      if (!c.exclusive) {
        floatSum += f;
        bitSum += b;
      }
      if (isFloat(c.type)) {
        storeFloat(c.type, result, floatSum);
      } else {
        storeBits(c.type, result, bitSum);
      }
      if (c.exclusive) {
        floatSum += f;
        bitSum += b;
      }
    }
    for (size_t d = index.size(); d-- > 0;) {
      if (d == c.axis) continue;
      if (++index[d] < c.shape[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

// `count` elements: integers in [-8, 8] for floats, random bits for integers.
inline std::string randomData(npy::DType type, uint64_t count, std::mt19937_64& rng) {
  const size_t size = npy::dtypeSize(type);
  std::string data(size_t(count) * size, '\0');
  std::uniform_int_distribution<int> small(-8, 8);
  for (uint64_t i = 0; i < count; ++i) {
    char* p = data.data() + i * size;
    if (isFloat(type)) {
      storeFloat(type, p, small(rng));
    } else {
      storeBits(type, p, rng());
    }
  }
  return data;
}

}  // namespace vkscan::test
