#!/bin/sh
# Plots vkscan-bench's CSV: GB/s (bytes read + written) of roof, vkscan, naive
# and cpu for every case, cases ordered by tensor size.
#
# Usage: scripts/plot-bench.sh [bench.csv [bench.png]]
#   defaults: docs/bench/xeon/bench.csv and the same name with .png
# Needs gnuplot; installs Debian's gnuplot-nox with apt-get when it is missing.
set -eu

csv=${1:-docs/bench/xeon/bench.csv}
png=${2:-${csv%.csv}.png}

if ! command -v gnuplot >/dev/null 2>&1; then
  echo "plot-bench: installing gnuplot-nox" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq gnuplot-nox >/dev/null
fi

header='case,shape,axis,dtype,flags,vkscan_gbps,roof_gbps,ratio,naive_gbps,cpu_gbps,vkscan_us'
if [ "$(head -n 1 "$csv")" != "$header" ]; then
  echo "plot-bench: $csv does not start with the vkscan-bench CSV header" >&2
  exit 1
fi

data=$(mktemp)
trap 'rm -f "$data"' EXIT
# bytes, label, vkscan, roof, naive (NaN when n/a), cpu; sorted by bytes.
# Cases below 4 KiB measure latency, not bandwidth, and are left out.
awk -F, 'NR > 1 {
  n = split($2, dims, "x"); elements = 1
  for (i = 1; i <= n; ++i) elements *= dims[i]
  size = ($4 == "f16") ? 2 : ($4 == "u64" || $4 == "i64" || $4 == "f64") ? 8 : 4
  bytes = elements * size
  if (bytes < 4096) next
  if (bytes >= 1048576) human = sprintf("%g MiB", bytes / 1048576)
  else human = sprintf("%g KiB", bytes / 1024)
  naive = ($9 == "n/a") ? "NaN" : $9
  printf "%.0f \"%s %s %s\\n%s, %s\" %s %s %s %s\n", bytes, $1, $4, $2, human, $5, $6, $7, naive, $10
}' "$csv" | sort -n -k1,1 -s > "$data"

gnuplot <<EOF
set terminal pngcairo size 1400,800 font ",10" noenhanced
set output "$png"
set title "vkscan-bench: GB/s (bytes read + written), cases ordered by tensor size; naive missing where the axis exceeds lavapipe's 65,535-iteration loop cap"
set ylabel "GB/s"
set logscale y
set grid ytics
set key top left
set xtics rotate by 35 right font ",8" nomirror
set bmargin 14
# Room for the first case's rotated label, which runs left of the axis.
set lmargin 18
set offsets 0.5, 0.5, 0, 0
plot "$data" using 0:4:xticlabels(2) with points pt 5 ps 1.4 lc rgb "#999999" title "roof (copy)", \
     "" using 0:3 with points pt 7 ps 1.6 lc rgb "#d62728" title "vkscan", \
     "" using 0:5 with points pt 9 ps 1.4 lc rgb "#1f77b4" title "naive", \
     "" using 0:6 with points pt 13 ps 1.4 lc rgb "#2ca02c" title "cpu (1 thread)"
EOF
echo "plot-bench: wrote $png" >&2
