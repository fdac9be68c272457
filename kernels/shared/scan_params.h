// Push-constant block shared by the host (C++) and every kernel (GLSL), so the
// layout is written once. The host static_asserts the offsets (lib/scan_params.cpp).
//
// A dispatch scans `lineCount` lines of `axisLen` elements. Element k (in
// traversal order) of line l sits at element offset
//   lineOffset(l) + k * axisStride
// from the base address, where lineOffset decodes l over lineSize[0..2]
// (lineSize[0] fastest). Decreasing direction is expressed by the host as a
// negative axis stride from the last element, so kernels know one direction.
#ifndef VKSCAN_SCAN_PARAMS_H
#define VKSCAN_SCAN_PARAMS_H

#ifdef __cplusplus
#include <cstdint>
namespace vkscan::detail {
using uint = uint32_t;
#endif

// 64-bit fields. Kernels built without Int64 (VKSCAN_NO_INT64) see the same
// bytes as two 32-bit words, low word first: addresses as uvec2 (what
// GL_EXT_buffer_reference_uvec2 converts), strides as ivec2 whose low word
// the host keeps within int range for those kernels.
#if defined(__cplusplus) || !(defined(VKSCAN_NO_INT64) || defined(VKSCAN_SSBO))
#define VKSCAN_ADDRESS uint64_t
#define VKSCAN_STRIDE int64_t
#else
#define VKSCAN_ADDRESS uvec2
#define VKSCAN_STRIDE ivec2
#endif

// flags
#define VKSCAN_FLAG_FIRST_IS_POSITIVE_ZERO 1u
// storage-buffer kernels: aux holds carries (the address kernels test auxAddr != 0)
#define VKSCAN_FLAG_HAS_AUX 2u
// plain chunk stages: neighbouring invocations take neighbouring chunks of one
// line, not the same chunk of neighbouring lines (see chunkTask())
#define VKSCAN_FLAG_LINE_MAJOR_CHUNKS 4u
// scan stages: each output leaves its own element out (exclusive); read where
// the pipeline's VKSCAN_SPEC_EXCLUSIVE is VKSCAN_EXCLUSIVE_FROM_FLAGS
#define VKSCAN_FLAG_EXCLUSIVE 8u
// rows kernels: line i lies at i * axisLen elements from line 0 in input and
// output, so a staged segment may span several short lines (tileStaged())
#define VKSCAN_FLAG_PACKED_LINES 16u
// rows one pass: tile slot s is tile s / lineCount of line s % lineCount
// (tiles across lines first), not tile s % chunksPerLine of line s / chunksPerLine
#define VKSCAN_FLAG_LINES_FASTEST 32u
// rows kernels, staged tiles of a strided axis: element e of a segment (one
// line's) in traversal order, at the line's offset plus e's index times the
// axis stride, not in memory order (stagedAlongAxis())
#define VKSCAN_FLAG_STAGED_ALONG_AXIS 64u
// Never set by the host: the chunk kernels' touched words (kTouchAhead) feed
// a store made only under it, so that compilers keep those reads (a read
// whose value goes unused is dropped).
#define VKSCAN_FLAG_NEVER_SET 0x80000000u

// Storage-buffer kernels (VKSCAN_SSBO) read the three address fields as
// element offsets (low word) from the start of bindings 0, 1, 2.
struct ScanParams {
  VKSCAN_ADDRESS inAddr;   // device address of traversal element 0 of line 0
  VKSCAN_ADDRESS outAddr;  // likewise for the output
  VKSCAN_ADDRESS auxAddr;  // reduce: where chunk totals go; scan: carries in (0: none)
  VKSCAN_STRIDE inAxisStride;
  VKSCAN_STRIDE outAxisStride;
  VKSCAN_STRIDE inLineStride[3];
  VKSCAN_STRIDE outLineStride[3];
  uint lineSize[3];
  uint axisLen;
  uint lineCount;
  // Chunks per line along the axis; aux holds one value per (line, chunk).
  uint chunksPerLine;
  // rows kernels: log2 of invocations per line segment when chunksPerLine == 1.
  // columns kernels: tree levels inside one chunk (chunk = 16^levels elements).
  uint shape;
  uint groupsX;  // dispatch width, to flatten 2-D workgroup ids
  uint flags;
  // look-back pass: tiles in each block of invocations a CPU device's worker
  // takes in turn, whose lines it walks last first (0: no blocks, tiles in
  // line order; see kernels/chunk_lookback.comp).
  uint lookbackBlock;
};

#ifdef __cplusplus
}  // namespace vkscan::detail
#endif
#endif
