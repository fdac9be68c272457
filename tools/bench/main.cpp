// vkscan-bench: vkscan's cumulative sum on the current device against a copy
// kernel moving the same bytes (the roof), a naive one-invocation-per-line
// kernel and a single-threaded CPU scan, measured round-robin in one process
// so that drift (a shared machine, thermal state) hits every method alike.
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>
#include <vkscan/cpu_hints.hpp>
#include <vkscan/host.hpp>

#include "cases.hpp"
#include "device_buffer.hpp"
#include "gpu.hpp"
#include "host.hpp"
#include "report.hpp"
#include "statistics.hpp"
#include "vkscan_bench_kernels.h"

namespace vkscan::bench {
namespace {

using Clock = std::chrono::steady_clock;

const char* kUsage = R"(Usage: vkscan-bench [options]

Measures vkscan's cumulative sum on one Vulkan device against
  roof    a compute copy kernel moving the same bytes (best of several variants)
  naive   one invocation per line, a serial loop along the axis
  cpu     single-threaded std::inclusive_scan on the host
and checks every result. GB/s counts bytes read plus written (2 x tensor bytes).

Options:
  --csv         print one CSV row per case on stdout (the text report goes to stderr)
  --quick       small shapes and few repetitions: a smoke test of well under a minute
  --repeat N    timed repetitions per method and case, 10 x N for the latency case
                (default: 11 to 201 within 4 s per case, 1001 for latency; --quick:
                3 to 9 within 0.05 s, 50 for latency)
  --case NAME   run only the cases whose name contains NAME, or is NAME without the
                '$' it ends in (repeatable)
  --device N    physical device index, as listed by `vkscan info` (default: vkscan's choice)
  --addresses   every kernel reaches the tensors through device addresses, as on devices
                without VK_KHR_push_descriptor (default: storage buffers where they fit)
  --int64-free  vkscan runs its kernels for devices without shaderInt64, as with
                DeviceOptions::disableInt64 (the roof and naive kernels keep Int64)
  --float16-free
                the device is made without 16-bit storage, as with
                DeviceOptions::disableFloat16: vkscan moves FLOAT16 as 32-bit words, and
                the benchmark leaves out its own FLOAT16 copy and naive kernels
  --validation  run under the Khronos validation layer with synchronization validation
                (which must be installed) and fail on any message it reports; a check
                of the benchmark's own Vulkan use, whose timings it makes meaningless
  --gpu-matrix  the GPU matrix of issue 47 instead of the default cases: 1-D FLOAT32 2^20,
                2^24, 2^28, UINT64 2^27, FLOAT16 2^28, [16384,16384] along each axis,
                [2^24,16] along 1, latency [1,1,3,4], and the FLOAT32 2^28 product and
                maximum, among others (tools/bench/cases.cpp; --quick: smaller stand-ins);
                each case also times vkCmdCopyBuffer of its bytes, the CPU scan is not
                timed (its reference still checks every result), and --csv prints
                the matrix's own columns
  --device-local
                tensors in device-local memory, filled and read back through a staging
                buffer, even where the device is no GPU (default on a discrete or
                integrated GPU, or where device-local memory is hidden from the host)
  --list        print the cases the other options select, one a line: the case's name,
                a tab, and its descriptor as `vkscan plan` arguments (SIZES --axis N
                --dtype T ...); nothing is measured and no device is opened
  --txt FILE    also write the text report to FILE
  --csv-file FILE
                also write the CSV rows --csv prints to FILE; FILE and --txt's are
                rewritten after every case, so that a run cut short keeps the cases
                it finished
  --help        this text

Exit status: 0 when every check passed, 1 when a result was wrong, a case failed,
(--validation) the layer reported a message or the --txt file could not be written, 2 for
bad options (a --device past the devices, a --txt FILE whose directory or file refuses
writing). Progress goes to stderr.
)";

struct Options {
  bool csv = false;
  bool quick = false;
  uint32_t repeat = 0;  // 0: automatic
  std::vector<std::string> cases;
  int device = -1;
  bool addresses = false;
  bool int64Free = false;
  bool float16Free = false;
  bool validation = false;
  bool gpuMatrix = false;
  bool deviceLocal = false;
  bool list = false;
  std::string txtPath;
  std::string csvPath;
};

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A report file that cannot be written fails the options, not the end of a
// run of minutes. Nothing is created or truncated here.
void checkWritable(const std::string& option, const std::string& path) {
  std::error_code ignored;
  // access() grants W_OK on a writable directory, which no ofstream can open.
  if (std::filesystem::is_directory(path, ignored)) {
    throw UsageError(option + " " + path + ": cannot write: " + std::strerror(EISDIR));
  }
  if (::access(path.c_str(), W_OK) == 0) return;
  int error = errno;
  if (error == ENOENT) {
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (::access(parent.empty() ? "." : parent.c_str(), W_OK) == 0) return;
    error = errno;
  }
  throw UsageError(option + " " + path + ": cannot write: " + std::strerror(error));
}

// The library names its own field; the user typed --device.
Device openDevice(const DeviceOptions& options) {
  try {
    return createDevice(options);
  } catch (const InvalidArgument& error) {
    if (error.field() != "options.deviceIndex") throw;
    throw UsageError("--device " + std::to_string(options.deviceIndex) + ": " + error.reason());
  }
}

Options parseOptions(int argc, char** argv) {
  Options options;
  auto value = [&](int& i) -> std::string {
    if (i + 1 >= argc) throw UsageError(std::string(argv[i]) + " needs a value");
    return argv[++i];
  };
  auto number = [](const std::string& text, const char* name) {
    char* end = nullptr;
    long parsed = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || parsed < 0 || parsed > 1000000) {
      throw UsageError(std::string(name) + ": '" + text + "' is not a count");
    }
    return parsed;
  };
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (arg == "--csv") {
      options.csv = true;
    } else if (arg == "--quick") {
      options.quick = true;
    } else if (arg == "--repeat") {
      options.repeat = uint32_t(number(value(i), "--repeat"));
      if (options.repeat == 0) throw UsageError("--repeat: needs at least 1");
    } else if (arg == "--case") {
      options.cases.push_back(value(i));
    } else if (arg == "--device") {
      options.device = int(number(value(i), "--device"));
    } else if (arg == "--txt") {
      options.txtPath = value(i);
      checkWritable(arg, options.txtPath);
    } else if (arg == "--csv-file") {
      options.csvPath = value(i);
      checkWritable(arg, options.csvPath);
    } else if (arg == "--addresses") {
      options.addresses = true;
    } else if (arg == "--int64-free") {
      options.int64Free = true;
    } else if (arg == "--float16-free") {
      options.float16Free = true;
    } else if (arg == "--validation") {
      options.validation = true;
    } else if (arg == "--gpu-matrix") {
      options.gpuMatrix = true;
    } else if (arg == "--device-local") {
      options.deviceLocal = true;
    } else if (arg == "--list") {
      options.list = true;
    } else {
      throw UsageError("unknown option '" + arg + "'");
    }
  }
  return options;
}

void progress(const char* pattern, ...) __attribute__((format(printf, 1, 2)));
void progress(const char* pattern, ...) {
  std::fputs("vkscan-bench: ", stderr);
  va_list args;
  va_start(args, pattern);
  std::vfprintf(stderr, pattern, args);
  va_end(args);
  std::fputc('\n', stderr);
  std::fflush(stderr);
}

double nsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
}

// The 1, 5 and 15 minute load averages: lavapipe shares the host's cores, so
// a busy machine shows in every number.
std::string loadAverage() {
  std::ifstream file("/proc/loadavg");
  std::string one, five, fifteen;
  if (!(file >> one >> five >> fifteen)) return "unknown";
  return one + " " + five + " " + fifteen;
}

uint64_t roundUp16(uint64_t bytes) {
  return (bytes + 15) & ~uint64_t(15);
}

// A carried case's carry-ins: the identity of its sums in the carry type
// (-0.0, or 0 for integers), which leaves every output the plain scan's.
std::vector<uint8_t> identityCarries(const Case& c, uint64_t bytes) {
  if (c.operation != ScanOperation::Sum) throw std::runtime_error(c.name + ": carried sums only");
  const DataType type = carryType(c.type);
  const size_t size = dataTypeSize(type);
  std::vector<uint8_t> carries(bytes, 0);
  const bool isFloat = type == DataType::Float32 || type == DataType::Float64;
  // The sign bit of each little-endian value.
  if (isFloat) {
    for (size_t i = size - 1; i < bytes; i += size) carries[i] = 0x80;
  }
  return carries;
}

// CPUs this process may run on: lavapipe's threads share them with the
// benchmark's CPU scan.
int usableCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  return CPU_COUNT(&set);
}

// ---------------------------------------------------------------------------
// Roof: copy kernels
// ---------------------------------------------------------------------------

struct CopyKernel {
  std::string name;
  const uint32_t* words = nullptr;
  size_t wordCount = 0;
  uint32_t kernelBytes = 0;    // bytes of the kernel's element
  uint32_t perInvocation = 0;  // elements per invocation
  Gpu::Bindings bindings = Gpu::Bindings::Addresses;
  // A run of blocks per invocation (copy.comp BENCH_COPY_RUNS): with storage
  // buffers the second family, with a texel source the third (familyOf()).
  bool runs = false;
};

// The roof's families: each case times the fastest of each.
enum Family : size_t { kBlockFamily, kRunsFamily, kTexelFamily, kFamilies };

Family familyOf(const CopyKernel& kernel) {
  if (kernel.bindings == Gpu::Bindings::TexelSource) return kTexelFamily;
  return kernel.runs ? kRunsFamily : kBlockFamily;
}

struct RoofChoice {
  CopyKernel kernel;
  uint32_t workgroupSize = 0;
};

const uint32_t kRoofWorkgroupSizes[] = {64, 128, 256};

// Candidates for one element size: the element type itself, loaded as
// vectors or strided scalars, through device addresses (as vkscan) or
// descriptors; the vector copies of the same bytes in the other word sizes:
// 32-bit for 2- and 8-byte elements, 64-bit for 2- and 4-byte ones
// (lavapipe moves each vector component on its own, so wider words can copy
// faster, and vkscan's kernels move 2- and 4-byte vectors as 64-bit words);
// and runs of 64-byte blocks per invocation, in 32-bit words or 32-byte
// units, which on a CPU device beat every copy of a block per invocation.
// The element type's own family for 2-byte elements needs
// storageBuffer16BitAccess (`halves`).
std::vector<CopyKernel> copyKernelsFor(uint32_t elementBytes, bool halves) {
  namespace s = spirv;
  auto family = [](const std::string& type, uint32_t bytes, const uint32_t* vec, size_t vecWords,
                   const uint32_t* strided, size_t stridedWords, const uint32_t* ssboVec,
                   size_t ssboVecWords, const uint32_t* ssboStrided, size_t ssboStridedWords) {
    return std::vector<CopyKernel>{
        {"bda vec16 " + type, vec, vecWords, bytes, 16, Gpu::Bindings::Addresses},
        {"bda strided4 " + type, strided, stridedWords, bytes, 4, Gpu::Bindings::Addresses},
        {"ssbo vec16 " + type, ssboVec, ssboVecWords, bytes, 16, Gpu::Bindings::StorageBuffers},
        {"ssbo strided4 " + type, ssboStrided, ssboStridedWords, bytes, 4,
         Gpu::Bindings::StorageBuffers}};
  };
  std::vector<CopyKernel> words = family(
      "u32", 4, s::spv_copy_vec16_b32, s::spv_copy_vec16_b32_words, s::spv_copy_strided4_b32,
      s::spv_copy_strided4_b32_words, s::spv_copy_ssbo_vec16_b32, s::spv_copy_ssbo_vec16_b32_words,
      s::spv_copy_ssbo_strided4_b32, s::spv_copy_ssbo_strided4_b32_words);
  std::vector<CopyKernel> wideWords = family(
      "u64", 8, s::spv_copy_vec16_b64, s::spv_copy_vec16_b64_words, s::spv_copy_strided4_b64,
      s::spv_copy_strided4_b64_words, s::spv_copy_ssbo_vec16_b64, s::spv_copy_ssbo_vec16_b64_words,
      s::spv_copy_ssbo_strided4_b64, s::spv_copy_ssbo_strided4_b64_words);
  // A family's two vector copies (device addresses, descriptors).
  auto addVectorCopies = [](std::vector<CopyKernel>& kernels, const std::vector<CopyKernel>& of) {
    kernels.push_back(of[0]);
    kernels.push_back(of[2]);
  };
  auto run = [](const std::string& name, uint32_t blocks, const uint32_t* code, size_t codeWords) {
    return CopyKernel{"ssbo runs" + std::to_string(blocks) + " " + name,
                      code,
                      codeWords,
                      4,
                      16 * blocks,
                      Gpu::Bindings::StorageBuffers,
                      true};
  };
  const std::vector<CopyKernel> runs = {
      run("u32", 64, s::spv_copy_runs_words_64, s::spv_copy_runs_words_64_words),
      run("u64x4>u32", 64, s::spv_copy_runs_units_words_64, s::spv_copy_runs_units_words_64_words),
      run("u64x4", 64, s::spv_copy_runs_units_64, s::spv_copy_runs_units_64_words),
      run("u32", 256, s::spv_copy_runs_words_256, s::spv_copy_runs_words_256_words),
      run("u64x4>u32", 256, s::spv_copy_runs_units_words_256,
          s::spv_copy_runs_units_words_256_words),
      run("u64x4", 256, s::spv_copy_runs_units_256, s::spv_copy_runs_units_256_words)};
  std::vector<CopyKernel> kernels;
  switch (elementBytes) {
    case 2:
      if (halves) {
        kernels = family("f16", 2, s::spv_copy_vec16_b16, s::spv_copy_vec16_b16_words,
                         s::spv_copy_strided4_b16, s::spv_copy_strided4_b16_words,
                         s::spv_copy_ssbo_vec16_b16, s::spv_copy_ssbo_vec16_b16_words,
                         s::spv_copy_ssbo_strided4_b16, s::spv_copy_ssbo_strided4_b16_words);
      }
      addVectorCopies(kernels, words);
      addVectorCopies(kernels, wideWords);
      break;
    case 4:
      kernels = words;
      addVectorCopies(kernels, wideWords);
      break;
    case 8:
      kernels = wideWords;
      addVectorCopies(kernels, words);
      break;
    default:
      throw Error("vkscan-bench has no copy kernel for " + std::to_string(elementBytes) +
                  "-byte elements");
  }
  kernels.insert(kernels.end(), runs.begin(), runs.end());
  return kernels;
}

// Runs whose source is a uniform texel buffer of 16-byte texels, storing
// 32-bit words or 32-byte units: the third family, as vkscan reads its input
// through texel views where the device gathers texel fetches faster
// (recordWithInputTexels()). Usable where the source spans at most
// maxTexelBufferElements texels.
std::vector<CopyKernel> texelCopyKernels() {
  namespace s = spirv;
  return {{"texel runs256 >u32", s::spv_copy_runs_texels_words_256,
           s::spv_copy_runs_texels_words_256_words, 4, 16 * 256, Gpu::Bindings::TexelSource, true},
          {"texel runs256 >u64x4", s::spv_copy_runs_texels_units_256,
           s::spv_copy_runs_texels_units_256_words, 4, 16 * 256, Gpu::Bindings::TexelSource, true}};
}

// Records the roof's copy of `bytes` from `src` to `dst`.
void recordRoof(Gpu& gpu, VkCommandBuffer commandBuffer, const RoofChoice& roof,
                const DeviceBuffer& src, const DeviceBuffer& dst, uint64_t bytes) {
  CopyParams params{};
  params.src = gpu.address(src);
  params.dst = gpu.address(dst);
  // Rounded up: the buffers are padded to 16 bytes, so a 32-bit copy of
  // 2-byte elements may copy one padding element along.
  params.count = (bytes + roof.kernel.kernelBytes - 1) / roof.kernel.kernelBytes;
  uint64_t perGroup = uint64_t(roof.kernel.perInvocation) * roof.workgroupSize;
  VkDescriptorSet set = VK_NULL_HANDLE;
  if (roof.kernel.bindings == Gpu::Bindings::StorageBuffers) set = gpu.bufferPair(src, dst);
  if (roof.kernel.bindings == Gpu::Bindings::TexelSource) set = gpu.texelSourcePair(src, dst);
  for (const CopyDispatch& dispatch : copyDispatches(params.count, perGroup)) {
    VkPipeline pipeline = gpu.pipeline(roof.kernel.words, roof.kernel.wordCount, roof.workgroupSize,
                                       roof.kernel.bindings, dispatch.wholeTiles);
    gpu.recordCopy(commandBuffer, pipeline, params, dispatch, set, roof.kernel.bindings);
  }
}

// ---------------------------------------------------------------------------
// Round-robin timing
// ---------------------------------------------------------------------------

struct Method {
  std::string name;
  std::function<Sample()> run;
  std::vector<Sample> samples;

  std::vector<double> gpuNs() const {
    std::vector<double> v;
    for (const Sample& s : samples) v.push_back(s.gpuNs);
    return v;
  }
  std::vector<double> wallNs() const {
    std::vector<double> v;
    for (const Sample& s : samples) v.push_back(s.wallNs);
    return v;
  }
  double medianGpu() const { return median(gpuNs()); }
  double medianWall() const { return median(wallNs()); }
};

struct Timing {
  uint32_t warmUp = 2;
  uint32_t minimum = 11;  // repetitions at least
  uint32_t maximum = 11;
  double budgetNs = 0;  // stop adding repetitions past this (after the minimum)
};

// Every round runs each method once, in the same order; the first rounds
// compile pipelines and fault in memory and are not counted.
uint32_t runRoundRobin(std::vector<Method>& methods, const Timing& timing) {
  for (uint32_t round = 0; round < timing.warmUp; ++round) {
    for (Method& m : methods) m.run();
  }
  auto start = Clock::now();
  uint32_t rounds = 0;
  while (rounds < timing.maximum) {
    for (Method& m : methods) m.samples.push_back(m.run());
    ++rounds;
    if (rounds >= timing.minimum && nsSince(start) > timing.budgetNs) break;
  }
  return rounds;
}

Timing timingFor(const Options& options, const Case& c) {
  Timing timing;
  if (options.repeat > 0) {
    timing.warmUp = options.quick ? 1 : 2;
    timing.minimum = timing.maximum = options.repeat * (c.latency ? 10 : 1);
    return timing;
  }
  if (options.quick) {
    timing.warmUp = 1;
    timing.minimum = 3;
    timing.maximum = c.latency ? 50 : 9;
    timing.budgetNs = 0.05e9;
  } else {
    timing.warmUp = 2;
    timing.minimum = 11;
    timing.maximum = c.latency ? 1001 : 201;
    timing.budgetNs = 4.0e9;
  }
  return timing;
}

// The roof of one element size: the fastest candidate of each family (a
// block per invocation, runs of blocks, runs read through texels), each timed
// on every case's bytes.
using Roofs = std::map<uint32_t, std::vector<RoofChoice>>;

Roofs calibrateRoof(Gpu& gpu, const std::set<uint32_t>& elementSizes, const Options& options,
                    Report& report) {
  const uint64_t bytes = options.quick ? (4u << 20) : (64u << 20);
  report.roofBytes = bytes;
  DeviceBuffer src(gpu, bytes, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, gpu.tensorPlacement());
  DeviceBuffer dst(gpu, bytes, 0, gpu.tensorPlacement());
  std::vector<uint32_t> fill(bytes / 4);
  for (uint64_t i = 0; i < bytes / 4; ++i) fill[i] = uint32_t(i * 2654435761u);
  gpu.upload(src, fill.data(), bytes);
  const std::vector<uint32_t> zeros(bytes / 4, 0);
  std::vector<uint32_t> copied(bytes / 4);

  Roofs chosen;
  for (uint32_t elementBytes : elementSizes) {
    std::vector<RoofChoice> candidates;
    std::vector<CopyKernel> kernels =
        copyKernelsFor(elementBytes, gpu.capabilities().storageBuffer16BitAccess);
    if (src.texelView() != VK_NULL_HANDLE) {
      for (const CopyKernel& kernel : texelCopyKernels()) kernels.push_back(kernel);
    }
    for (const CopyKernel& kernel : kernels) {
      for (uint32_t wg : kRoofWorkgroupSizes) candidates.push_back({kernel, wg});
    }
    std::vector<std::unique_ptr<TimedCommands>> commands;
    std::vector<Method> methods;
    for (const RoofChoice& candidate : candidates) {
      commands.push_back(gpu.record([&](VkCommandBuffer commandBuffer) {
        recordRoof(gpu, commandBuffer, candidate, src, dst, bytes);
      }));
      TimedCommands* timed = commands.back().get();
      // Compile, and prove the copy copies before timing it.
      gpu.upload(dst, zeros.data(), bytes);
      gpu.submit(*timed);
      gpu.download(dst, copied.data(), bytes);
      if (copied != fill) {
        throw Error("roof kernel '" + candidate.kernel.name + "' (wg " +
                    std::to_string(candidate.workgroupSize) + ") does not copy correctly");
      }
      methods.push_back({candidate.kernel.name, [&gpu, timed] { return gpu.submit(*timed); }, {}});
    }
    Timing timing;
    timing.warmUp = 1;
    timing.minimum = timing.maximum = options.quick ? 3 : 11;
    runRoundRobin(methods, timing);
    std::vector<double> gbps;
    size_t best[kFamilies];
    std::fill(best, best + kFamilies, candidates.size());
    for (size_t i = 0; i < methods.size(); ++i) {
      gbps.push_back(2.0 * double(bytes) / methods[i].medianGpu());
      size_t& family = best[familyOf(candidates[i].kernel)];
      if (family == candidates.size() || gbps[i] > gbps[family]) family = i;
    }
    for (size_t i = 0; i < candidates.size(); ++i) {
      bool champion = i == best[familyOf(candidates[i].kernel)];
      report.roofVariants.push_back({candidates[i].kernel.name, candidates[i].workgroupSize,
                                     elementBytes, gbps[i], champion});
      if (champion) {
        chosen[elementBytes].push_back(candidates[i]);
        progress("roof for %u-byte elements: %s, workgroup %u, %.2f GB/s", elementBytes,
                 candidates[i].kernel.name.c_str(), candidates[i].workgroupSize, gbps[i]);
      }
    }
  }

  // For scale: the driver's own copy, which no kernel can use as its roof.
  auto transfer = gpu.record([&](VkCommandBuffer commandBuffer) {
    VkBufferCopy region{0, 0, bytes};
    gpu.vk().vkCmdCopyBuffer(commandBuffer, src.buffer(), dst.buffer(), 1, &region);
  });
  std::vector<Method> reference{{"vkCmdCopyBuffer", [&] { return gpu.submit(*transfer); }, {}}};
  Timing timing;
  timing.warmUp = 1;
  timing.minimum = timing.maximum = options.quick ? 3 : 11;
  runRoundRobin(reference, timing);
  report.transferGbps = 2.0 * double(bytes) / reference[0].medianGpu();
  transfer.reset();
  gpu.releaseDescriptorSets();
  return chosen;
}

// ---------------------------------------------------------------------------
// One case
// ---------------------------------------------------------------------------

// Null where the benchmark has no naive kernel for the type, or (FLOAT16)
// the device lacks storageBuffer16BitAccess (`halves`).
const uint32_t* naiveKernel(DataType type, bool halves, size_t& words) {
  switch (type) {
    case DataType::Float32:
      words = spirv::spv_naive_f32_words;
      return spirv::spv_naive_f32;
    case DataType::Float16:
      if (!halves) return nullptr;
      words = spirv::spv_naive_b16_words;
      return spirv::spv_naive_b16;
    case DataType::UInt64:
      words = spirv::spv_naive_b64_words;
      return spirv::spv_naive_b64;
    default:
      return nullptr;
  }
}

constexpr uint64_t kLoopLimit = 65535;  // lavapipe's loop iterations per invocation
constexpr uint32_t kNaiveWorkgroupSize = 64;

double medianRecordNs(Gpu& gpu, const Gpu::Recorder& recordScan, uint32_t calls) {
  const VolkDeviceTable& vk = gpu.vk();
  VkCommandBuffer commandBuffer = gpu.scratchCommandBuffer();
  std::vector<double> samples;
  const uint32_t batch = 100;
  for (uint32_t done = 0; done < calls; done += batch) {
    auto begin = vkStruct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vk.vkBeginCommandBuffer(commandBuffer, &begin), "vkBeginCommandBuffer");
    for (uint32_t i = 0; i < batch; ++i) {
      auto start = Clock::now();
      recordScan(commandBuffer);
      samples.push_back(nsSince(start));
      // Untimed: record() leaves ordering against later work to its caller.
      gpu.recordBarrier(commandBuffer);
    }
    check(vk.vkEndCommandBuffer(commandBuffer), "vkEndCommandBuffer");
    check(vk.vkResetCommandBuffer(commandBuffer, 0), "vkResetCommandBuffer");
  }
  return median(samples);
}

CaseResult runCase(Gpu& gpu, const Device& device, const Case& c, const Roofs& roofs,
                   const Options& options, uint64_t seed) {
  CaseResult result;
  result.c = c;
  const uint64_t bytes = c.bytes();
  const uint64_t allocation = roundUp16(c.desc().input.totalBytes());

  const auto hostStart = Clock::now();
  const unsigned threads = unsigned(usableCpus());
  HostBytes input(allocation), expected(allocation);
  HostBytes cpuOut(options.gpuMatrix ? 0 : allocation);
  fillInput(c, input.data(), seed, threads);
  referenceScan(c, input.data(), expected.data(), threads);
  // The padding past the tensor, which the device buffers carry.
  std::fill(input.begin() + bytes, input.end(), 0);
  std::fill(expected.begin() + bytes, expected.end(), 0);
  result.referenceSeconds = nsSince(hostStart) / 1e9;

  Operator op = device.createOperator(c.desc());
  result.scratchBytes = op.scratchSize();
  result.dispatches = op.dispatchCount();

  // With a texel view, for vkscan's kernels and the texel family of copies.
  const Placement placement = gpu.tensorPlacement();
  auto tensor = [&](VkDeviceSize size) {
    return std::make_unique<DeviceBuffer>(gpu, size, 0, placement);
  };
  DeviceBuffer in(gpu, allocation, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, placement);
  gpu.upload(in, input.data(), allocation);
  std::unique_ptr<DeviceBuffer> pristine, out, naiveOut, scratch, transferOut;
  if (c.inPlace) {
    pristine = tensor(allocation);
    gpu.upload(*pristine, input.data(), allocation);
  } else {
    out = tensor(allocation);
  }
  std::vector<RoofChoice> roofChoices;
  for (const RoofChoice& choice : roofs.at(uint32_t(dataTypeSize(c.type)))) {
    if (familyOf(choice.kernel) != kTexelFamily || in.texelView() != VK_NULL_HANDLE) {
      roofChoices.push_back(choice);
    }
  }
  std::vector<std::unique_ptr<DeviceBuffer>> roofOuts;
  for (size_t i = 0; i < roofChoices.size(); ++i) {
    roofOuts.push_back(tensor(allocation));
  }
  size_t naiveWords = 0;
  const uint32_t* naiveSpirv =
      naiveKernel(c.type, gpu.capabilities().storageBuffer16BitAccess, naiveWords);
  // The naive kernel and the CPU scan are sums.
  const bool sum = c.operation == ScanOperation::Sum;
  bool naiveRuns = sum && naiveSpirv != nullptr && c.axisLen() <= kLoopLimit;
  if (naiveRuns) naiveOut = tensor(allocation);
  if (op.scratchSize() > 0) scratch = tensor(op.scratchSize());
  // The GPU matrix's second roof: the driver's copy of the same bytes.
  const bool timeTransfer = options.gpuMatrix;
  if (timeTransfer) transferOut = tensor(allocation);

  const BufferBinding inBinding = in.binding();
  const BufferBinding outBinding = c.inPlace ? inBinding : out->binding();
  const BufferBinding scratchBinding = scratch ? scratch->binding() : BufferBinding{};
  std::unique_ptr<DeviceBuffer> carryIn, totals;
  if (c.carried) {
    const ScanDesc desc = c.desc();
    const uint64_t lineBytes = roundUp16(desc.carryIn.totalBytes());
    carryIn = tensor(lineBytes);
    totals = tensor(lineBytes);
    std::vector<uint8_t> identities = identityCarries(c, lineBytes);
    gpu.upload(*carryIn, identities.data(), lineBytes);
  }

  Gpu::Recorder restoreIn;
  if (c.inPlace) {
    restoreIn = [&](VkCommandBuffer cb) { gpu.recordRestore(cb, *pristine, in, allocation); };
  }
  const Gpu::Recorder recordScan = [&](VkCommandBuffer cb) {
    if (c.carried) {
      op.record(cb,
                {inBinding, outBinding, scratchBinding, {}, carryIn->binding(), totals->binding()});
    } else {
      recordWithInputTexels(op, cb, inBinding, in.texelView(), outBinding, scratchBinding);
    }
  };
  auto vkscanCommands = gpu.record(recordScan, restoreIn);
  std::vector<std::unique_ptr<TimedCommands>> roofCommands;
  for (size_t i = 0; i < roofChoices.size(); ++i) {
    roofCommands.push_back(gpu.record(
        [&](VkCommandBuffer cb) { recordRoof(gpu, cb, roofChoices[i], in, *roofOuts[i], bytes); }));
  }
  std::unique_ptr<TimedCommands> transferCommands;
  if (timeTransfer) {
    transferCommands = gpu.record([&](VkCommandBuffer cb) {
      VkBufferCopy region{0, 0, bytes};
      gpu.vk().vkCmdCopyBuffer(cb, in.buffer(), transferOut->buffer(), 1, &region);
    });
  }
  std::unique_ptr<TimedCommands> naiveCommands;
  if (naiveRuns) {
    NaiveParams params{};
    params.src = gpu.address(c.inPlace ? *naiveOut : in);
    params.dst = gpu.address(*naiveOut);
    params.lineCount = uint32_t(c.outer() * c.inner());
    params.inner = uint32_t(c.inner());
    params.axisLen = uint32_t(c.axisLen());
    params.flags =
        (c.exclusive ? BENCH_NAIVE_EXCLUSIVE : 0u) | (c.decreasing ? BENCH_NAIVE_DECREASING : 0u);
    VkPipeline pipeline = gpu.pipeline(naiveSpirv, naiveWords, kNaiveWorkgroupSize);
    Gpu::Recorder restoreNaive;
    if (c.inPlace) {
      restoreNaive = [&](VkCommandBuffer cb) {
        gpu.recordRestore(cb, *pristine, *naiveOut, allocation);
      };
    }
    naiveCommands = gpu.record(
        [&](VkCommandBuffer cb) { gpu.recordNaive(cb, pipeline, params, kNaiveWorkgroupSize); },
        restoreNaive);
  }

  // vkscan before the roof: in place, the roof then copies vkscan's result,
  // so both can be checked after the last round.
  std::vector<Method> methods;
  methods.push_back({"vkscan", [&] { return gpu.submit(*vkscanCommands); }, {}});
  const size_t firstRoof = methods.size();
  for (const std::unique_ptr<TimedCommands>& commands : roofCommands) {
    TimedCommands* timed = commands.get();
    methods.push_back({"roof", [&gpu, timed] { return gpu.submit(*timed); }, {}});
  }
  const size_t transferMethod = methods.size();
  if (timeTransfer) {
    methods.push_back({"vkCmdCopyBuffer", [&] { return gpu.submit(*transferCommands); }, {}});
  }
  const size_t naiveMethod = methods.size();
  if (naiveRuns) methods.push_back({"naive", [&] { return gpu.submit(*naiveCommands); }, {}});
  // The GPU matrix times no CPU scan: at 2^28 elements its rounds would take
  // a minute of the GPU check's budget to measure what no GPU user compares.
  const bool timeCpu = sum && !options.gpuMatrix;
  if (timeCpu) {
    methods.push_back({"cpu",
                       [&] {
                         if (c.inPlace) std::memcpy(cpuOut.data(), input.data(), allocation);
                         auto start = Clock::now();
                         cpuScan(c, c.inPlace ? cpuOut.data() : input.data(), cpuOut.data());
                         double ns = nsSince(start);
                         return Sample{ns, ns};
                       },
                       {}});
  }
  const auto timingStart = Clock::now();
  result.repetitions = runRoundRobin(methods, timingFor(options, c));
  result.timingSeconds = nsSince(timingStart) / 1e9;

  result.vkscanNs = methods[0].medianGpu();
  result.vkscanWallNs = methods[0].medianWall();
  std::vector<std::vector<double>> roofSeries;
  size_t fastest = 0;
  for (size_t i = 0; i < roofChoices.size(); ++i) {
    roofSeries.push_back(methods[firstRoof + i].gpuNs());
    if (median(roofSeries[i]) < median(roofSeries[fastest])) fastest = i;
  }
  std::vector<double> roofNs = fastestPerRound(roofSeries);
  const RoofChoice& roof = roofChoices[fastest];
  result.roofKernel = roof.kernel.name + " wg " + std::to_string(roof.workgroupSize);
  result.roofNs = median(roofNs);
  result.ratioSpread = pairedRatios(roofNs, methods[0].gpuNs());
  if (timeTransfer) {
    const std::vector<double> transferNs = methods[transferMethod].gpuNs();
    result.transferNs = median(transferNs);
    result.transferSpread = pairedRatios(transferNs, methods[0].gpuNs());
  }
  if (naiveRuns) result.naiveNs = methods[naiveMethod].medianGpu();
  result.cpuNs = timeCpu ? methods.back().medianGpu() : -1;
  result.deviceLocal = placement == Placement::DeviceLocal;

  // Every output read back whole and checked whole, 2^28 elements included.
  HostBytes source(allocation), got(allocation);
  gpu.download(in, source.data(), allocation);
  if (c.inPlace) {
    got = source;
  } else {
    gpu.download(*out, got.data(), allocation);
  }
  Check check = checkExact(c, input.data(), expected.data(), got.data());
  if (!check.ok) result.failures.push_back("vkscan: " + check.message);
  auto checkCopy = [&](const DeviceBuffer& copy, const std::string& name) {
    gpu.download(copy, got.data(), allocation);
    if (std::memcmp(got.data(), source.data(), bytes) != 0) {
      result.failures.push_back(name + ": the copy differs from its source");
    }
  };
  for (size_t i = 0; i < roofChoices.size(); ++i) {
    checkCopy(*roofOuts[i], "roof " + roofChoices[i].kernel.name);
  }
  if (timeTransfer) checkCopy(*transferOut, "vkCmdCopyBuffer");
  if (naiveRuns) {
    gpu.download(*naiveOut, got.data(), allocation);
    check = checkSerial(c, input.data(), expected.data(), got.data());
    if (!check.ok) result.failures.push_back("naive: " + check.message);
  }
  if (timeCpu) {
    check = checkSerial(c, input.data(), expected.data(), cpuOut.data());
    if (!check.ok) result.failures.push_back("cpu: " + check.message);
  }

  uint32_t recordCalls = options.quick ? 200 : (c.latency ? 10000 : 1000);
  result.recordNs = medianRecordNs(gpu, recordScan, recordCalls);
  result.ran = true;
  return result;
}

// ---------------------------------------------------------------------------
// Pipeline creation
// ---------------------------------------------------------------------------

// `validationMessages` adds what the layer reported on the fresh Device.
FirstUse measureFirstUse(const DeviceOptions& deviceOptions, const Options& options, const Case& c,
                         const std::vector<uint8_t>& input, std::vector<uint8_t>* cacheData,
                         RepeatTiming* hit, uint64_t& validationMessages) {
  FirstUse use;
  auto start = Clock::now();
  Device device = createDevice(deviceOptions);
  use.deviceMs = nsSince(start) / 1e6;
  ScanDesc desc = c.desc();
  start = Clock::now();
  Operator op = device.createOperator(desc);
  use.createMs = nsSince(start) / 1e6;

  Gpu gpu(device);
  if (options.deviceLocal) gpu.setTensorPlacement(Placement::DeviceLocal);
  const Placement placement = gpu.tensorPlacement();
  uint64_t allocation = roundUp16(desc.input.totalBytes());
  DeviceBuffer in(gpu, allocation, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, placement);
  DeviceBuffer out(gpu, allocation, 0, placement);
  gpu.upload(in, input.data(), allocation);
  std::unique_ptr<DeviceBuffer> scratch;
  if (op.scratchSize() > 0) {
    scratch = std::make_unique<DeviceBuffer>(gpu, op.scratchSize(), 0, placement);
  }
  auto commands = gpu.record([&](VkCommandBuffer cb) {
    recordWithInputTexels(op, cb, in.binding(), in.texelView(), out.binding(),
                          scratch ? scratch->binding() : BufferBinding{});
  });
  use.firstDispatchMs = gpu.submit(*commands).wallNs / 1e6;
  use.steadyDispatchMs = gpu.submit(*commands).wallNs / 1e6;
  std::vector<uint8_t> data = pipelineCacheData(device);
  use.cacheBytes = data.size();
  if (cacheData) *cacheData = std::move(data);
  if (hit) {
    const uint32_t calls = 20000;
    std::vector<double> samples;
    samples.reserve(calls);
    for (uint32_t i = 0; i < calls; ++i) {
      auto t = Clock::now();
      Operator again = device.createOperator(desc);
      samples.push_back(nsSince(t));
    }
    double sum = 0;
    for (double s : samples) sum += s;
    hit->meanNs = sum / calls;
    hit->medianNs = median(samples);
    hit->calls = calls;
  }
  validationMessages += validationMessageCount(device);
  return use;
}

// Each fresh Device gets its own Mesa shader cache directory, so "cold" is
// cold whatever ran before, and the two warm starts are told apart.
PipelineReport measurePipelines(const DeviceOptions& base, const Options& options,
                                const std::string& cacheRoot, uint64_t& validationMessages) {
  Case c{"pipeline", DataType::Float32, {options.quick ? 1u << 16 : 1u << 20}, 0};
  std::vector<uint8_t> input(roundUp16(c.bytes()));
  fillInput(c, input.data(), 7, unsigned(usableCpus()));
  PipelineReport report;
  report.shape = "1-D " + c.shapeText() + " f32";
  report.diskCacheDisabled = std::getenv("MESA_SHADER_CACHE_DISABLE") != nullptr;

  std::vector<uint8_t> cacheData;
  setenv("MESA_SHADER_CACHE_DIR", (cacheRoot + "/cold").c_str(), 1);
  report.cold =
      measureFirstUse(base, options, c, input, &cacheData, &report.operatorHit, validationMessages);

  DeviceOptions warm = base;
  warm.pipelineCacheData = cacheData;
  setenv("MESA_SHADER_CACHE_DIR", (cacheRoot + "/vkcache").c_str(), 1);
  report.warmVkCache =
      measureFirstUse(warm, options, c, input, nullptr, nullptr, validationMessages);

  setenv("MESA_SHADER_CACHE_DIR", (cacheRoot + "/cold").c_str(), 1);
  // Without the operator cache, which a first use never hits anyway.
  DeviceOptions planning = base;
  planning.operatorCacheCapacity = 0;
  report.warmDiskCache =
      measureFirstUse(planning, options, c, input, nullptr, &report.plannedHit, validationMessages);
  return report;
}

// A second vkscan::Device over `device`'s handles that says shaderInt64 was
// not enabled, so that vkscan takes its int64-free kernels while the
// benchmark's own kernels keep Int64. createDevice() enabled every feature in
// capabilities() and VK_KHR_push_descriptor where it reports it.
std::unique_ptr<Device> wrapWithoutInt64(const Device& device) {
  const DeviceCapabilities& caps = capabilities(device);
  auto vulkan12 = vkStruct<VkPhysicalDeviceVulkan12Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  vulkan12.bufferDeviceAddress = caps.bufferDeviceAddress;
  vulkan12.shaderFloat16 = caps.shaderFloat16;
  auto vulkan11 = vkStruct<VkPhysicalDeviceVulkan11Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &vulkan12);
  vulkan11.storageBuffer16BitAccess = caps.storageBuffer16BitAccess;
  auto features =
      vkStruct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &vulkan11);
  features.features.shaderFloat64 = caps.shaderFloat64;
  features.features.shaderInt64 = VK_FALSE;
  const char* pushDescriptor = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;

  ExternalDevice external;
  external.instance = device.instance();
  external.physicalDevice = device.physicalDevice();
  external.device = device.handle();
  external.queue = device.queue();
  external.queueFamilyIndex = device.queueFamilyIndex();
  external.enabledFeatures = &features;
  external.enabledExtensionCount = caps.pushDescriptor ? 1 : 0;
  external.enabledExtensionNames = &pushDescriptor;
  return std::make_unique<Device>(external);
}

std::string csvOf(const Options& options, const Report& report) {
  return options.gpuMatrix ? formatMatrixCsv(report) : formatCsv(report);
}

// Writes `contents` to `path` through a file renamed over it, so that a run
// killed meanwhile leaves the previous contents or these, never a part.
bool replaceFile(const std::string& path, const std::string& contents) {
  const std::string partial = path + ".partial";
  std::ofstream file(partial);
  file << contents;
  file.close();
  std::error_code renamed;
  if (file) std::filesystem::rename(partial, path, renamed);
  if (!file || renamed) {
    progress("cannot write %s: %s", path.c_str(),
             file ? renamed.message().c_str() : std::strerror(errno));
    return false;
  }
  return true;
}

// --txt and --csv-file as the cases so far make them.
bool writeReportFiles(const Options& options, const Report& report) {
  bool written = true;
  if (!options.txtPath.empty()) written = replaceFile(options.txtPath, formatText(report));
  if (!options.csvPath.empty()) {
    written = replaceFile(options.csvPath, csvOf(options, report)) && written;
  }
  return written;
}

int run(const Options& options) {
  const std::vector<Case> matrix =
      options.gpuMatrix ? gpuMatrix(options.quick) : caseMatrix(options.quick);
  std::vector<Case> cases = selectCases(matrix, options.cases);
  if (cases.empty()) {
    std::string names;
    for (const Case& c : matrix) names += " " + c.name;
    throw UsageError("no case matches --case; the cases are:" + names);
  }
  if (options.list) {
    for (const Case& c : cases) std::printf("%s\t%s\n", c.name.c_str(), c.planArguments().c_str());
    return 0;
  }

  // Mesa's shader caches go to a private directory, removed at exit.
  char cacheTemplate[] = "/tmp/vkscan-bench-XXXXXX";
  if (mkdtemp(cacheTemplate) == nullptr) throw Error("cannot create a temporary directory");
  std::string cacheRoot = cacheTemplate;
  struct RemoveOnExit {
    std::string path;
    ~RemoveOnExit() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  } removeCacheRoot{cacheRoot};
  setenv("MESA_SHADER_CACHE_DIR", (cacheRoot + "/main").c_str(), 1);

  DeviceOptions deviceOptions;
  deviceOptions.deviceIndex = options.device;
  deviceOptions.disablePushDescriptor = options.addresses;
  deviceOptions.enableValidation = options.validation;
  deviceOptions.disableFloat16 = options.float16Free;
  // vkscan's own devices: the pipeline measurements' fresh ones and, with
  // --int64-free, a second Device over the bench's, whose roof and naive
  // kernels need Int64 enabled.
  DeviceOptions scanOptions = deviceOptions;
  scanOptions.disableInt64 = options.int64Free;
  Report report;
  int failures = 0;
  // Summed over the devices the benchmark makes, each counting its own.
  uint64_t messages = 0;
  {
    Device device = openDevice(deviceOptions);
    const DeviceCapabilities& caps = capabilities(device);
    report.device = caps.deviceName + " (" + caps.driverName + " " + caps.driverInfo +
                    "), subgroup size " + std::to_string(caps.subgroupSize) + ", " +
                    std::to_string(usableCpus()) + " usable CPUs";
    const char* validation =
        options.validation ? "under validation (timings not representative); " : "";
    report.settings = std::string(options.quick ? "quick mode; " : "") + validation +
                      (caps.pushDescriptor ? "" : "device addresses only; ") +
                      (options.int64Free ? "vkscan on its int64-free kernels; " : "") +
                      (options.float16Free ? "no 16-bit storage; " : "") +
                      "GPU times from timestamps (period " + std::to_string(caps.timestampPeriod) +
                      " ns), medians over the repetitions shown, after " +
                      std::to_string(timingFor(options, cases[0]).warmUp) +
                      " warm-up rounds; methods run round-robin.";
    report.settings += " Load average at start: " + loadAverage() + ".";
    progress("%s", report.device.c_str());

    std::unique_ptr<Device> int64FreeDevice;
    if (options.int64Free) int64FreeDevice = wrapWithoutInt64(device);
    const Device& scanDevice = int64FreeDevice ? *int64FreeDevice : device;
    report.settings += " vkscan: " + describe(scanDevice) + ".";

    Gpu gpu(device);
    if (options.deviceLocal) gpu.setTensorPlacement(Placement::DeviceLocal);
    report.settings += gpu.tensorPlacement() == Placement::DeviceLocal
                           ? " Tensors in device-local memory, staged."
                           : " Tensors in host-visible memory.";
    report.gpuMatrix = options.gpuMatrix;
    if (options.validation && !validationEnabled(device)) {
      throw Error("--validation: VK_LAYER_KHRONOS_validation is not installed");
    }
    std::set<uint32_t> elementSizes;
    for (const Case& c : cases) elementSizes.insert(uint32_t(dataTypeSize(c.type)));
    Roofs roofs = calibrateRoof(gpu, elementSizes, options, report);

    progress("pipeline creation: cold, warm VkPipelineCache, warm Mesa disk cache");
    report.pipeline = measurePipelines(scanOptions, options, cacheRoot, messages);
    report.pipelineMeasured = true;
    setenv("MESA_SHADER_CACHE_DIR", (cacheRoot + "/main").c_str(), 1);

    for (size_t i = 0; i < cases.size(); ++i) {
      const Case& c = cases[i];
      progress("[%zu/%zu] %s %s axis %u %s %s", i + 1, cases.size(), c.name.c_str(),
               c.shapeText().c_str(), c.axis, c.typeText().c_str(), c.flagsText().c_str());
      CaseResult result;
      const auto caseStart = Clock::now();
      try {
        result = runCase(gpu, scanDevice, c, roofs, options, 1000 + i);
      } catch (const Error& error) {
        result = CaseResult{};
        result.c = c;
        result.failures.push_back(std::string("error: ") + error.what());
      }
      result.seconds = nsSince(caseStart) / 1e9;
      gpu.releaseDescriptorSets();  // the case's command buffers are gone
      if (result.ran) {
        char naive[32] = "n/a";
        if (result.naiveNs >= 0)
          std::snprintf(naive, sizeof(naive), "%.2f", result.gbps(result.naiveNs));
        char cpu[32] = "n/a", transfer[48] = "";
        if (result.cpuNs >= 0) std::snprintf(cpu, sizeof(cpu), "%.2f", result.gbps(result.cpuNs));
        if (result.transferNs >= 0) {
          std::snprintf(transfer, sizeof(transfer), ", vkCmdCopyBuffer %.2f",
                        result.gbps(result.transferNs));
        }
        progress("  vkscan %.2f GB/s (%.1f us), roof %.2f%s, naive %s, cpu %s, %u reps%s",
                 result.gbps(result.vkscanNs), result.vkscanNs / 1e3, result.gbps(result.roofNs),
                 transfer, naive, cpu, result.repetitions,
                 result.failures.empty() ? "" : " -- CHECK FAILED");
        // Where a GPU check's minutes go.
        progress("  %.1f s: input and reference %.1f s, timed rounds %.1f s", result.seconds,
                 result.referenceSeconds, result.timingSeconds);
      }
      for (const std::string& f : result.failures) progress("  FAIL: %s", f.c_str());
      if (!result.failures.empty()) ++failures;
      report.cases.push_back(result);
      writeReportFiles(options, report);
    }
    // The wrapped device reports through `device`, whose instance it shares.
    messages += validationMessageCount(device);
  }

  report.settings += " At the end: " + loadAverage() + ".";
  std::string text = formatText(report);
  if (options.csv) {
    std::fputs(csvOf(options, report).c_str(), stdout);
    std::fputs(text.c_str(), stderr);
  } else {
    std::fputs(text.c_str(), stdout);
  }
  bool written = writeReportFiles(options, report);
  if (failures > 0) progress("%d case%s FAILED", failures, failures == 1 ? "" : "s");
  if (options.validation) {
    progress("validation: %llu message%s", static_cast<unsigned long long>(messages),
             messages == 1 ? "" : "s");
  }
  return failures > 0 || messages > 0 || !written ? 1 : 0;
}

}  // namespace
}  // namespace vkscan::bench

int main(int argc, char** argv) {
  using namespace vkscan::bench;
  try {
    return run(parseOptions(argc, argv));
  } catch (const UsageError& error) {
    std::fprintf(stderr, "vkscan-bench: %s\n%s", error.what(), kUsage);
    return 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "vkscan-bench: %s\n", error.what());
    return 1;
  }
}
