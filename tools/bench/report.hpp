// What the benchmark measured, and its two renderings: the text report and
// the CSV.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cases.hpp"
#include "statistics.hpp"

namespace vkscan::bench {

// One roof candidate measured at start-up.
struct RoofVariant {
  std::string name;  // "vec16 u32", "strided4 u64", "vec16 words"
  uint32_t workgroupSize = 0;
  uint32_t elementBytes = 0;  // the element size it stands in for
  double gbps = 0;
  bool chosen = false;
};

struct CaseResult {
  Case c;
  bool ran = false;        // false: skipped (error before timing)
  std::string roofKernel;  // the variant used
  double roofNs = 0;       // medians of GPU time
  double vkscanNs = 0;
  RatioSpread ratioSpread;  // of roof / vkscan over the rounds
  double vkscanWallNs = 0;  // submit + wait
  double naiveNs = -1;      // < 0: n/a
  double cpuNs = 0;         // < 0: not timed (--gpu-matrix)
  // --gpu-matrix: vkCmdCopyBuffer of the case's bytes in the same rounds,
  // and the spread of its time / vkscan's.
  double transferNs = -1;  // < 0: not timed
  RatioSpread transferSpread;
  bool deviceLocal = false;  // tensors in device-local memory
  double recordNs = 0;       // CPU time of one Operator::record()
  uint64_t scratchBytes = 0;
  uint32_t dispatches = 0;
  uint32_t repetitions = 0;
  std::vector<std::string> failures;  // empty: every check passed
  // Host seconds of the case (progress only): the input and reference, the
  // timed rounds, and everything.
  double referenceSeconds = 0;
  double timingSeconds = 0;
  double seconds = 0;

  double gbps(double ns) const { return ns > 0 ? 2.0 * double(c.bytes()) / ns : 0; }
  // vkscan's speed as a fraction of the roof's: the median over the rounds
  // of each round's ratio, which drift that slows both methods of a round
  // leaves alone, where the ratio of the two medians can pair a slow vkscan
  // round with a fast roof round.
  double ratio() const { return ratioSpread.median; }
};

// First use of an operator on a fresh Device (lavapipe compiles at the first
// dispatch, so that is where the cost shows).
struct FirstUse {
  double deviceMs = 0;          // createDevice()
  double createMs = 0;          // first createOperator
  double firstDispatchMs = 0;   // first submit + wait
  double steadyDispatchMs = 0;  // second submit + wait
  size_t cacheBytes = 0;        // pipelineCacheData() afterwards
};

struct RepeatTiming {
  double medianNs = 0;
  double meanNs = 0;
  uint32_t calls = 0;
};

struct PipelineReport {
  std::string shape;
  FirstUse cold;           // empty Mesa disk cache, no VkPipelineCache data
  FirstUse warmVkCache;    // empty Mesa disk cache, pipelineCacheData of `cold`
  FirstUse warmDiskCache;  // Mesa disk cache filled by `cold`, no VkPipelineCache data
  // createOperator again on the same Device: with the operator cache, and
  // without it (operatorCacheCapacity 0: planned again, pipelines from the
  // pipeline cache).
  RepeatTiming operatorHit;
  RepeatTiming plannedHit;
  bool diskCacheDisabled = false;  // MESA_SHADER_CACHE_DISABLE was set
};

struct Report {
  std::string device;
  std::string settings;
  std::vector<RoofVariant> roofVariants;
  uint64_t roofBytes = 0;
  double transferGbps = 0;  // vkCmdCopyBuffer of roofBytes, for scale
  PipelineReport pipeline;
  bool pipelineMeasured = false;
  std::vector<CaseResult> cases;
  bool gpuMatrix = false;  // adds the GPU matrix's section to the text
};

std::string formatText(const Report& report);
std::string formatCsv(const Report& report);
// --gpu-matrix --csv: one row per case against both roofs (kMatrixCsvHeader).
std::string formatMatrixCsv(const Report& report);

// The CSV header, exactly.
inline const char* kCsvHeader =
    "case,shape,axis,dtype,flags,vkscan_gbps,roof_gbps,ratio,naive_gbps,cpu_gbps,vkscan_us";
// ratio_copybuffer and ratio_roof: vkscan's speed over each roof's, the
// median of the rounds' ratios; memory: device (staged) or host (mapped).
inline const char* kMatrixCsvHeader =
    "case,shape,axis,dtype,bytes,memory,vkscan_us,vkscan_gbps,copybuffer_us,copybuffer_gbps,"
    "roof_us,roof_gbps,ratio_copybuffer,ratio_roof,roof_kernel,dispatches,reps,check";

}  // namespace vkscan::bench
