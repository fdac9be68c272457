#include "cases.hpp"

namespace vkscan::bench {

uint64_t Case::elementCount() const {
  uint64_t count = 1;
  for (uint32_t size : sizes) count *= size;
  return count;
}

uint64_t Case::bytes() const {
  return elementCount() * dataTypeSize(type);
}

uint64_t Case::outer() const {
  uint64_t count = 1;
  for (uint32_t d = 0; d < axis; ++d) count *= sizes[d];
  return count;
}

uint64_t Case::inner() const {
  uint64_t count = 1;
  for (size_t d = axis + 1; d < sizes.size(); ++d) count *= sizes[d];
  return count;
}

std::string Case::shapeText() const {
  std::string text;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (d > 0) text += "x";
    text += std::to_string(sizes[d]);
  }
  return text;
}

std::string Case::flagsText() const {
  std::string text = exclusive ? "exclusive" : "inclusive";
  if (decreasing) text += "+decreasing";
  if (inPlace) text += "+inplace";
  if (carried) text += "+carried";
  return text;
}

std::string Case::typeText() const {
  switch (type) {
    case DataType::Float32:
      return "f32";
    case DataType::Float16:
      return "f16";
    case DataType::Int32:
      return "i32";
    case DataType::UInt32:
      return "u32";
    case DataType::Int64:
      return "i64";
    case DataType::UInt64:
      return "u64";
    case DataType::Float64:
      return "f64";
    case DataType::BFloat16:
      return "bf16";
  }
  return "?";
}

std::string Case::planArguments() const {
  std::string text =
      shapeText() + " --axis " + std::to_string(axis) + " --dtype " + dataTypeName(type);
  if (operation != ScanOperation::Sum)
    text += std::string(" --operation ") + scanOperationName(operation);
  if (exclusive) text += " --exclusive";
  if (decreasing) text += " --reverse";
  if (carried) text += " --carry-in --totals";
  return text;
}

ScanDesc Case::desc() const {
  ScanDesc desc;
  desc.operation = operation;
  desc.input.dataType = type;
  desc.input.sizes = sizes;
  desc.output = desc.input;
  desc.axis = axis;
  desc.axisDirection = decreasing ? AxisDirection::Decreasing : AxisDirection::Increasing;
  desc.exclusive = exclusive;
  if (carried) {
    TensorDesc lines{carryType(type), sizes, {}};
    lines.sizes[axis] = 1;
    desc.carryIn = lines;
    desc.totals = lines;
  }
  return desc;
}

namespace {

Case withOperation(Case c, ScanOperation operation) {
  c.operation = operation;
  return c;
}

Case carried(Case c) {
  c.carried = true;
  return c;
}

}  // namespace

std::vector<Case> caseMatrix(bool quick) {
  using T = DataType;
  // Full sizes and their --quick stand-ins (same structure, about 1/64 the bytes).
  const uint32_t k16 = 1u << 16, m1 = 1u << 20, m16 = 1u << 24;
  const uint32_t n4k = quick ? 512 : 4096;
  std::vector<Case> cases = {
      {"1d_64k", T::Float32, {quick ? 1u << 12 : k16}, 0},
      {"1d_1m", T::Float32, {quick ? 1u << 16 : m1}, 0},
      {"1d_16m", T::Float32, {quick ? 1u << 18 : m16}, 0},
      {"1d_16m_u64", T::UInt64, {quick ? 1u << 18 : m16}, 0},
      {"1d_16m_f16", T::Float16, {quick ? 1u << 18 : m16}, 0},
      {"square_axis1", T::Float32, {n4k, n4k}, 1},
      {"square_axis0", T::Float32, {n4k, n4k}, 0},
      {"short_rows", T::Float32, {quick ? 1u << 14 : m1, 16}, 1},
      {"long_rows", T::Float32, {16, quick ? 1u << 14 : m1}, 1},
      {"long_strided", T::Float32, {quick ? 4u : 64u, k16, 4}, 1},
      {"wide_inner", T::Float32, {quick ? 1u << 8 : 1u << 14, 8, 128}, 1},
      {"square_excl_dec", T::Float32, {n4k, n4k}, 1, true, true},
      {"inplace_16m", T::Float32, {quick ? 1u << 18 : m16}, 0, false, false, true},
      {"latency", T::Float32, {1, 1, 3, 4}, 3, false, false, false, true},
      // Beyond the matrix: shapes next to it that used to fall off a
      // cliff (rows just over 4096, lines misaligned for vectors, columns of
      // other types, an inner extent that interleaves no vector, fewer than
      // 256 lines or groups of interleaved lines, lines far shorter than a node,
      // a few lines of 13 tiles, on vectors or not, 31 lines of two tiles off
      // vectors, and one line off vectors because it is walked from its end).
      {"rows_4100", T::Float32, {n4k, 4100}, 1},
      {"rows_misaligned", T::Float32, {n4k, 4097}, 1},
      {"columns_odd", T::Float32, {n4k, n4k - 1}, 0},
      {"columns_odd_f16", T::Float16, {n4k, n4k - 1}, 0},
      {"columns_4100", T::Float32, {n4k, 4100}, 0},
      {"columns_u64", T::UInt64, {n4k, n4k}, 0},
      {"columns_f16", T::Float16, {n4k, n4k}, 0},
      {"columns_1024", T::Float32, {n4k, quick ? 128u : 1024u}, 0},
      {"columns_512", T::Float32, {quick ? n4k : 1u << 16, 512u}, 0},
      {"columns_256", T::Float32, {2 * n4k, 256u}, 0},
      {"rows_64x50257", T::Float32, {64, quick ? 1025u : 50257u}, 1},
      {"rows_8x50256", T::Float32, {quick ? 2u : 8u, 50256u}, 1},
      {"rows_8x50257", T::Float32, {quick ? 2u : 8u, 50257u}, 1},
      {"rows_12x50257", T::Float32, {quick ? 3u : 12u, 50257u}, 1},
      {"rows_of_3", T::Float32, {quick ? 1u << 16 : 1u << 22, 3}, 1},
      {"rows_31x4097", T::Float32, {quick ? 3u : 31u, 4097u}, 1},
      {"1d_50257_dec", T::Float32, {quick ? 4097u : 50257u}, 0, false, true},
  };
  // The scan family's other operations, on the kernels of the sums.
  cases.push_back(withOperation({"1d_16m_prod", T::Float32, {quick ? 1u << 18 : m16}, 0},
                                ScanOperation::Product));
  cases.push_back(withOperation({"1d_16m_max", T::Float32, {quick ? 1u << 18 : m16}, 0},
                                ScanOperation::Maximum));
  return cases;
}

std::vector<Case> gpuMatrix(bool quick) {
  using T = DataType;
  // Quick: the same kinds of shape at 1/256 the elements or less, within
  // lavapipe's 128 MiB storage-buffer range and a few seconds each.
  auto pick = [quick](uint32_t full, uint32_t small) { return quick ? small : full; };
  const uint32_t side = pick(16384, 1024);
  return {
      {"1d_1m", T::Float32, {pick(1u << 20, 1u << 16)}, 0},
      {"1d_16m", T::Float32, {pick(1u << 24, 1u << 18)}, 0},
      // In place: the look-back's publications wait for no check where it reduced nothing.
      {"1d_16m_inplace", T::Float32, {pick(1u << 24, 1u << 18)}, 0, false, false, true},
      {"1d_256m", T::Float32, {pick(1u << 28, 1u << 20)}, 0},
      {"1d_128m_u64", T::UInt64, {pick(1u << 27, 1u << 19)}, 0},
      {"1d_256m_f16", T::Float16, {pick(1u << 28, 1u << 20)}, 0},
      {"rows_16k", T::Float32, {side, side}, 1},
      // The look-back's cost level by level, 1 GiB each: lines of one tile (a workgroup each,
      // no look-back) and of 64 (two levels); rows_16k's lines take one level, 1d_256m four.
      {"rows_4096", T::Float32, {pick(1u << 16, 256), 4096}, 1},
      {"rows_262144", T::Float32, {pick(1024, 4), 262144}, 1},
      {"columns_16k", T::Float32, {side, side}, 0},
      // Columns off vectors: one pass, lanes built element by element.
      {"columns_16k_odd", T::Float32, {side, side - 1}, 0},
      // Few columns: one vector lane in the columns one pass, and three lines off vectors in
      // the rows one pass, staged along the axis.
      {"columns_x4", T::Float32, {pick(1u << 24, 1u << 16), 4}, 0},
      {"columns_x3", T::Float32, {pick(1u << 24, 1u << 16), 3}, 0},
      // Short columns, too few to walk whole: the columns one pass in one tile, 64 lanes a
      // workgroup (three chunk passes before).
      {"columns_64", T::Float32, {64, pick(1000000, 4000)}, 0},
      // A small strided problem (2 MiB moved): the columns one pass, 16 tiles a line, where two
      // invocations used to walk the lines whole, 4096 steps each.
      {"columns_small", T::Float32, {4096, 32}, 0},
      {"short_rows_16m", T::Float32, {pick(1u << 24, 1u << 16), 16}, 1},
      {"latency", T::Float32, {1, 1, 3, 4}, 3, false, false, false, true},
      // Rows short of their nodes (1000 in 63 nodes of 16): staged tiles with a ragged end.
      {"rows_1000", T::Float32, {pick(1u << 16, 1024), 1000}, 1},
      // Rows off vectors, staged element by element: a vocabulary's (one pass) and short ones.
      {"rows_50257", T::Float32, {pick(512, 16), 50257}, 1},
      {"rows_77", T::Float32, {pick(1u << 19, 1u << 12), 77}, 1},
      withOperation({"1d_256m_prod", T::Float32, {pick(1u << 28, 1u << 20)}, 0},
                    ScanOperation::Product),
      withOperation({"1d_256m_max", T::Float32, {pick(1u << 28, 1u << 20)}, 0},
                    ScanOperation::Maximum),
      // A chunk of a stream: each line continues from a carry-in and gives its total.
      carried({"1d_256m_carried", T::Float32, {pick(1u << 28, 1u << 20)}, 0}),
      carried({"rows_16k_carried", T::Float32, {side, side}, 1}),
  };
}

std::vector<Case> selectCases(const std::vector<Case>& matrix,
                              const std::vector<std::string>& names) {
  std::vector<Case> selected;
  for (const Case& c : matrix) {
    bool wanted = names.empty();
    for (const std::string& name : names) {
      bool whole = !name.empty() && name.back() == '$';
      wanted = wanted || (whole ? c.name == name.substr(0, name.size() - 1)
                                : c.name.find(name) != std::string::npos);
    }
    if (wanted) selected.push_back(c);
  }
  return selected;
}

}  // namespace vkscan::bench
