#!/usr/bin/env bash
# The GPU kernels as a GPU's compiler builds them, without the GPU: Mesa's
# RADV driver on a null device (RADV_FORCE_FAMILY: no hardware, nothing runs)
# compiles every pipeline that the plans of the GPU matrix's cases create,
# and ACO's statistics (VK_KHR_pipeline_executable_properties) give the
# registers, spills, shared memory and waves per SIMD of each. Registers held
# through a look-back decide how many workgroups a GPU keeps in flight, and so
# how much of its memory's latency it hides (docs/performance.md).
#
#   kernel-stats.sh [VKSCAN]    VKSCAN: the vkscan tool (build/bin/vkscan)
#
# Environment: KERNEL_STATS_FAMILY (navi21: RDNA2, subgroups of 64).
# Needs mesa-vulkan-drivers (RADV); exits 1 where it is missing.
set -euo pipefail

vkscan=${1:-build/bin/vkscan}
[[ -x $vkscan ]] || {
  echo "kernel-stats: no $vkscan (build first)" >&2
  exit 1
}
icd=$(find /usr/share/vulkan/icd.d -name 'radeon_icd.*.json' 2>/dev/null | head -1)
[[ -n $icd ]] || {
  echo "kernel-stats: no RADV ICD in /usr/share/vulkan/icd.d (apt-get install mesa-vulkan-drivers)" >&2
  exit 1
}

# The GPU matrix's descriptors, as vkscan-bench lists them (beside VKSCAN).
bench=$(dirname "$vkscan")/vkscan-bench
plans=$("$bench" --gpu-matrix --list | cut -f2 | sort -u) || {
  echo "kernel-stats: $bench --gpu-matrix --list failed (build vkscan-bench first)" >&2
  exit 1
}

export RADV_FORCE_FAMILY=${KERNEL_STATS_FAMILY:-navi21}
export VK_DRIVER_FILES=$icd VKSCAN_PIPELINE_STATISTICS=1
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
unset VKSCAN_DEVICE

lines=$(while read -ra arguments; do
  "$vkscan" plan "${arguments[@]}" 2>&1 >/dev/null | grep '^vkscan: pipeline ' || true
done <<<"$plans" | sort -u)
[[ -n $lines ]] || {
  echo "kernel-stats: the null device reported no statistics (is RADV's the device vkscan took?)" >&2
  exit 1
}

echo "ACO on RADV's null $RADV_FORCE_FAMILY ($($vkscan --version 2>/dev/null || echo vkscan)):"
printf '%-72s %5s %5s %7s %6s %11s\n' pipeline VGPRs SGPRs "spill V/S" LDS waves/SIMD
# "vkscan: pipeline NAME: Compute Shader: Stat=value, ...": the statistics
# by name, whatever their order.
awk '{
  line = $0
  sub(/^vkscan: pipeline /, "", line)
  name = line
  sub(/: Compute Shader: .*/, "", name)
  stats = line
  sub(/.*: Compute Shader: /, "", stats)
  n = split(stats, fields, /, /)
  delete value
  for (i = 1; i <= n; ++i) {
    eq = index(fields[i], "=")
    if (eq > 0) value[substr(fields[i], 1, eq - 1)] = substr(fields[i], eq + 1)
  }
  printf "%-72s %5s %5s %7s %6s %11s\n", name, value["VGPRs"], value["SGPRs"],
    value["Spilled VGPRs"] "/" value["Spilled SGPRs"], value["LDS size"], value["Subgroups per SIMD"]
}' <<<"$lines"
