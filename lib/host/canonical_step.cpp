#include "host/canonical_step.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

// Built with -ffp-contract=off (lib/CMakeLists.txt): every operation rounds
// as the kernels' `precise` ones do, none fused into an FMA.
namespace vkscan::detail {
namespace {

template <typename To, typename From>
To bitsAs(From from) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

// Log-sum-exp's constants and bit tricks, as kernels/common.glsl has them.
template <typename T>
struct LogSumExp;

template <>
struct LogSumExp<float> {
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
    return static_cast<int32_t>(bitsAs<uint32_t>(big) - 0x4B400000u);
  }
  static float pow2(int32_t k) { return bitsAs<float>(static_cast<uint32_t>(k + 127) << 23); }
  static float nan() { return bitsAs<float>(uint32_t{0x7FC00000u}); }
};

template <>
struct LogSumExp<double> {
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
    return static_cast<int32_t>(static_cast<uint32_t>(bitsAs<uint64_t>(big)));
  }
  static double pow2(int32_t k) { return bitsAs<double>(static_cast<uint64_t>(k + 1023) << 52); }
  static double nan() { return bitsAs<double>(uint64_t{0x7FF8000000000000u}); }
};

// kernels/common.glsl's logSumExp(), which documents the method.
template <typename T>
T logSumExp(T a, T b) {
  using C = LogSumExp<T>;
  const T inf = std::numeric_limits<T>::infinity();
  const bool aFirst = a >= b;
  const T m = aFirst ? a : b;
  const T o = aFirst ? b : a;
  const T d = m - o;
  const T bb = d - m;
  const T aa = d - bb;
  const T dd = (m - aa) + (-o - bb);
  const bool far = !(d <= C::kCutoff);
  const bool zero = far || d < C::kTiny;
  const T x = zero ? T(0) : -d;
  const T dx = zero ? T(0) : dd;
  const T big = x * C::kLog2e + C::kRound;
  const T kf = big - C::kRound;
  const T r = (x - kf * C::kExpHi) - (kf * C::kExpLo + dx);
  T poly = C::kP[0];
  for (size_t i = 1; i < std::size(C::kP); ++i) poly = poly * r + C::kP[i];
  const T e = (T(1) + (r + r * (r * poly))) * C::pow2(C::roundedBits(big));
  const T ee = e < C::kTiny ? T(0) : e;
  T poly2 = C::kR[0];
  for (size_t i = 1; i < std::size(C::kR); ++i) poly2 = poly2 * ee + C::kR[i];
  const T l = e + ee * (ee * poly2);
  const T sum = m + l;
  T result = far ? m : sum;
  result = o == -inf || m == inf ? m : result;
  return std::isnan(a) || std::isnan(b) ? C::nan() : result;
}

template <typename T>
T identity(ScanOperation operation) {
  constexpr bool kFloat = std::is_floating_point_v<T>;
  switch (operation) {
    case ScanOperation::Product:
      return T(1);
    case ScanOperation::Maximum:
    case ScanOperation::LogSumExp:
      return kFloat ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
    case ScanOperation::Minimum:
      return kFloat ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
    case ScanOperation::Sum:
      break;
  }
  return kFloat ? -T(0) : T(0);
}

template <typename T>
T combine(ScanOperation operation, T earlier, T later) {
  if (operation == ScanOperation::Maximum || operation == ScanOperation::Minimum) {
    // The later operand wins ties; a NaN always wins.
    const bool ordered = operation == ScanOperation::Maximum ? later >= earlier : later <= earlier;
    if constexpr (std::is_floating_point_v<T>) {
      return std::isnan(later) || (!std::isnan(earlier) && ordered) ? later : earlier;
    } else {
      return ordered ? later : earlier;
    }
  }
  const bool product = operation == ScanOperation::Product;
  if constexpr (std::is_floating_point_v<T>) {
    if (operation == ScanOperation::LogSumExp) return logSumExp(earlier, later);
    return product ? earlier * later : earlier + later;
  } else {
    // Wrapping arithmetic: unsigned, at least as wide as unsigned int.
    using U = std::make_unsigned_t<T>;
    const U a = static_cast<U>(earlier);
    const U b = static_cast<U>(later);
    return static_cast<T>(static_cast<U>(product ? a * b : a + b));
  }
}

template <typename T>
void combineAs(ScanOperation operation, const void* earlier, const void* later, void* result) {
  T a, b;
  std::memcpy(&a, earlier, sizeof(T));
  std::memcpy(&b, later, sizeof(T));
  const T c = combine(operation, a, b);
  std::memcpy(result, &c, sizeof(T));
}

template <typename T>
void identityAs(ScanOperation operation, void* result) {
  const T value = identity<T>(operation);
  std::memcpy(result, &value, sizeof(T));
}

// Calls f.template operator()<T>() for the C++ type of `type`.
template <typename F>
void withType(DataType type, F&& f) {
  switch (type) {
    case DataType::Float64:
      f(double{});
      return;
    case DataType::Int32:
      f(int32_t{});
      return;
    case DataType::UInt32:
      f(uint32_t{});
      return;
    case DataType::Int64:
      f(int64_t{});
      return;
    case DataType::UInt64:
      f(uint64_t{});
      return;
    default:
      f(float{});
      return;
  }
}

}  // namespace

void combineCanonical(ScanOperation operation, DataType type, const void* earlier,
                      const void* later, void* result) {
  withType(type,
           [&](auto value) { combineAs<decltype(value)>(operation, earlier, later, result); });
}

void identityCanonical(ScanOperation operation, DataType type, void* result) {
  withType(type, [&](auto value) { identityAs<decltype(value)>(operation, result); });
}

}  // namespace vkscan::detail
