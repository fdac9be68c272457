#include "report.hpp"

#include <cstdarg>
#include <cstdio>

namespace vkscan::bench {
namespace {

std::string format(const char* pattern, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* pattern, ...) {
  char buffer[512];
  va_list args;
  va_start(args, pattern);
  std::vsnprintf(buffer, sizeof(buffer), pattern, args);
  va_end(args);
  return buffer;
}

std::string gbpsText(double gbps) {
  return format("%.2f", gbps);
}

std::string bytesText(uint64_t bytes) {
  if (bytes == 0) return "0";
  if (bytes % (1024 * 1024) == 0) return format("%llu MiB", (unsigned long long)(bytes >> 20));
  if (bytes >= 64 * 1024) return format("%.1f KiB", double(bytes) / 1024.0);
  return format("%llu B", (unsigned long long)bytes);
}

std::string firstUseLine(const char* label, const FirstUse& use) {
  return format(
      "  %-44s device %7.1f ms, createOperator %6.2f ms, first dispatch %7.2f ms "
      "(steady %6.2f ms)\n",
      label, use.deviceMs, use.createMs, use.firstDispatchMs, use.steadyDispatchMs);
}

bool isCase(const CaseResult& r, const char* name) {
  return r.c.name == name;
}

// The GPU matrix against the same run's vkCmdCopyBuffer and best compute
// copy, with issue 47's bars for an H100 (torch's bar is the check script's:
// it needs the torch peer's times).
std::string formatMatrixText(const Report& report) {
  std::string out =
      "\nGPU matrix: vkscan against the same run's vkCmdCopyBuffer and best compute copy of\n"
      "the same bytes (ratios: vkscan's speed / the copy's, median over the rounds)\n";
  out += format("%-16s %-12s %-5s %10s %10s %10s %10s %8s %8s  %s\n", "case", "shape", "dtype",
                "vkscan_us", "vkscan", "copybuf", "roof", "r_copy", "r_roof", "bar (H100)");
  for (const CaseResult& r : report.cases) {
    if (!r.ran) continue;
    std::string bar;
    auto judge = [&](bool met, const char* what) {
      bar = format("%s: %s", what, met ? "met" : "MISSED");
    };
    const double toCopy = r.transferSpread.median;
    if (isCase(r, "1d_256m")) judge(toCopy >= 0.8, ">= 0.8 of copy");
    if (isCase(r, "rows_16k") || isCase(r, "columns_16k")) judge(toCopy >= 0.7, ">= 0.7 of copy");
    if (r.c.latency) judge(r.vkscanNs < 10000, "< 10 us");
    out += format("%-16s %-12s %-5s %10.1f %10s %10s %10s %8.3f %8.3f  %s\n", r.c.name.c_str(),
                  r.c.shapeText().c_str(), r.c.typeText().c_str(), r.vkscanNs / 1e3,
                  gbpsText(r.gbps(r.vkscanNs)).c_str(), gbpsText(r.gbps(r.transferNs)).c_str(),
                  gbpsText(r.gbps(r.roofNs)).c_str(), toCopy, r.ratio(), bar.c_str());
  }
  return out;
}

}  // namespace

std::string formatText(const Report& report) {
  std::string out;
  out += "vkscan-bench on " + report.device + "\n";
  out += report.settings + "\n\n";

  if (!report.roofVariants.empty()) {
    out += format(
        "Roof candidates: compute copy of %s, GPU GB/s (bytes read + written); "
        "* = fastest of its family\n(a block per invocation, runs of blocks, or runs read "
        "through a uniform texel buffer) for that element size\n",
        bytesText(report.roofBytes).c_str());
    out += format("  %-24s %6s %6s %10s\n", "kernel", "elem", "wg", "GB/s");
    for (const RoofVariant& v : report.roofVariants) {
      out += format("  %-24s %5uB %6u %10.2f %s\n", v.name.c_str(), v.elementBytes, v.workgroupSize,
                    v.gbps, v.chosen ? "*" : "");
    }
    out += format("  (for scale, not a candidate: vkCmdCopyBuffer of the same bytes %.2f GB/s)\n",
                  report.transferGbps);
    out += "\n";
  }

  if (report.pipelineMeasured) {
    const PipelineReport& p = report.pipeline;
    out += format("Pipeline creation (%s; lavapipe compiles at the first dispatch):\n",
                  p.shape.c_str());
    out += firstUseLine("cold (fresh Device, empty Mesa disk cache):", p.cold);
    out += firstUseLine(
        format("warm VkPipelineCache (%zu B, empty disk cache):", p.cold.cacheBytes).c_str(),
        p.warmVkCache);
    out += firstUseLine("warm Mesa disk cache (no VkPipelineCache):", p.warmDiskCache);
    auto hitLine = [](const char* what, const RepeatTiming& t) {
      return format("  %s median %.3f us, mean %.3f us over %u calls (target < 1 us: %s)\n", what,
                    t.medianNs / 1e3, t.meanNs / 1e3, t.calls,
                    t.medianNs < 1000 ? "met" : "MISSED");
    };
    out += "  in-memory cache hit (createOperator again, same Device and descriptor):\n";
    out += hitLine("  operator cache (default):", p.operatorHit);
    out += hitLine("  without it (operatorCacheCapacity 0: planned, pipelines looked up):",
                   p.plannedHit);
    if (p.diskCacheDisabled) out += "  (MESA_SHADER_CACHE_DISABLE is set: no disk cache)\n";
    out += "\n";
  }

  out +=
      "Cases: GB/s = 2 x tensor bytes / median GPU time; ratio = vkscan / roof, the median\n"
      "over the rounds of each round's ratio (rounds: its quartiles)\n";
  out += format(
      "%-16s %-12s %4s %-5s %-21s %8s %8s %6s %11s %8s %8s %10s %10s %9s %4s %10s %4s %s\n", "case",
      "shape", "axis", "dtype", "flags", "vkscan", "roof", "ratio", "rounds", "naive", "cpu",
      "vkscan_us", "wall_us", "record_us", "disp", "scratch", "reps", "check");
  bool anyNaiveNa = false;
  for (const CaseResult& r : report.cases) {
    std::string naive = r.naiveNs < 0 ? "n/a" : gbpsText(r.gbps(r.naiveNs));
    std::string cpu = r.cpuNs < 0 ? "n/a" : gbpsText(r.gbps(r.cpuNs));
    anyNaiveNa = anyNaiveNa || r.naiveNs < 0;
    std::string check = !r.ran ? "SKIPPED" : r.failures.empty() ? "ok" : "FAIL";
    std::string rounds =
        format("%.2f-%.2f", r.ratioSpread.lowerQuartile, r.ratioSpread.upperQuartile);
    out += format(
        "%-16s %-12s %4u %-5s %-21s %8s %8s %6.3f %11s %8s %8s %10.1f %10.1f %9.2f %4u %10s %4u "
        "%s\n",
        r.c.name.c_str(), r.c.shapeText().c_str(), r.c.axis, r.c.typeText().c_str(),
        r.c.flagsText().c_str(), gbpsText(r.gbps(r.vkscanNs)).c_str(),
        gbpsText(r.gbps(r.roofNs)).c_str(), r.ratio(), rounds.c_str(), naive.c_str(), cpu.c_str(),
        r.vkscanNs / 1e3, r.vkscanWallNs / 1e3, r.recordNs / 1e3, r.dispatches,
        bytesText(r.scratchBytes).c_str(), r.repetitions, check.c_str());
  }
  for (const CaseResult& r : report.cases) {
    for (const std::string& failure : r.failures) out += "FAIL " + r.c.name + ": " + failure + "\n";
  }
  if (report.gpuMatrix) out += formatMatrixText(report);
  for (const CaseResult& r : report.cases) {
    if (!r.c.latency || !r.ran) continue;
    out += format(
        "\nLatency %s: GPU %.1f us, submit + wait %.1f us; Operator::record() %.3f us "
        "(target < 5 us: %s)\n",
        r.c.shapeText().c_str(), r.vkscanNs / 1e3, r.vkscanWallNs / 1e3, r.recordNs / 1e3,
        r.recordNs < 5000 ? "met" : "MISSED");
  }
  out += "\nNotes:\n";
  out +=
      "  ratio, rounds: each round times the roof and vkscan one after the other; ratio is\n"
      "    the median of the rounds' ratios and rounds their quartiles, so drift that moves\n"
      "    both methods of a round alike cancels (the ratio of the two GB/s medians can pair\n"
      "    a slow vkscan round with a fast roof round). A bar inside the rounds' range is met\n"
      "    in some rounds and missed in others.\n";
  out +=
      "  vkscan_us: median GPU time (timestamps); wall_us: host time around vkQueueSubmit +\n"
      "    vkWaitForFences of the same command buffer (for in-place cases it includes the\n"
      "    vkCmdCopyBuffer that restores the input before each run, which the GPU time "
      "excludes).\n";
  out += "  record_us: median CPU time of one Operator::record() into a command buffer.\n";
  out +=
      "  roof: each round, the faster of the two family champions (table above) copying\n"
      "    the case's bytes; bda = device addresses in push constants, ssbo = storage\n"
      "    buffers in a descriptor set, vec16 = 16 elements per invocation as 16-byte\n"
      "    vectors, strided4 = 4 scalars strided by the workgroup size, runsN = N\n"
      "    consecutive 64-byte blocks per invocation (u64x4>u32: loaded as 32-byte units,\n"
      "    stored as 32-bit words).\n";
  if (anyNaiveNa) {
    out +=
        "  naive n/a: one invocation loops over the whole axis, and lavapipe silently stops\n"
        "    an invocation after 65,535 loop iterations, so the naive kernel would return\n"
        "    wrong sums for axes longer than 65,535; it is not run there.\n";
  }
  out +=
      "  cpu: one thread, std::inclusive_scan (std::exclusive_scan) per line, strided\n"
      "    iterators along non-contiguous axes; float16: FP32 sums, F16C conversions.\n";
  out +=
      "  check: vkscan equals a canonical-order CPU reference bit for bit; naive and cpu\n"
      "    floats lie within the serial-sum error bound (integers exactly); the roof copy\n"
      "    equals its source.\n";
  return out;
}

std::string formatCsv(const Report& report) {
  std::string out = std::string(kCsvHeader) + "\n";
  for (const CaseResult& r : report.cases) {
    if (!r.ran) continue;
    std::string naive = r.naiveNs < 0 ? "n/a" : format("%.4f", r.gbps(r.naiveNs));
    out += format("%s,%s,%u,%s,%s,%.4f,%.4f,%.4f,%s,%.4f,%.2f\n", r.c.name.c_str(),
                  r.c.shapeText().c_str(), r.c.axis, r.c.typeText().c_str(),
                  r.c.flagsText().c_str(), r.gbps(r.vkscanNs), r.gbps(r.roofNs), r.ratio(),
                  naive.c_str(), r.gbps(r.cpuNs), r.vkscanNs / 1e3);
  }
  return out;
}

std::string formatMatrixCsv(const Report& report) {
  std::string out = std::string(kMatrixCsvHeader) + "\n";
  // Every case, those that failed before timing too (SKIPPED, zeros).
  for (const CaseResult& r : report.cases) {
    const char* check = !r.ran ? "SKIPPED" : r.failures.empty() ? "ok" : "FAIL";
    out += format("%s,%s,%u,%s,%llu,%s,%.3f,%.4f,%.3f,%.4f,%.3f,%.4f,%.4f,%.4f,%s,%u,%u,%s\n",
                  r.c.name.c_str(), r.c.shapeText().c_str(), r.c.axis, r.c.typeText().c_str(),
                  (unsigned long long)r.c.bytes(), r.deviceLocal ? "device" : "host",
                  r.vkscanNs / 1e3, r.gbps(r.vkscanNs), r.transferNs / 1e3, r.gbps(r.transferNs),
                  r.roofNs / 1e3, r.gbps(r.roofNs), r.transferSpread.median, r.ratio(),
                  r.roofKernel.c_str(), r.dispatches, r.repetitions, check);
  }
  return out;
}

}  // namespace vkscan::bench
