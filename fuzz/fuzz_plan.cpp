// libFuzzer target: descriptor validation and planning, without a device.
// Random ranks, sizes, strides, axes, types, directions and device limits go
// through detail::normalize() and detail::makePlan(); both may reject with
// InvalidArgument, anything else is a bug. Every plan is then checked
// against what the kernels assume (kernels/*.glsl): workgroup counts within
// the limits, 32-bit invocation indices that cannot wrap, every line and
// element covered, and every address a dispatch can touch inside its
// binding (input, output or scratch).
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "plan.hpp"
#include "problem.hpp"

using namespace vkscan;
using namespace vkscan::detail;

namespace {

[[noreturn]] void fail(const char* what, size_t dispatch) {
  std::fprintf(stderr, "fuzz_plan: invariant broken in dispatch %zu: %s\n", dispatch, what);
  std::abort();
}

#define EXPECT(condition) \
  if (!(condition)) fail(#condition, index)

uint32_t pickSize(FuzzedDataProvider& data) {
  switch (data.ConsumeIntegralInRange<int>(0, 7)) {
    case 0:
      return 0;
    case 1:
    case 2:
    case 3:
      return data.ConsumeIntegralInRange<uint32_t>(1, 20);
    case 4:
      return data.ConsumeIntegralInRange<uint32_t>(1, 5000);
    case 5: {  // around powers of 16 and 2
      uint32_t base = uint32_t{1} << data.ConsumeIntegralInRange<int>(0, 31);
      return base + data.ConsumeIntegralInRange<int>(-1, 1);
    }
    default:
      return data.ConsumeIntegral<uint32_t>();
  }
}

void pickStrides(FuzzedDataProvider& data, TensorDesc& tensor) {
  size_t rank = tensor.sizes.size();
  switch (data.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      return;  // packed
    case 1: {  // a permuted order with padding (C, Fortran, anything)
      std::vector<size_t> order(rank);
      for (size_t d = 0; d < rank; ++d) order[d] = d;
      for (size_t d = rank; d > 1; --d) {
        std::swap(order[d - 1], order[data.ConsumeIntegralInRange<size_t>(0, d - 1)]);
      }
      tensor.strides.assign(rank, 0);
      uint64_t stride = data.ConsumeIntegralInRange<uint32_t>(1, 4);
      for (size_t d : order) {
        tensor.strides[d] = static_cast<uint32_t>(std::min<uint64_t>(stride, UINT32_MAX));
        stride *=
            std::max<uint64_t>(1, tensor.sizes[d]) + data.ConsumeIntegralInRange<uint32_t>(0, 2);
      }
      return;
    }
    default:  // arbitrary, broadcast zeros included
      tensor.strides.clear();
      for (size_t d = 0; d < rank; ++d) {
        tensor.strides.push_back(data.ConsumeBool() ? data.ConsumeIntegralInRange<uint32_t>(0, 64)
                                                    : data.ConsumeIntegral<uint32_t>());
      }
      return;
  }
}

// Lowest and highest element offset (from the dispatch's base) that
// `lineSize`, the line strides and the axis can reach.
void extent(const ScanParams& p, bool input, int64_t lanes, int64_t& low, int64_t& high) {
  low = 0;
  high = lanes - 1;
  auto add = [&](int64_t count, int64_t stride) {
    int64_t reach = (count - 1) * stride;
    (reach < 0 ? low : high) += reach;
  };
  add(p.axisLen, input ? p.inAxisStride : p.outAxisStride);
  for (int i = 0; i < 3; ++i) add(p.lineSize[i], input ? p.inLineStride[i] : p.outLineStride[i]);
}

bool isChunk(Stage stage) {
  return stage != Stage::RowsReduce && stage != Stage::RowsScan;
}
bool isInterleaved(Stage stage) {
  return stage == Stage::ChunkReduceInterleaved || stage == Stage::ChunkScanInterleaved;
}
bool isReduce(Stage stage) {
  return stage == Stage::RowsReduce || stage == Stage::ChunkReduce ||
         stage == Stage::ChunkReduceInterleaved;
}
int64_t vectorElements(DataType type) {
  return dataTypeSize(type) == 8 ? 2 : 4;
}

void checkPlan(const CumulativeSummationDesc& desc, const Plan& plan, const PlanLimits& limits) {
  for (size_t index = 0; index < plan.dispatches.size(); ++index) {
    const Dispatch& d = plan.dispatches[index];
    const ScanParams& p = d.params;
    Stage stage = d.pipeline.stage;
    uint64_t wg = d.pipeline.workgroupSize;
    uint64_t groups = uint64_t{d.groupsX} * d.groupsY;
    uint64_t chunks = p.chunksPerLine;
    uint64_t lines = p.lineCount;
    int64_t size = static_cast<int64_t>(dataTypeSize(d.pipeline.type));
    int64_t accSize = static_cast<int64_t>(dataTypeSize(accumulationType(d.pipeline.type)));

    EXPECT(d.groupsX >= 1 && d.groupsX <= limits.maxWorkgroupCountX);
    EXPECT(d.groupsY >= 1 && d.groupsY <= limits.maxWorkgroupCountY);
    EXPECT(p.groupsX == d.groupsX);
    EXPECT(wg >= 1 && wg <= limits.maxWorkgroupInvocations);
    EXPECT(groups <= (uint64_t{1} << 32));  // flatWorkgroupIndex() is a uint
    EXPECT(lines >= 1 && chunks >= 1 && p.axisLen >= 1);
    EXPECT(uint64_t{p.lineSize[0]} * p.lineSize[1] * p.lineSize[2] == lines);

    int64_t lanes = 1;
    if (isChunk(stage)) {
      // gid = flatWorkgroupIndex() * wg + local id, and gid < lineCount * chunksPerLine,
      // both in 32 bits.
      EXPECT(groups * wg <= (uint64_t{1} << 32));
      EXPECT(lines * chunks < (uint64_t{1} << 32));
      EXPECT(groups * wg >= lines * chunks);
      EXPECT(p.shape >= 1 && p.shape <= 4);
      EXPECT(chunks << (4 * p.shape) >= p.axisLen);
      if (isInterleaved(stage)) {
        EXPECT(d.pipeline.laneVectors == 1 || d.pipeline.laneVectors == 4);
        lanes = vectorElements(d.pipeline.type) * d.pipeline.laneVectors;
      }
    } else {
      EXPECT(wg == 16 || wg == 256);
      EXPECT((uint64_t{1} << p.shape) <= wg);
      uint64_t linesPerGroup = wg >> p.shape;
      EXPECT(groups >= chunks);
      EXPECT(((groups - 1) / chunks + 1) * linesPerGroup >= lines);
      if (chunks == 1) {
        EXPECT((uint64_t{16} << p.shape) >= p.axisLen);
      } else {
        EXPECT((uint64_t{1} << p.shape) == wg);
        EXPECT(chunks * wg * 16 >= p.axisLen);
      }
    }

    // Every address inside its binding.
    auto checkRange = [&](BufferRole role, uint64_t byteOffset, bool input) {
      EXPECT(role != BufferRole::None);
      EXPECT(byteOffset % size == 0);
      int64_t low, high;
      extent(p, input, lanes, low, high);
      int64_t first = static_cast<int64_t>(byteOffset / size) + low;
      int64_t end = static_cast<int64_t>(byteOffset / size) + high + 1;
      uint64_t bound = role == BufferRole::Input    ? desc.input.totalBytes()
                       : role == BufferRole::Output ? desc.output.totalBytes()
                                                    : plan.scratchBytes;
      EXPECT(first >= 0);
      EXPECT(static_cast<uint64_t>(end * size) <= bound);
      if (role == BufferRole::Scratch) EXPECT(d.pipeline.type == accumulationType(d.pipeline.type));
    };
    checkRange(d.in, d.inByteOffset, true);
    EXPECT(d.in != BufferRole::Output);
    if (isReduce(stage)) {
      EXPECT(d.out == BufferRole::None);
      EXPECT(d.hasAux);
    } else {
      checkRange(d.out, d.outByteOffset, false);
      EXPECT(d.out != BufferRole::Input);
    }
    if (d.hasAux) {
      EXPECT(chunks > 1);
      EXPECT(d.auxByteOffset % 16 == 0);
      EXPECT(d.auxByteOffset + lines * chunks * lanes * accSize <= plan.scratchBytes);
    }

    // Vector accesses: aligned, given bindings aligned to 16 bytes.
    int64_t vector = vectorElements(d.pipeline.type);
    auto aligned = [&](uint64_t byteOffset, int64_t axisStride) {
      int64_t start = static_cast<int64_t>(byteOffset) / size;
      return axisStride > 0 ? start % vector == 0 : (start + 1) % vector == 0;
    };
    if (d.pipeline.vectorLoads) {
      EXPECT(!isInterleaved(stage));
      EXPECT(std::abs(p.inAxisStride) == 1);
      EXPECT(isReduce(stage) || p.outAxisStride == p.inAxisStride);
      for (int i = 0; i < 3; ++i) {
        EXPECT(p.lineSize[i] == 1 || p.inLineStride[i] % vector == 0);
        EXPECT(p.lineSize[i] == 1 || isReduce(stage) || p.outLineStride[i] % vector == 0);
      }
      EXPECT(aligned(d.inByteOffset, p.inAxisStride));
      EXPECT(isReduce(stage) || aligned(d.outByteOffset, p.outAxisStride));
    }
    if (isInterleaved(stage)) {
      EXPECT(p.inAxisStride % vector == 0);
      EXPECT(static_cast<int64_t>(d.inByteOffset / size) % vector == 0);
      for (int i = 0; i < 3; ++i) EXPECT(p.lineSize[i] == 1 || p.inLineStride[i] % vector == 0);
      if (!isReduce(stage)) {
        EXPECT(p.outAxisStride % vector == 0);
        EXPECT(static_cast<int64_t>(d.outByteOffset / size) % vector == 0);
        for (int i = 0; i < 3; ++i) EXPECT(p.lineSize[i] == 1 || p.outLineStride[i] % vector == 0);
      }
    }
  }
  size_t index = plan.dispatches.size();
  EXPECT(plan.scratchBytes % 16 == 0);
  uint64_t elements = desc.input.elementCount();
  EXPECT((elements == 0) == plan.dispatches.empty());
}

// FUZZ_PLAN_PRINT=1 fuzz_plan <file> prints the case a file decodes to.
void printCase(const CumulativeSummationDesc& desc, const PlanLimits& limits,
               const Tuning& tuning) {
  auto list = [](const std::vector<uint32_t>& v) {
    std::string s = "{";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "}";
  };
  std::fprintf(stderr,
               "input: type %u sizes %s strides %s\noutput: type %u sizes %s strides %s\n"
               "axis %u direction %u exclusive %d\nlimits: subgroup %u invocations %u groups %u x "
               "%u\ntuning: rows %d rowsWG %u chunkWG %u target %llu whole %llu small %llu\n",
               static_cast<unsigned>(desc.input.dataType), list(desc.input.sizes).c_str(),
               list(desc.input.strides).c_str(), static_cast<unsigned>(desc.output.dataType),
               list(desc.output.sizes).c_str(), list(desc.output.strides).c_str(), desc.axis,
               static_cast<unsigned>(desc.axisDirection), desc.hasExclusiveSum, limits.subgroupSize,
               limits.maxWorkgroupInvocations, limits.maxWorkgroupCountX, limits.maxWorkgroupCountY,
               tuning.rowsForContiguousAxes, tuning.rowsWorkgroupSize, tuning.chunkWorkgroupSize,
               static_cast<unsigned long long>(tuning.chunkTargetInvocations),
               static_cast<unsigned long long>(tuning.wholeLineInvocations),
               static_cast<unsigned long long>(tuning.chunkSmallProblem));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t length) {
  FuzzedDataProvider data(bytes, length);
  CumulativeSummationDesc desc;
  desc.input.dataType = static_cast<DataType>(data.ConsumeIntegralInRange<uint32_t>(0, 7));
  desc.output.dataType = data.ConsumeIntegralInRange<int>(0, 15) == 0
                             ? static_cast<DataType>(data.ConsumeIntegralInRange<uint32_t>(0, 7))
                             : desc.input.dataType;
  size_t rank = data.ConsumeIntegralInRange<size_t>(0, 9);
  for (size_t d = 0; d < rank; ++d) desc.input.sizes.push_back(pickSize(data));
  desc.output.sizes = desc.input.sizes;
  if (rank > 0 && data.ConsumeIntegralInRange<int>(0, 15) == 0) {
    desc.output.sizes[data.ConsumeIntegralInRange<size_t>(0, rank - 1)] = pickSize(data);
  }
  pickStrides(data, desc.input);
  if (data.ConsumeBool()) {
    desc.output.strides = desc.input.strides;
  } else {
    pickStrides(data, desc.output);
  }
  desc.axis = data.ConsumeIntegralInRange<uint32_t>(0, static_cast<uint32_t>(rank));
  desc.axisDirection = static_cast<AxisDirection>(data.ConsumeIntegralInRange<uint32_t>(0, 2));
  desc.hasExclusiveSum = data.ConsumeBool();

  // Limits a Vulkan device may report (the spec's minimums and up).
  PlanLimits limits;
  limits.subgroupSize = uint32_t{1} << data.ConsumeIntegralInRange<int>(0, 7);
  limits.maxWorkgroupInvocations =
      data.ConsumeBool() ? 1024 : data.ConsumeIntegralInRange<uint32_t>(128, 2048);
  limits.maxWorkgroupCountX =
      data.ConsumeBool() ? 65535 : data.ConsumeIntegralInRange<uint32_t>(65535, UINT32_MAX);
  limits.maxWorkgroupCountY =
      data.ConsumeBool() ? 65535 : data.ConsumeIntegralInRange<uint32_t>(65535, UINT32_MAX);
  bool cpuLike = data.ConsumeBool();
  Tuning tuning;
  if (data.ConsumeBool()) {
    // Speed-only knobs: any value must still give a valid plan.
    tuning = tuningFor(cpuLike, limits.subgroupSize, limits.maxWorkgroupInvocations, 0);
    tuning.rowsForContiguousAxes = data.ConsumeBool();
    tuning.chunkTargetInvocations = data.ConsumeIntegralInRange<uint64_t>(1, uint64_t{1} << 24);
    tuning.chunkSmallProblem = data.ConsumeIntegralInRange<uint64_t>(0, uint64_t{1} << 24);
    tuning.wholeLineInvocations = data.ConsumeIntegralInRange<uint64_t>(1, uint64_t{1} << 24);
  } else {
    tuning = tuningFor(cpuLike, limits.subgroupSize, limits.maxWorkgroupInvocations,
                       data.ConsumeIntegralInRange<uint32_t>(0, 256));
  }

  if (std::getenv("FUZZ_PLAN_PRINT") != nullptr) printCase(desc, limits, tuning);
  // FUZZ_PLAN_MAX_ELEMENTS=n skips larger tensors, to explore past a known
  // bug with huge ones; CI leaves it unset.
  static const char* maxElements = std::getenv("FUZZ_PLAN_MAX_ELEMENTS");
  if (maxElements != nullptr) {
    double elements = 1;
    for (uint32_t size : desc.output.sizes) elements *= size;
    if (elements > std::strtod(maxElements, nullptr)) return 0;
  }

  Problem problem;
  try {
    problem = normalize(desc);
  } catch (const InvalidArgument&) {
    return 0;
  }
  Plan plan;
  try {
    plan = makePlan(problem, limits, tuning);
  } catch (const InvalidArgument&) {
    return 0;
  }
  checkPlan(desc, plan, limits);
  return 0;
}
