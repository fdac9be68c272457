#!/usr/bin/env bash
# The rows one pass holds few enough registers that a GPU keeps several of
# its workgroups in flight through their look-back, as a GPU's compiler
# builds it: ACO, Mesa's RADV on a null NAVI21 (scripts/kernel-stats.sh).
# 64 VGPRs an invocation (32-bit words, 64 bits for UINT64: 96) let four
# workgroups of 256 share an NVIDIA SM's 65,536 registers; the kernel held
# 88 (128 for UINT64) while its look-back's walk kept private arrays and its
# node stayed in registers (docs/performance.md). Exits 77 (skipped) where
# RADV is not installed. The columns one pass holds its lane's 16 vectors
# through the look-back (160 VGPRs for FLOAT32, docs/performance.md): its
# budget keeps it from growing, and its shared memory within Vulkan's least
# maxComputeSharedMemorySize (16 KiB), which the planner does not check.
#
#   register_budget.sh VKSCAN    VKSCAN: the vkscan tool
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
if ! find /usr/share/vulkan/icd.d -name 'radeon_icd.*.json' 2>/dev/null | grep -q .; then
  echo "register budget: skipped, no RADV (mesa-vulkan-drivers) to compile with"
  exit 77
fi
stats=$(bash "$root/scripts/kernel-stats.sh" "$1")
echo "$stats"

failed=0
# PIPELINE|VGPRs at most[|LDS bytes at most]: the pipelines vkscan-bench's
# 1-D and rows cases take, carried or not, few strided lines (staged along
# the axis, element by element), and its columns cases.
for budget in \
  "rows_onepass FLOAT32 wg 256 vector-loads staged|64" \
  "rows_onepass FLOAT32 wg 256 staged|64" \
  "rows_onepass FLOAT32 wg 256 vector-loads staged line-carries|64" \
  "rows_onepass FLOAT32 wg 256 in-place vector-loads staged|64" \
  "rows_onepass FLOAT16 wg 256 vector-loads staged|64" \
  "rows_onepass UINT64 wg 256 vector-loads staged|96" \
  "columns_onepass FLOAT32 wg 256|160|16384" \
  "columns_onepass FLOAT32 wg 256 scalar-lanes|168|16384" \
  "columns_onepass FLOAT32 wg 256 in-place scalar-lanes|176|16384"; do
  IFS='|' read -r pipeline most lds_most <<<"$budget"
  lds_most=${lds_most:-65536}
  # The row whose name, all but its last five columns, is the pipeline's:
  # a name may begin another's ("... staged" and "... staged line-carries").
  row=$(awk -v name="$pipeline" '{
    row = $1
    for (i = 2; i <= NF - 5; ++i) row = row " " $i
    if (row == name) print
  }' <<<"$stats")
  if [[ -z $row ]]; then
    echo "FAIL: no statistics for '$pipeline'"
    failed=1
    continue
  fi
  # The columns after the name: VGPRs, SGPRs, spilled VGPRs/SGPRs, LDS, waves.
  read -r vgprs _ spilled lds _ <<<"${row:${#pipeline}}"
  if ((vgprs > most)) || [[ ${spilled%/*} != 0 ]]; then
    echo "FAIL: $pipeline holds $vgprs VGPRs (at most $most), spills ${spilled%/*} VGPRs"
    failed=1
  fi
  if ((lds > lds_most)); then
    echo "FAIL: $pipeline takes $lds bytes of shared memory (at most $lds_most)"
    failed=1
  fi
done
exit "$failed"
