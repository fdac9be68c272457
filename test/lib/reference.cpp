#include "reference.hpp"

#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <type_traits>

namespace vkscan::test {
namespace {

template <typename T>
T identity(ScanOperation op) {
  constexpr bool kFloat = std::is_floating_point_v<T>;
  switch (op) {
    case ScanOperation::Product:
      return T(1);
    case ScanOperation::Maximum:
    case ScanOperation::LogSumExp:
      return kFloat ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
    case ScanOperation::Minimum:
      return kFloat ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
    default:
      return kFloat ? -T(0) : T(0);
  }
}

// Log-sum-exp's constants (kernels/common.glsl, which documents the method).
template <typename T>
struct LogSumExpConstants;

template <>
struct LogSumExpConstants<float> {
  static constexpr float kCutoff = 85.0f, kTiny = 0x1p-26f, kLog2e = 1.4426950216293335f,
                         kRound = 12582912.0f, kExpHi = 0.693145751953125f,
                         kExpLo = 1.428606765330187e-06f;
  static constexpr float kP[] = {0.0001989126903936267f, 0.0013933900045230985f,
                                 0.00833331048488617f,   0.041666463017463684f,
                                 0.1666666716337204f,    0.5f};
  static constexpr float kR[] = {-0.001770662609487772f,
                                 0.011725340969860554f,
                                 -0.03631710633635521f,
                                 0.07204850018024445f,
                                 -0.10774867981672287f,
                                 0.13762709498405457f,
                                 -0.16563618183135986f,
                                 0.19987818598747253f,
                                 -0.2499924600124359f,
                                 0.3333331346511841f,
                                 -0.5f};
  static int32_t roundedBits(float big) {
    uint32_t bits;
    std::memcpy(&bits, &big, 4);
    return static_cast<int32_t>(bits - 0x4B400000u);
  }
  static float pow2(int32_t k) {
    uint32_t bits = static_cast<uint32_t>(k + 127) << 23;
    float value;
    std::memcpy(&value, &bits, 4);
    return value;
  }
  static float nan() {
    uint32_t bits = 0x7FC00000u;  // the positive quiet NaN
    float value;
    std::memcpy(&value, &bits, 4);
    return value;
  }
};

template <>
struct LogSumExpConstants<double> {
  static constexpr double kCutoff = 700.0, kTiny = 0x1p-55, kLog2e = 1.4426950408889634,
                          kRound = 6755399441055744.0, kExpHi = 6.93147180369123816490e-01,
                          kExpLo = 1.90821492927058770002e-10;
  static constexpr double kP[] = {2.0914898727175524e-09,
                                  2.5105513541847086e-08,
                                  2.755727313289604e-07,
                                  2.7557254685728803e-06,
                                  2.480158732595111e-05,
                                  0.0001984126987538548,
                                  0.0013888888888883633,
                                  0.008333333333325973,
                                  0.04166666666666667,
                                  0.1666666666666667,
                                  0.5};
  static constexpr double kR[] = {1.507843780222621e-05, -0.0001818830325500265,
                                  0.001043354876634814,  -0.0038046517253179694,
                                  0.009968982838076882,  -0.020179668043339125,
                                  0.03327845491726436,   -0.046798182549893104,
                                  0.05858685252957079,   -0.06799320385322372,
                                  0.07573035633807378,   -0.08299931758127772,
                                  0.09083470413958532,   -0.09998705428075007,
                                  0.11110938960467566,   -0.12499983019721868,
                                  0.14285713092791552,   -0.1666666661032813,
                                  0.19999999998361212,   -0.2499999999997462,
                                  0.33333333333333176,   -0.5};
  static int32_t roundedBits(double big) {
    uint64_t bits;
    std::memcpy(&bits, &big, 8);
    return static_cast<int32_t>(static_cast<uint32_t>(bits));
  }
  static double pow2(int32_t k) {
    uint64_t bits = static_cast<uint64_t>(k + 1023) << 52;
    double value;
    std::memcpy(&value, &bits, 8);
    return value;
  }
  static double nan() {
    uint64_t bits = 0x7FF8000000000000u;
    double value;
    std::memcpy(&value, &bits, 8);
    return value;
  }
};

}  // namespace

// The kernels' sequence line for line; every operation is rounded to T
// (no excess precision on x86-64 SSE, and the file is built with
// -ffp-contract=off so that nothing becomes an FMA).
template <typename T>
T logSumExp(T a, T b) {
  using C = LogSumExpConstants<T>;
  const T inf = std::numeric_limits<T>::infinity();
  bool aFirst = a >= b;
  T m = aFirst ? a : b;
  T o = aFirst ? b : a;
  T d = m - o;
  T bb = d - m;
  T aa = d - bb;
  T dd = (m - aa) + (-o - bb);
  bool far = !(d <= C::kCutoff);
  bool zero = far || d < C::kTiny;
  T x = zero ? T(0) : -d;
  T dx = zero ? T(0) : dd;
  T big = x * C::kLog2e + C::kRound;
  T kf = big - C::kRound;
  T r = (x - kf * C::kExpHi) - (kf * C::kExpLo + dx);
  T poly = C::kP[0];
  for (size_t i = 1; i < std::size(C::kP); ++i) poly = poly * r + C::kP[i];
  T e = (T(1) + (r + r * (r * poly))) * C::pow2(C::roundedBits(big));
  T ee = e < C::kTiny ? T(0) : e;
  T poly2 = C::kR[0];
  for (size_t i = 1; i < std::size(C::kR); ++i) poly2 = poly2 * ee + C::kR[i];
  T l = e + ee * (ee * poly2);
  T sum = m + l;
  T result = far ? m : sum;
  result = o == -inf || m == inf ? m : result;
  return std::isnan(a) || std::isnan(b) ? C::nan() : result;
}

template float logSumExp(float, float);
template double logSumExp(double, double);

namespace {

template <typename T>
bool isNan(T value) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::isnan(value);
  } else {
    return false;
  }
}

// One "+" of the canonical order, for `op`: `earlier` is the running value.
template <typename T>
T combine(ScanOperation op, T earlier, T later) {
  if constexpr (std::is_floating_point_v<T>) {
    if (op == ScanOperation::LogSumExp) return logSumExp(earlier, later);
  }
  switch (op) {
    case ScanOperation::Maximum:
    case ScanOperation::Minimum: {
      // The later operand wins ties; a NaN always wins.
      bool ordered = op == ScanOperation::Maximum ? later >= earlier : later <= earlier;
      return isNan(later) || (!isNan(earlier) && ordered) ? later : earlier;
    }
    default:
      break;
  }
  bool product = op == ScanOperation::Product;
  if constexpr (std::is_floating_point_v<T>) {
    volatile T result = product ? earlier * later : earlier + later;  // no excess precision
    return result;
  } else {
    using U = std::make_unsigned_t<T>;
    // Promoted to at least unsigned int, so that 16-bit-free wrapping is defined.
    using Wide = std::conditional_t<sizeof(U) < sizeof(unsigned), unsigned, U>;
    Wide a = static_cast<U>(earlier);
    Wide b = static_cast<U>(later);
    return static_cast<T>(static_cast<U>(product ? a * b : a + b));
  }
}

template <typename T>
T serialFold(ScanOperation op, const std::vector<T>& values, size_t begin, size_t end) {
  T result = identity<T>(op);
  for (size_t i = begin; i < end; ++i) result = combine(op, result, values[i]);
  return result;
}

// The canonical order, level by level; with `carry` at the root (the
// identity without), and the top node's value into *total unless null.
template <typename T>
std::vector<T> canonicalScan(ScanOperation op, const std::vector<T>& x, bool exclusive,
                             const T* carryIn = nullptr, T* total = nullptr) {
  const size_t B = 16;
  std::vector<std::vector<T>> level{x};
  do {
    const std::vector<T>& below = level.back();
    std::vector<T> above((below.size() + B - 1) / B);
    for (size_t q = 0; q < above.size(); ++q) {
      above[q] = serialFold(op, below, q * B, std::min(below.size(), q * B + B));
    }
    level.push_back(above);
  } while (level.back().size() > 1);

  // carry[k][p]: X_k(p). The top level has one node and the identity as carry.
  size_t top = level.size() - 1;
  std::vector<std::vector<T>> carry(level.size());
  carry[top] = {carryIn != nullptr ? *carryIn : identity<T>(op)};
  if (total != nullptr) *total = level[top][0];
  for (size_t k = top; k-- > 1;) {
    carry[k].resize(level[k].size());
    for (size_t p = 0; p < level[k].size(); ++p) {
      carry[k][p] = combine(op, carry[k + 1][p / B], serialFold(op, level[k], p / B * B, p));
    }
  }
  std::vector<T> out(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    size_t end = exclusive ? i : i + 1;
    out[i] = combine(op, carry[1][i / B], serialFold(op, x, i / B * B, end));
  }
  // DML's exclusive sum starts with +0.0; the other operations with their identity.
  // With a carry-in, out[0] is the carry (the identity combined with it).
  if (exclusive && !out.empty() && carryIn == nullptr) {
    out[0] = op == ScanOperation::Sum ? T(0) : identity<T>(op);
  }
  return out;
}

// PyTorch's cummax/cummin indices of a line (traversal order), as its CPU
// kernel finds them: the running value moves to x where x is a NaN, or
// where the value is no NaN and x >= it (maximum; <= for minimum), and the
// index along the axis with it.
template <typename T>
std::vector<int64_t> torchIndices(ScanOperation op, const std::vector<T>& line, bool reverse) {
  std::vector<int64_t> indices(line.size());
  T best = line.empty() ? T(0) : line[0];
  int64_t at = 0;
  for (size_t k = 0; k < line.size(); ++k) {
    T x = line[k];
    bool moves = k == 0 || isNan(x) ||
                 (!isNan(best) && (op == ScanOperation::Maximum ? x >= best : x <= best));
    if (moves) {
      best = x;
      at = static_cast<int64_t>(reverse ? line.size() - 1 - k : k);
    }
    indices[k] = at;
  }
  return indices;
}

template <typename Stored, typename Acc>
void scanTensor(const ScanDesc& desc, const std::vector<uint8_t>& input,
                std::vector<uint8_t>& output, Acc (*load)(Stored), Stored (*store)(Acc),
                std::vector<uint8_t>* indices, const std::vector<uint8_t>* carryIn,
                std::vector<uint8_t>* totals) {
  const std::vector<uint32_t>& sizes = desc.input.sizes;
  size_t rank = sizes.size();
  auto stridesOf = [&](const TensorDesc& t) {
    std::vector<uint64_t> s(rank);
    uint64_t packed = 1;
    for (size_t d = rank; d-- > 0;) {
      s[d] = t.strides.empty() ? packed : t.strides[d];
      packed *= sizes[d];
    }
    return s;
  };
  std::vector<uint64_t> inStrides = stridesOf(desc.input);
  std::vector<uint64_t> outStrides = stridesOf(desc.output);
  // carryIn and totals: one value a line (sizes[axis] is 1 there).
  auto lineStridesOf = [&](const TensorDesc& t) {
    std::vector<uint64_t> s(rank);
    uint64_t packed = 1;
    for (size_t d = rank; d-- > 0;) {
      s[d] = t.strides.empty() ? packed : t.strides[d];
      packed *= d == desc.axis ? 1 : sizes[d];
    }
    return s;
  };
  std::vector<uint64_t> carryStrides = lineStridesOf(desc.carryIn);
  std::vector<uint64_t> totalsStrides = lineStridesOf(desc.totals);
  if (desc.input.elementCount() == 0) return;
  uint32_t n = sizes[desc.axis];
  bool reverse = desc.axisDirection == AxisDirection::Decreasing;

  std::vector<uint32_t> index(rank, 0);
  while (true) {
    uint64_t inBase = 0;
    uint64_t outBase = 0;
    uint64_t carryAt = 0;
    uint64_t totalAt = 0;
    for (size_t d = 0; d < rank; ++d) {
      inBase += index[d] * inStrides[d];
      outBase += index[d] * outStrides[d];
      carryAt += index[d] * carryStrides[d];
      totalAt += index[d] * totalsStrides[d];
    }
    Acc carry{};
    if (carryIn != nullptr) std::memcpy(&carry, &(*carryIn)[carryAt * sizeof(Acc)], sizeof(Acc));
    Acc total{};
    std::vector<Acc> line(n);
    for (uint32_t k = 0; k < n; ++k) {
      uint64_t i = reverse ? n - 1 - k : k;
      Stored value;
      std::memcpy(&value, &input[(inBase + i * inStrides[desc.axis]) * sizeof(Stored)],
                  sizeof(Stored));
      line[k] = load(value);
    }
    std::vector<Acc> scanned = canonicalScan(desc.operation, line, desc.exclusive,
                                             carryIn != nullptr ? &carry : nullptr, &total);
    if (totals != nullptr) std::memcpy(&(*totals)[totalAt * sizeof(Acc)], &total, sizeof(Acc));
    if (indices != nullptr) {
      // Indices share the output's element strides.
      std::vector<int64_t> found = torchIndices(desc.operation, line, reverse);
      for (uint32_t k = 0; k < n; ++k) {
        uint64_t i = reverse ? n - 1 - k : k;
        std::memcpy(&(*indices)[(outBase + i * outStrides[desc.axis]) * 8], &found[k], 8);
      }
    }
    for (uint32_t k = 0; k < n; ++k) {
      uint64_t i = reverse ? n - 1 - k : k;
      Stored value = store(scanned[k]);
      std::memcpy(&output[(outBase + i * outStrides[desc.axis]) * sizeof(Stored)], &value,
                  sizeof(Stored));
    }
    // Next line: odometer over every dimension except the axis.
    size_t d = rank;
    while (d-- > 0) {
      if (d == desc.axis) continue;
      if (++index[d] < sizes[d]) break;
      index[d] = 0;
    }
    if (d == SIZE_MAX) break;
  }
}

template <typename T>
T same(T value) {
  return value;
}

}  // namespace

float halfToFloat(uint16_t half) {
  uint32_t sign = (half >> 15) & 1u;
  uint32_t exponent = (half >> 10) & 0x1fu;
  uint32_t mantissa = half & 0x3ffu;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    magnitude = mantissa ? NAN : INFINITY;
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400u), static_cast<int>(exponent) - 25);
  }
  return sign ? -magnitude : magnitude;
}

uint16_t floatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  uint32_t exponent = (bits >> 23) & 0xffu;
  uint32_t mantissa = bits & 0x7fffffu;
  if (exponent == 255) return sign | 0x7c00u | (mantissa ? 0x200u : 0u);
  int e = static_cast<int>(exponent) - 127 + 15;
  if (e >= 31) return sign | 0x7c00u;
  if (e <= 0) {
    if (e < -10) return sign;
    mantissa |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t half = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1u);
    uint32_t midpoint = 1u << (shift - 1);
    if (rest > midpoint || (rest == midpoint && (half & 1u))) ++half;
    return sign | static_cast<uint16_t>(half);
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;  // may carry into inf: correct
  return sign | static_cast<uint16_t>(half);
}

float bfloat16ToFloat(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, 4);
  return value;
}

uint16_t floatToBfloat16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return sign | 0x7fc0u;
  uint32_t kept = bits >> 16;
  uint32_t rest = bits & 0xffffu;
  if (rest > 0x8000u || (rest == 0x8000u && (kept & 1u))) ++kept;  // may carry into inf: correct
  return static_cast<uint16_t>(kept);
}

void referenceCumsum(const CumulativeSummationDesc& desc, const std::vector<uint8_t>& input,
                     std::vector<uint8_t>& output) {
  referenceScan(scanDesc(desc), input, output);
}

std::vector<uint8_t> widenElements(DataType from, DataType to, const std::vector<uint8_t>& input) {
  size_t fromSize = dataTypeSize(from);
  size_t toSize = dataTypeSize(to);
  size_t count = input.size() / fromSize;
  std::vector<uint8_t> wide(count * toSize);
  for (size_t i = 0; i < count; ++i) {
    const uint8_t* source = &input[i * fromSize];
    uint8_t* target = &wide[i * toSize];
    uint16_t half = 0;
    uint32_t word = 0;
    std::memcpy(from == DataType::Float16 || from == DataType::BFloat16 ? static_cast<void*>(&half)
                                                                        : static_cast<void*>(&word),
                source, fromSize);
    if (from == DataType::Float16) {
      // halfToFloat() makes every NaN NAN; widening keeps the payload.
      uint32_t bits = (half & 0x7C00u) == 0x7C00u
                          ? (static_cast<uint32_t>(half & 0x8000u) << 16) | 0x7F800000u |
                                (static_cast<uint32_t>(half & 0x3FFu) << 13)
                          : 0;
      float value = halfToFloat(half);
      if (bits != 0) std::memcpy(&value, &bits, 4);
      std::memcpy(target, &value, 4);
    } else if (from == DataType::BFloat16) {
      float value = bfloat16ToFloat(half);
      std::memcpy(target, &value, 4);
    } else if (from == DataType::Float32) {
      float value;
      std::memcpy(&value, &word, 4);
      double wider = value;
      std::memcpy(target, &wider, 8);
    } else {
      uint64_t wider = from == DataType::Int32
                           ? static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(word)))
                           : uint64_t{word};
      std::memcpy(target, &wider, 8);
    }
  }
  return wide;
}

void referenceScan(const ScanDesc& desc, const std::vector<uint8_t>& input,
                   std::vector<uint8_t>& output) {
  referenceScan(desc, input, output, nullptr);
}

void referenceScan(const ScanDesc& desc, const std::vector<uint8_t>& input,
                   std::vector<uint8_t>& output, std::vector<uint8_t>* indices) {
  referenceScan(desc, input, output, indices, nullptr, nullptr);
}

void referenceScan(const ScanDesc& desc, const std::vector<uint8_t>& input,
                   std::vector<uint8_t>& output, std::vector<uint8_t>* indices,
                   const std::vector<uint8_t>* carryIn, std::vector<uint8_t>* totals) {
  if (desc.input.dataType != desc.output.dataType) {
    // A wider output: the input converted exactly, then scanned as the
    // output's type.
    ScanDesc widened = desc;
    widened.input.dataType = desc.output.dataType;
    referenceScan(widened, widenElements(desc.input.dataType, desc.output.dataType, input), output,
                  indices, carryIn, totals);
    return;
  }
  switch (desc.input.dataType) {
    case DataType::Float32:
      return scanTensor<float, float>(desc, input, output, same, same, indices, carryIn, totals);
    case DataType::Float16:
      return scanTensor<uint16_t, float>(desc, input, output, halfToFloat, floatToHalf, indices,
                                         carryIn, totals);
    case DataType::BFloat16:
      return scanTensor<uint16_t, float>(desc, input, output, bfloat16ToFloat, floatToBfloat16,
                                         indices, carryIn, totals);
    case DataType::Float64:
      return scanTensor<double, double>(desc, input, output, same, same, indices, carryIn, totals);
    case DataType::Int32:
      return scanTensor<int32_t, int32_t>(desc, input, output, same, same, indices, carryIn,
                                          totals);
    case DataType::UInt32:
      return scanTensor<uint32_t, uint32_t>(desc, input, output, same, same, indices, carryIn,
                                            totals);
    case DataType::Int64:
      return scanTensor<int64_t, int64_t>(desc, input, output, same, same, indices, carryIn,
                                          totals);
    case DataType::UInt64:
      return scanTensor<uint64_t, uint64_t>(desc, input, output, same, same, indices, carryIn,
                                            totals);
  }
}

}  // namespace vkscan::test
