#include "host.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iterator>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "parallel_for.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace vkscan::bench {
namespace {

// How each benchmarked type is stored and accumulated (FP32 for float16).
struct F32 {
  using Stored = float;
  using Acc = float;
  static constexpr bool kFloat = true;
  static Acc load(Stored s) { return s; }
  static Stored store(Acc a) { return a; }
};
struct F16 {
  using Stored = uint16_t;
  using Acc = float;
  static constexpr bool kFloat = true;
  static Acc load(Stored s) { return halfToFloat(s); }
  static Stored store(Acc a) { return floatToHalf(a); }
};
struct U64 {
  using Stored = uint64_t;
  using Acc = uint64_t;
  static constexpr bool kFloat = false;
  static Acc load(Stored s) { return s; }
  static Stored store(Acc a) { return a; }
};

template <typename F>
auto withTraits(DataType type, F&& f) {
  switch (type) {
    case DataType::Float32:
      return f(F32{});
    case DataType::Float16:
      return f(F16{});
    case DataType::UInt64:
      return f(U64{});
    default:
      break;
  }
  throw Error(std::string("vkscan-bench has no host code for ") + dataTypeName(type));
}

// Line l (outer-major, as the tensor's lines lie): element k in traversal
// order is at first + k * step.
struct Line {
  int64_t first;
  int64_t step;
};

Line lineAt(const Case& c, uint64_t l) {
  uint64_t n = c.axisLen();
  uint64_t inner = c.inner();
  uint64_t o = l / inner;
  uint64_t i = l % inner;
  uint64_t first = (o * n + (c.decreasing ? n - 1 : 0)) * inner + i;
  return {int64_t(first), c.decreasing ? -int64_t(inner) : int64_t(inner)};
}

uint64_t lineCount(const Case& c) {
  return c.outer() * c.inner();
}

// Calls f(first, step, n) for every line.
template <typename F>
void forEachLine(const Case& c, F&& f) {
  for (uint64_t l = 0; l < lineCount(c); ++l) {
    Line line = lineAt(c, l);
    f(line.first, line.step, c.axisLen());
  }
}

template <typename A>
A identity(ScanOperation op) {
  constexpr bool kFloat = std::is_floating_point_v<A>;
  switch (op) {
    case ScanOperation::Product:
      return A(1);
    case ScanOperation::Maximum:
      return kFloat ? -std::numeric_limits<A>::infinity() : std::numeric_limits<A>::lowest();
    case ScanOperation::Minimum:
      return kFloat ? std::numeric_limits<A>::infinity() : std::numeric_limits<A>::max();
    default:
      return kFloat ? -A(0) : A(0);  // the exact additive identity
  }
}

// One "+" of the canonical order; maximum and minimum give ties and NaNs to
// the later operand (include/vkscan/vkscan.hpp).
template <typename A>
A combine(ScanOperation op, A earlier, A later) {
  switch (op) {
    case ScanOperation::Product:
      return earlier * later;
    case ScanOperation::Maximum:
    case ScanOperation::Minimum: {
      bool ordered = op == ScanOperation::Maximum ? later >= earlier : later <= earlier;
      bool nan = false;
      if constexpr (std::is_floating_point_v<A>) nan = std::isnan(later) || std::isnan(earlier);
      if (nan) return std::isnan(double(later)) ? later : earlier;
      return ordered ? later : earlier;
    }
    default:
      return earlier + later;
  }
}

// The canonical order: a radix-16 tree of serial folds, built level by level,
// over one line of stored elements (Tr: their type and accumulator).
// `threads` split each level's groups, which fold independently.
template <typename Tr>
class CanonicalScan {
 public:
  using A = typename Tr::Acc;
  using Stored = typename Tr::Stored;

  void run(ScanOperation op, const Stored* in, Line at, size_t n, bool exclusive, Stored* out,
           unsigned threads) {
    constexpr size_t B = 16;
    const A id = identity<A>(op);
    if (n == 0) return;
    auto x = [&](size_t i) { return Tr::load(in[at.first + int64_t(i) * at.step]); };
    auto put = [&](size_t i, A value) { out[at.first + int64_t(i) * at.step] = Tr::store(value); };
    size_t top = 0;
    size_t count = n;
    do {
      ++top;
      if (levels_.size() <= top) {
        levels_.resize(top + 1);
        carries_.resize(top + 1);
      }
      std::vector<A>& above = levels_[top];
      const std::vector<A>& below = levels_[top - 1];
      above.resize((count + B - 1) / B);
      parallelFor(above.size(), threadsFor(count, threads), [&](uint64_t begin, uint64_t end) {
        for (size_t q = begin; q < end; ++q) {
          A s = id;
          for (size_t j = q * B; j < std::min(count, q * B + B); ++j) {
            s = combine(op, s, top == 1 ? x(j) : below[j]);
          }
          above[q] = s;
        }
      });
      count = above.size();
    } while (count > 1);

    carries_[top].assign(1, id);
    for (size_t k = top - 1; k >= 1; --k) {
      const std::vector<A>& level = levels_[k];
      const std::vector<A>& parents = carries_[k + 1];
      std::vector<A>& carry = carries_[k];
      carry.resize(level.size());
      const size_t groups = (level.size() + B - 1) / B;
      parallelFor(groups, threadsFor(level.size(), threads), [&](uint64_t begin, uint64_t end) {
        for (size_t g = begin; g < end; ++g) {
          A partial = id;
          for (size_t p = g * B; p < std::min(level.size(), g * B + B); ++p) {
            carry[p] = combine(op, parents[g], partial);
            partial = combine(op, partial, level[p]);
          }
        }
      });
    }
    const std::vector<A>& carry = carries_[1];
    parallelFor((n + B - 1) / B, threadsFor(n, threads), [&](uint64_t begin, uint64_t end) {
      for (size_t g = begin; g < end; ++g) {
        A partial = id;
        for (size_t i = g * B; i < std::min(n, g * B + B); ++i) {
          const A xi = x(i);
          if (exclusive) {
            put(i, combine(op, carry[g], partial));
            partial = combine(op, partial, xi);
          } else {
            partial = combine(op, partial, xi);
            put(i, combine(op, carry[g], partial));
          }
        }
      }
    });
    if (exclusive) put(0, op == ScanOperation::Sum ? A(0) : id);
  }

 private:
  std::vector<std::vector<A>> levels_;   // levels_[k]: level-k values, k >= 1 (0: unused)
  std::vector<std::vector<A>> carries_;  // carries_[k][p]: X_k(p)
};

// Where serial float sums may land: the number of outputs outside
// terms * 2^-24 * sum|x| of the exact (double) sum, and the first of them.
struct BoundReport {
  uint64_t outside = 0;
  uint64_t firstIndex = 0;
  double firstGot = 0;
  double firstWant = 0;
};

template <typename Tr>
BoundReport checkBound(const Case& c, const typename Tr::Stored* in,
                       const typename Tr::Stored* actual, double terms) {
  BoundReport report;
  const double unit = std::ldexp(1.0, -24);
  const double storeUlp = std::is_same_v<Tr, F16> ? std::ldexp(1.0, -10) : 0.0;
  forEachLine(c, [&](int64_t first, int64_t step, uint64_t n) {
    double exact = 0;
    double magnitude = 0;
    for (uint64_t k = 0; k < n; ++k) {
      int64_t index = first + int64_t(k) * step;
      double x = double(Tr::load(in[index]));
      if (!c.exclusive) {
        exact += x;
        magnitude += std::fabs(x);
      }
      double got = double(Tr::load(actual[index]));
      double bound = terms * unit * magnitude + storeUlp * std::fabs(exact);
      if (!(std::fabs(got - exact) <= bound)) {
        if (report.outside++ == 0) {
          report.firstIndex = uint64_t(index);
          report.firstGot = got;
          report.firstWant = exact;
        }
      }
      if (c.exclusive) {
        exact += x;
        magnitude += std::fabs(x);
      }
    }
  });
  return report;
}

std::string describe(double value) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.9g", value);
  return text;
}

template <typename T>
struct Strided {
  using iterator_category = std::forward_iterator_tag;
  using value_type = std::remove_const_t<T>;
  using difference_type = std::ptrdiff_t;
  using pointer = T*;
  using reference = T&;
  T* base;
  std::ptrdiff_t offset;
  std::ptrdiff_t step;
  reference operator*() const { return base[offset]; }
  Strided& operator++() {
    offset += step;
    return *this;
  }
  Strided operator++(int) {
    Strided old = *this;
    offset += step;
    return old;
  }
  bool operator==(const Strided& other) const { return offset == other.offset; }
  bool operator!=(const Strided& other) const { return offset != other.offset; }
};

// Writes FP32 sums as float16, rounding once.
struct HalfOut {
  using iterator_category = std::output_iterator_tag;
  using value_type = void;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = void;
  uint16_t* base;
  std::ptrdiff_t offset;
  std::ptrdiff_t step;
  HalfOut& operator*() { return *this; }
  HalfOut& operator=(float value) {
    base[offset] = floatToHalf(value);
    return *this;
  }
  HalfOut& operator++() {
    offset += step;
    return *this;
  }
  HalfOut operator++(int) {
    HalfOut old = *this;
    offset += step;
    return old;
  }
};

#if defined(__x86_64__) || defined(__i386__)
bool hasF16c() {
  static const bool has = __builtin_cpu_supports("f16c");
  return has;
}

// float16 on the CPU the way a tuned host would do it: F16C conversions
// (C++17 has no half type for std::inclusive_scan to add).
__attribute__((target("f16c"))) void scanHalfLineF16c(const uint16_t* in, int64_t first,
                                                      int64_t step, uint64_t n, bool exclusive,
                                                      uint16_t* out) {
  float sum = 0.0f;
  int64_t index = first;
  for (uint64_t k = 0; k < n; ++k, index += step) {
    float x = _cvtsh_ss(in[index]);
    if (exclusive) {
      out[index] = _cvtss_sh(sum, _MM_FROUND_TO_NEAREST_INT);
      sum += x;
    } else {
      sum += x;
      out[index] = _cvtss_sh(sum, _MM_FROUND_TO_NEAREST_INT);
    }
  }
}
#else
bool hasF16c() {
  return false;
}
void scanHalfLineF16c(const uint16_t*, int64_t, int64_t, uint64_t, bool, uint16_t*) {}
#endif

constexpr uint64_t kGolden = 0x9e3779b97f4a7c15ull;

uint64_t splitmix(uint64_t& state) {
  uint64_t z = (state += kGolden);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

float halfToFloat(uint16_t half) {
  static const std::array<float, 65536> table = [] {
    std::array<float, 65536> t{};
    for (uint32_t h = 0; h < 65536; ++h) {
      uint32_t sign = (h & 0x8000u) << 16;
      uint32_t exponent = (h >> 10) & 0x1fu;
      uint32_t mantissa = h & 0x3ffu;
      uint32_t bits;
      if (exponent == 0 && mantissa == 0) {
        bits = sign;
      } else if (exponent == 0) {  // subnormal: normalise
        uint32_t shift = 0;
        while ((mantissa & 0x400u) == 0) {
          mantissa <<= 1;
          ++shift;
        }
        bits = sign | ((113u - shift) << 23) | ((mantissa & 0x3ffu) << 13);
      } else if (exponent == 31) {
        bits = sign | 0x7f800000u | (mantissa << 13);
      } else {
        bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
      }
      std::memcpy(&t[h], &bits, sizeof(bits));
    }
    return t;
  }();
  return table[half];
}

uint16_t floatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  uint32_t sign = (bits >> 16) & 0x8000u;
  uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude >= 0x7f800000u) {  // infinity or NaN
    return uint16_t(sign | (magnitude > 0x7f800000u ? 0x7e00u : 0x7c00u));
  }
  if (magnitude >= 0x477ff000u) return uint16_t(sign | 0x7c00u);  // >= 65520 rounds up
  if (magnitude < 0x38800000u) {  // below 2^-14: subnormal or zero, units of 2^-24
    float scaled;
    std::memcpy(&scaled, &magnitude, sizeof(scaled));
    return uint16_t(sign | uint32_t(std::nearbyint(scaled * 16777216.0f)));
  }
  uint32_t half = (((magnitude >> 23) - 112u) << 10) | ((magnitude >> 13) & 0x3ffu);
  uint32_t rest = magnitude & 0x1fffu;
  // Branch-free: the rounding direction of random data would defeat the
  // predictor. A carry may ripple into the exponent, which is correct.
  half += uint32_t(rest > 0x1000u) | (uint32_t(rest == 0x1000u) & half & 1u);
  return uint16_t(sign | half);
}

void fillInput(const Case& c, void* data, uint64_t seed, unsigned threads) {
  const uint64_t count = c.elementCount();
  // Element i's bits: splitmix's (i + 1)-th output from `seed`, so that any
  // range can start anywhere.
  auto randomAt = [seed](uint64_t i) {
    uint64_t state = seed + i * kGolden;
    return splitmix(state);
  };
  switch (c.type) {
    case DataType::Float32: {
      float* out = static_cast<float*>(data);
      // Products: factors f in [1 - 2^-9, 1 + 2^-9), each followed by 1/f,
      // so that 2^28 of them stay finite and normal. Random factors alone
      // drift by -E[u^2]/2 per step in the logarithm: on an H200, 2^28 of
      // them went below 2^-126 and a flushing device returned 0.
      const bool product = c.operation == ScanOperation::Product;
      auto random = [&](uint64_t i) { return int32_t(randomAt(i) >> 40) - (1 << 23); };
      parallelFor(count, threadsFor(count, threads), [&](uint64_t begin, uint64_t end) {
        for (uint64_t i = begin; i < end; ++i) {
          if (product) {
            const uint64_t first = i - i % 2;  // of the pair
            const float factor = 1.0f + std::ldexp(float(random(first)), -32);
            out[i] = i == first ? factor : 1.0f / factor;
          } else {
            out[i] = std::ldexp(float(random(i)), -23);
          }
        }
      });
      break;
    }
    case DataType::Float16: {
      uint16_t* out = static_cast<uint16_t*>(data);
      parallelFor(count, threadsFor(count, threads), [&](uint64_t begin, uint64_t end) {
        for (uint64_t i = begin; i < end; ++i) {
          int32_t r = int32_t(randomAt(i) >> 53) - (1 << 10);
          out[i] = floatToHalf(std::ldexp(float(r), -10));
        }
      });
      break;
    }
    case DataType::UInt64: {
      uint64_t* out = static_cast<uint64_t*>(data);
      parallelFor(count, threadsFor(count, threads), [&](uint64_t begin, uint64_t end) {
        for (uint64_t i = begin; i < end; ++i) out[i] = randomAt(i);
      });
      break;
    }
    default:
      throw Error(std::string("vkscan-bench has no input for ") + dataTypeName(c.type));
  }
}

void referenceScan(const Case& c, const void* input, void* output, unsigned threads) {
  withTraits(c.type, [&](auto traits) {
    using Tr = decltype(traits);
    const auto* in = static_cast<const typename Tr::Stored*>(input);
    auto* out = static_cast<typename Tr::Stored*>(output);
    const uint64_t n = c.axisLen();
    const uint64_t lines = lineCount(c);
    // Lines [begin, end), each scanned on `inside` threads.
    auto scanLines = [&](uint64_t begin, uint64_t end, unsigned inside) {
      CanonicalScan<Tr> scan;
      for (uint64_t l = begin; l < end; ++l) {
        scan.run(c.operation, in, lineAt(c, l), n, c.exclusive, out, inside);
      }
    };
    // Lines enough for every thread: a line each; else the threads share each line.
    if (lines >= threads) {
      parallelFor(lines, threadsFor(lines * n, threads),
                  [&](uint64_t begin, uint64_t end) { scanLines(begin, end, 1); });
    } else {
      scanLines(0, lines, threads);
    }
  });
}

Check checkExact(const Case& c, const void* input, const void* expected, const void* actual) {
  return withTraits(c.type, [&](auto traits) {
    using Tr = decltype(traits);
    using Stored = typename Tr::Stored;
    const auto* want = static_cast<const Stored*>(expected);
    const auto* got = static_cast<const Stored*>(actual);
    uint64_t count = c.elementCount();
    uint64_t differ = 0;
    uint64_t first = 0;
    for (uint64_t i = 0; i < count; ++i) {
      if (std::memcmp(&want[i], &got[i], sizeof(Stored)) != 0 && differ++ == 0) first = i;
    }
    Check check;
    if (differ == 0) return check;
    check.ok = false;
    check.message = std::to_string(differ) + " of " + std::to_string(count) +
                    " elements differ from the canonical-order reference; first at element " +
                    std::to_string(first) + ": got " + describe(double(Tr::load(got[first]))) +
                    ", expected " + describe(double(Tr::load(want[first])));
    if (c.operation != ScanOperation::Sum) return check;  // the bound is for sums
    if constexpr (Tr::kFloat) {
      double levels = std::ceil(std::log(double(c.axisLen())) / std::log(16.0));
      BoundReport bound = checkBound<Tr>(c, static_cast<const Stored*>(input), got,
                                         15.0 * std::max(levels, 1.0) + 3.0);
      check.message += bound.outside == 0
                           ? " (all within the accuracy bound: a different summation order)"
                           : " (" + std::to_string(bound.outside) +
                                 " outside the accuracy bound: a wrong answer)";
    }
    return check;
  });
}

Check checkSerial(const Case& c, const void* input, const void* expected, const void* actual) {
  return withTraits(c.type, [&](auto traits) {
    using Tr = decltype(traits);
    using Stored = typename Tr::Stored;
    Check check;
    if constexpr (Tr::kFloat) {
      BoundReport bound =
          checkBound<Tr>(c, static_cast<const Stored*>(input), static_cast<const Stored*>(actual),
                         double(c.axisLen()) + 2.0);
      if (bound.outside != 0) {
        check.ok = false;
        check.message = std::to_string(bound.outside) +
                        " elements outside the serial-sum error bound; first at element " +
                        std::to_string(bound.firstIndex) + ": got " + describe(bound.firstGot) +
                        ", exact " + describe(bound.firstWant);
      }
    } else {
      Check exact = checkExact(c, input, expected, actual);
      check = exact;
    }
    return check;
  });
}

void cpuScan(const Case& c, const void* input, void* output) {
  withTraits(c.type, [&](auto traits) {
    using Tr = decltype(traits);
    using Stored = typename Tr::Stored;
    using Acc = typename Tr::Acc;
    const auto* in = static_cast<const Stored*>(input);
    auto* out = static_cast<Stored*>(output);
    auto load = [](Stored value) { return Tr::load(value); };
    forEachLine(c, [&](int64_t first, int64_t step, uint64_t n) {
      Strided<const Stored> begin{in, first, step};
      Strided<const Stored> end{in, first + int64_t(n) * step, step};
      if constexpr (std::is_same_v<Stored, Acc>) {
        Strided<Stored> to{out, first, step};
        if (c.exclusive) {
          std::exclusive_scan(begin, end, to, Acc(0));
        } else {
          std::inclusive_scan(begin, end, to);
        }
      } else if (hasF16c()) {
        scanHalfLineF16c(reinterpret_cast<const uint16_t*>(in), first, step, n, c.exclusive,
                         reinterpret_cast<uint16_t*>(out));
      } else {
        HalfOut to{out, first, step};
        if (c.exclusive) {
          std::transform_exclusive_scan(begin, end, to, Acc(0), std::plus<Acc>(), load);
        } else {
          std::transform_inclusive_scan(begin, end, to, std::plus<Acc>(), load);
        }
      }
    });
  });
}

}  // namespace vkscan::bench
