#include "plan/common.hpp"

#include <tuple>

namespace vkscan::detail {

const char* stageName(Stage stage) noexcept {
  switch (stage) {
    case Stage::RowsScan:
      return "rows_scan";
    case Stage::ChunkReduce:
      return "chunk_reduce";
    case Stage::ChunkScan:
      return "chunk_scan";
    case Stage::ChunkReduceInterleaved:
      return "chunk_reduce_interleaved";
    case Stage::ChunkScanInterleaved:
      return "chunk_scan_interleaved";
    case Stage::ChunkReduceRealigned:
      return "chunk_reduce_realigned";
    case Stage::ChunkScanRealigned:
      return "chunk_scan_realigned";
    case Stage::ChunkLookback:
      return "chunk_lookback";
    case Stage::ChunkLookbackRealigned:
      return "chunk_lookback_realigned";
    case Stage::RowsOnePass:
      return "rows_onepass";
    case Stage::ColumnsOnePass:
      return "columns_onepass";
    case Stage::Widen:
      return "widen";
    case Stage::Records:
      return "records";
  }
  return "unknown";
}

namespace {

auto tied(const PipelineKey& k) {
  return std::tie(k.stage, k.type, k.operation, k.signedValues, k.exclusive, k.vectorLoads,
                  k.reverse, k.wideVectors, k.partialNodes, k.fullNodes, k.lineDims, k.chunked,
                  k.laneVectors, k.scalarLanes, k.lookbackPolls, k.inPlace, k.touchAhead,
                  k.rowsPerIteration, k.nodeBarrier, k.segmentLength, k.workgroupSize,
                  k.storageBuffers, k.texelInput, k.stagedNodes, k.stagedSegment, k.lineCarryIn,
                  k.lineTotals, k.lookbackMissesPublished, k.lookbackStopLevel);
}

auto tied(const PlanLimits& l) {
  return std::tie(l.subgroupSize, l.maxWorkgroupInvocations, l.maxWorkgroupCountX,
                  l.maxWorkgroupCountY, l.pushDescriptor, l.maxStorageBufferRange,
                  l.minStorageBufferOffsetAlignment, l.subgroupShuffles, l.maxSharedMemoryBytes);
}

}  // namespace

bool PipelineKey::operator==(const PipelineKey& o) const noexcept {
  return tied(*this) == tied(o);
}

bool PlanLimits::operator==(const PlanLimits& o) const noexcept {
  return tied(*this) == tied(o);
}

size_t PipelineKeyHash::operator()(const PipelineKey& key) const noexcept {
  // FNV-1a a field at a time: every field, so equal keys hash equal.
  uint64_t hash = 0xcbf29ce484222325u;
  std::apply(
      [&hash](const auto&... field) {
        ((hash = (hash ^ static_cast<uint64_t>(field)) * 0x100000001b3u), ...);
      },
      tied(key));
  return static_cast<size_t>(hash);
}

}  // namespace vkscan::detail
