#include "kernel_binaries.hpp"

#include <vkscan_kernels.h>

namespace vkscan::detail {

KernelBinary kernelBinary(Stage stage, DataType type, bool storageBuffers) {
  namespace spv = spirv;
  // Indexed [stage][type] in the enums' declaration order.
  static const KernelBinary table[6][7] = {
      {{spv::spv_rows_reduce_f32, spv::spv_rows_reduce_f32_words},
       {spv::spv_rows_reduce_f16, spv::spv_rows_reduce_f16_words},
       {spv::spv_rows_reduce_i32, spv::spv_rows_reduce_i32_words},
       {spv::spv_rows_reduce_u32, spv::spv_rows_reduce_u32_words},
       {spv::spv_rows_reduce_i64, spv::spv_rows_reduce_i64_words},
       {spv::spv_rows_reduce_u64, spv::spv_rows_reduce_u64_words},
       {spv::spv_rows_reduce_f64, spv::spv_rows_reduce_f64_words}},
      {{spv::spv_rows_scan_f32, spv::spv_rows_scan_f32_words},
       {spv::spv_rows_scan_f16, spv::spv_rows_scan_f16_words},
       {spv::spv_rows_scan_i32, spv::spv_rows_scan_i32_words},
       {spv::spv_rows_scan_u32, spv::spv_rows_scan_u32_words},
       {spv::spv_rows_scan_i64, spv::spv_rows_scan_i64_words},
       {spv::spv_rows_scan_u64, spv::spv_rows_scan_u64_words},
       {spv::spv_rows_scan_f64, spv::spv_rows_scan_f64_words}},
      {{spv::spv_chunk_reduce_f32, spv::spv_chunk_reduce_f32_words},
       {spv::spv_chunk_reduce_f16, spv::spv_chunk_reduce_f16_words},
       {spv::spv_chunk_reduce_i32, spv::spv_chunk_reduce_i32_words},
       {spv::spv_chunk_reduce_u32, spv::spv_chunk_reduce_u32_words},
       {spv::spv_chunk_reduce_i64, spv::spv_chunk_reduce_i64_words},
       {spv::spv_chunk_reduce_u64, spv::spv_chunk_reduce_u64_words},
       {spv::spv_chunk_reduce_f64, spv::spv_chunk_reduce_f64_words}},
      {{spv::spv_chunk_scan_f32, spv::spv_chunk_scan_f32_words},
       {spv::spv_chunk_scan_f16, spv::spv_chunk_scan_f16_words},
       {spv::spv_chunk_scan_i32, spv::spv_chunk_scan_i32_words},
       {spv::spv_chunk_scan_u32, spv::spv_chunk_scan_u32_words},
       {spv::spv_chunk_scan_i64, spv::spv_chunk_scan_i64_words},
       {spv::spv_chunk_scan_u64, spv::spv_chunk_scan_u64_words},
       {spv::spv_chunk_scan_f64, spv::spv_chunk_scan_f64_words}},
      {{spv::spv_chunk_reduce_interleaved_f32, spv::spv_chunk_reduce_interleaved_f32_words},
       {spv::spv_chunk_reduce_interleaved_f16, spv::spv_chunk_reduce_interleaved_f16_words},
       {spv::spv_chunk_reduce_interleaved_i32, spv::spv_chunk_reduce_interleaved_i32_words},
       {spv::spv_chunk_reduce_interleaved_u32, spv::spv_chunk_reduce_interleaved_u32_words},
       {spv::spv_chunk_reduce_interleaved_i64, spv::spv_chunk_reduce_interleaved_i64_words},
       {spv::spv_chunk_reduce_interleaved_u64, spv::spv_chunk_reduce_interleaved_u64_words},
       {spv::spv_chunk_reduce_interleaved_f64, spv::spv_chunk_reduce_interleaved_f64_words}},
      {{spv::spv_chunk_scan_interleaved_f32, spv::spv_chunk_scan_interleaved_f32_words},
       {spv::spv_chunk_scan_interleaved_f16, spv::spv_chunk_scan_interleaved_f16_words},
       {spv::spv_chunk_scan_interleaved_i32, spv::spv_chunk_scan_interleaved_i32_words},
       {spv::spv_chunk_scan_interleaved_u32, spv::spv_chunk_scan_interleaved_u32_words},
       {spv::spv_chunk_scan_interleaved_i64, spv::spv_chunk_scan_interleaved_i64_words},
       {spv::spv_chunk_scan_interleaved_u64, spv::spv_chunk_scan_interleaved_u64_words},
       {spv::spv_chunk_scan_interleaved_f64, spv::spv_chunk_scan_interleaved_f64_words}},
  };
  if (storageBuffers) {
    // Chunk stages only, indexed [stage - ChunkReduce][type].
    static const KernelBinary ssbo[4][7] = {
        {{spv::spv_chunk_reduce_ssbo_f32, spv::spv_chunk_reduce_ssbo_f32_words},
         {spv::spv_chunk_reduce_ssbo_f16, spv::spv_chunk_reduce_ssbo_f16_words},
         {spv::spv_chunk_reduce_ssbo_i32, spv::spv_chunk_reduce_ssbo_i32_words},
         {spv::spv_chunk_reduce_ssbo_u32, spv::spv_chunk_reduce_ssbo_u32_words},
         {spv::spv_chunk_reduce_ssbo_i64, spv::spv_chunk_reduce_ssbo_i64_words},
         {spv::spv_chunk_reduce_ssbo_u64, spv::spv_chunk_reduce_ssbo_u64_words},
         {spv::spv_chunk_reduce_ssbo_f64, spv::spv_chunk_reduce_ssbo_f64_words}},
        {{spv::spv_chunk_scan_ssbo_f32, spv::spv_chunk_scan_ssbo_f32_words},
         {spv::spv_chunk_scan_ssbo_f16, spv::spv_chunk_scan_ssbo_f16_words},
         {spv::spv_chunk_scan_ssbo_i32, spv::spv_chunk_scan_ssbo_i32_words},
         {spv::spv_chunk_scan_ssbo_u32, spv::spv_chunk_scan_ssbo_u32_words},
         {spv::spv_chunk_scan_ssbo_i64, spv::spv_chunk_scan_ssbo_i64_words},
         {spv::spv_chunk_scan_ssbo_u64, spv::spv_chunk_scan_ssbo_u64_words},
         {spv::spv_chunk_scan_ssbo_f64, spv::spv_chunk_scan_ssbo_f64_words}},
        {{spv::spv_chunk_reduce_interleaved_ssbo_f32,
          spv::spv_chunk_reduce_interleaved_ssbo_f32_words},
         {spv::spv_chunk_reduce_interleaved_ssbo_f16,
          spv::spv_chunk_reduce_interleaved_ssbo_f16_words},
         {spv::spv_chunk_reduce_interleaved_ssbo_i32,
          spv::spv_chunk_reduce_interleaved_ssbo_i32_words},
         {spv::spv_chunk_reduce_interleaved_ssbo_u32,
          spv::spv_chunk_reduce_interleaved_ssbo_u32_words},
         {spv::spv_chunk_reduce_interleaved_ssbo_i64,
          spv::spv_chunk_reduce_interleaved_ssbo_i64_words},
         {spv::spv_chunk_reduce_interleaved_ssbo_u64,
          spv::spv_chunk_reduce_interleaved_ssbo_u64_words},
         {spv::spv_chunk_reduce_interleaved_ssbo_f64,
          spv::spv_chunk_reduce_interleaved_ssbo_f64_words}},
        {{spv::spv_chunk_scan_interleaved_ssbo_f32, spv::spv_chunk_scan_interleaved_ssbo_f32_words},
         {spv::spv_chunk_scan_interleaved_ssbo_f16, spv::spv_chunk_scan_interleaved_ssbo_f16_words},
         {spv::spv_chunk_scan_interleaved_ssbo_i32, spv::spv_chunk_scan_interleaved_ssbo_i32_words},
         {spv::spv_chunk_scan_interleaved_ssbo_u32, spv::spv_chunk_scan_interleaved_ssbo_u32_words},
         {spv::spv_chunk_scan_interleaved_ssbo_i64, spv::spv_chunk_scan_interleaved_ssbo_i64_words},
         {spv::spv_chunk_scan_interleaved_ssbo_u64, spv::spv_chunk_scan_interleaved_ssbo_u64_words},
         {spv::spv_chunk_scan_interleaved_ssbo_f64,
          spv::spv_chunk_scan_interleaved_ssbo_f64_words}},
    };
    return ssbo[static_cast<int>(stage) - static_cast<int>(Stage::ChunkReduce)]
               [static_cast<int>(type)];
  }
  return table[static_cast<int>(stage)][static_cast<int>(type)];
}

}  // namespace vkscan::detail
