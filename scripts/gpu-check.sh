#!/usr/bin/env bash
# The ready check for a real GPU (issue 47, docs/gpu-check.md), in two modes:
#
#   gpu-check.sh bundle DIR       here (Debian 12, no GPU): build a Release tree in
#                                 build-gpu-bundle/ and put into DIR what the GPU
#                                 machine needs (binaries, the Vulkan loader .deb, the
#                                 torch peer, this script), under 64 MiB in all
#   gpu-check.sh run BUNDLE OUT   on the GPU machine (x86-64, NVIDIA driver, no Vulkan
#                                 loader, no network): device info, the test suites on
#                                 the GPU, vkscan-bench --gpu-matrix and the torch peer,
#                                 logs, CSV and a summary to OUT, within 8 minutes
#
# Environment, bundle: JOBS (parallel build jobs, 2), VKSCAN_SPIRV_FROM (a build
# tree of the same kernels to take SPIR-V from), GPU_CHECK_LIMIT_MIB (largest
# bundle, 60: the device tool carries 64 MiB with the working tree),
# GPU_CHECK_BASELINE (a commit whose library and benchmark the run also times,
# on GPU_CHECK_BASELINE_CASES, in the same run: an A/B of a kernel change).
# Environment, run: GPU_CHECK_DEVICE (VKSCAN_DEVICE for every step, NVIDIA),
# GPU_CHECK_ALLOW_CPU=1 (accept a CPU device such as lavapipe: to rehearse the run
# where there is no GPU), GPU_CHECK_QUICK=1 (vkscan-bench --quick
# --device-local), GPU_CHECK_SKIP_TORCH=1, GPU_CHECK_TEST_ARGS (doctest
# arguments for every test binary, e.g. a -tc= filter), GPU_CHECK_TOTAL_S (480),
# GPU_CHECK_FOCUS_ARGS and GPU_CHECK_FOCUS_PROFILES (doctest arguments and
# VKSCAN_TEST_PROFILES of a first vkscan_tests run, up to 90 s: by default the
# cases of the GPU plans' kernels, with the GPU-tuned profiles; "none" in either:
# no such run), GPU_CHECK_TEST_SHARDS (processes per suite, half the CPUs, at most 8),
# GPU_CHECK_BENCH_ARGS (more vkscan-bench arguments, e.g. "--case 1d_"),
# GPU_CHECK_BASELINE_CASES (the baseline's --case names, "1d_1m 1d_16m 1d_256m$
# rows_16k short_rows_16m", as --case takes them), GPU_CHECK_VARIANTS
# (VKSCAN_TUNING values, ';' between them, whose plans a step `variants` times on
# GPU_CHECK_VARIANT_CASES where 1-D FLOAT32 2^28 misses a bar of issue 47 or
# rows_16k is under 0.7 of the compute-copy roof, or always with
# GPU_CHECK_VARIANTS_ALWAYS=1; "none": never), GPU_CHECK_FEW_LINES (tunings,
# ';' between them, whose plans a step `few-lines` times on columns_x3 and
# columns_x4 in every run: where few lines off vectors belong; "none": never),
# GPU_CHECK_SHORT_COLUMNS (the same for a step `short-columns` on columns_64
# and columns_small: where short strided lines and small problems belong),
# GPU_CHECK_COLUMNS_WORKGROUPS (the same for a step `columns-workgroups` on
# columns_16k and columns_16k_odd: the columns one pass's workgroup size).
set -uo pipefail

usage() {
  # The header comment, down to the first line of code.
  sed -n '2,/^set -uo pipefail/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 2
}

log() { printf 'gpu-check: %s\n' "$*" >&2; }

# The test binaries, most wanted first: the bundle keeps those that fit.
# The Vulkan loader, and the glvnd libraries NVIDIA's driver loads through:
# on an H200 the loader alone gave "incompatible driver".
LOADER_PACKAGES=(libvulkan1 libglvnd0 libglx0 libgl1 libegl1 libopengl0 libgles2)
TESTS=(vkscan_tests vkscan_reliability_tests vkscan_concurrency_tests)

bundle() {
  local dir=$1
  local root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  local build=$root/build-gpu-bundle
  local limit_mib=${GPU_CHECK_LIMIT_MIB:-60}
  local spirv=()
  [[ -n ${VKSCAN_SPIRV_FROM:-} ]] && spirv=("-DVKSCAN_SPIRV_FROM=$VKSCAN_SPIRV_FROM")
  mkdir -p "$build"
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DVKSCAN_BUILD_TESTS=ON \
    -DVKSCAN_BUILD_TOOLS=ON "${spirv[@]}" >"$build/configure.log" 2>&1 ||
    { cat "$build/configure.log" >&2; return 1; }
  cmake --build "$build" -j "${JOBS:-2}" --target vkscan vkscan_cli vkscan-bench "${TESTS[@]}" ||
    return 1

  # The binaries travel as one gzip tarball: the embedded SPIR-V compresses
  # several times over, which keeps the suites inside the 64 MiB a call carries.
  # Only an empty folder or an earlier bundle is replaced.
  if [[ -d $dir && -n $(ls -A "$dir") && ! -f $dir/MANIFEST ]]; then
    log "$dir is not empty and holds no bundle: not replacing it"
    return 1
  fi
  rm -rf "$dir"
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  local stage
  stage=$(mktemp -d)
  mkdir -p "$stage/bin" "$stage/lib" "$stage/tests"
  cp -P "$build"/lib/libvkscan.so* "$stage/lib/"
  cp "$build/bin/vkscan" "$build/bin/vkscan-bench" "$stage/bin/"
  for t in "${TESTS[@]}"; do cp "$build/bin/$t" "$stage/tests/"; done
  local parts=(bin lib tests)
  if [[ -n ${GPU_CHECK_BASELINE:-} ]]; then
    bundle_baseline "$root" "$GPU_CHECK_BASELINE" "$stage/baseline" || return 1
    parts+=(baseline)
  fi
  find "$stage" -type f -exec strip --strip-unneeded {} +

  # Debian's loader for amd64, whatever this machine's architecture, with a
  # private package list so that nothing of the system's apt state changes.
  local lists
  lists=$(mktemp -d)
  mkdir -p "$lists/partial"
  local apt=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 "-oDir::State::Lists=$lists")
  if ! apt-get "${apt[@]}" update >"$dir/apt.log" 2>&1 ||
    ! (cd "$dir" && apt-get "${apt[@]}" download "${LOADER_PACKAGES[@]}" >>"$dir/apt.log" 2>&1)
  then
    log "apt-get download ${LOADER_PACKAGES[*]} failed:"
    tail -5 "$dir/apt.log" >&2
    return 1
  fi
  rm -rf "$lists" "$dir/apt.log"

  cp "$root/tools/bench/torch_peer.py" "$root/scripts/gpu-check.sh" "$dir/"

  # Drop test binaries, least wanted first, until the bundle fits.
  local kept=("${TESTS[@]}") left_out=()
  while :; do
    tar -czf "$dir/vkscan-gpu.tar.gz" -C "$stage" "${parts[@]}"
    local kib
    kib=$(du -sk "$dir" | cut -f1)
    if ((kib <= limit_mib * 1024)) || ((${#kept[@]} == 0)); then break; fi
    local last=${kept[-1]}
    unset 'kept[-1]'
    left_out=("$last" "${left_out[@]}")
    rm "$stage/tests/$last"
    log "bundle over ${limit_mib} MiB: leaving out $last"
  done
  rm -rf "$stage"
  {
    echo "commit $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
    echo "made $(date -u +%FT%TZ) on $(uname -m)"
    echo "tests ${kept[*]}"
    [[ -n ${GPU_CHECK_BASELINE:-} ]] &&
      echo "baseline $(git -C "$root" rev-parse "$GPU_CHECK_BASELINE")"
    echo "left_out ${left_out[*]}"
  } >"$dir/MANIFEST"
  if ((${#left_out[@]} > 0)); then
    log "LEFT OUT (over ${limit_mib} MiB): ${left_out[*]}"
  fi
  log "bundle $dir: $(du -sh "$dir" | cut -f1) (limit ${limit_mib} MiB); tests: ${kept[*]}"
  ls -l "$dir" >&2
}

# The library and benchmark of commit $2 of the checkout at $1, built in
# build-gpu-baseline/ from its own sources, into $3/bin and $3/lib.
bundle_baseline() {
  local root=$1 commit=$2 into=$3
  local base=$root/build-gpu-baseline
  rm -rf "$base/src"
  mkdir -p "$base/src" "$into/bin" "$into/lib"
  git -C "$root" archive "$commit" | tar -x -C "$base/src" || {
    log "baseline $commit: git archive failed"
    return 1
  }
  cmake -S "$base/src" -B "$base/build" -DCMAKE_BUILD_TYPE=Release -DVKSCAN_BUILD_TESTS=OFF \
    -DVKSCAN_BUILD_TOOLS=ON >"$base/configure.log" 2>&1 ||
    { cat "$base/configure.log" >&2; return 1; }
  cmake --build "$base/build" -j "${JOBS:-2}" --target vkscan vkscan-bench || return 1
  cp -P "$base/build"/lib/libvkscan.so* "$into/lib/"
  cp "$base/build/bin/vkscan-bench" "$into/bin/"
}

# --- run -------------------------------------------------------------------

STEPS_CSV=
TOTAL_S=480

# Seconds left of the run's budget, less a reserve for the summary.
left_s() { echo $((TOTAL_S - 15 - SECONDS)); }

# step NAME BUDGET_S COMMAND...: runs with a timeout of the smaller of BUDGET_S
# and what is left, output to OUT/NAME.log, and records the outcome.
step() {
  local name=$1 budget=$2
  shift 2
  local left
  left=$(left_s)
  ((budget > left)) && budget=$left
  if ((budget < 5)); then
    log "$name: SKIPPED (no time left)"
    echo "$name,skipped,0,-" >>"$STEPS_CSV"
    return 1
  fi
  log "$name: up to ${budget}s"
  # timeout runs programs, not functions: a function runs in a child bash.
  if [[ $(type -t "$1") == function ]]; then
    # shellcheck disable=SC2163  # exports the function that $1 names
    export -f "$1"
    set -- bash -c '"$@"' bash "$@"
  fi
  local start=$SECONDS rc
  timeout --kill-after=10 "$budget" "$@" >"$OUT/$name.log" 2>&1
  rc=$?
  local status=pass
  ((rc != 0)) && status=fail
  ((rc == 124 || rc == 137)) && status=timeout
  echo "$name,$status,$((SECONDS - start)),$rc" >>"$STEPS_CSV"
  log "$name: $status (rc $rc, $((SECONDS - start))s)"
  return "$rc"
}

# The Vulkan loader from the bundle's .deb, in a private prefix: nothing of
# the machine's own libraries changes.
unpack() {
  local bundle=$1 work=$2
  mkdir -p "$work/root"
  tar -xzf "$bundle/vkscan-gpu.tar.gz" -C "$work" || return 1
  local deb
  for deb in "$bundle"/*.deb; do
    if command -v dpkg >/dev/null; then
      dpkg -x "$deb" "$work/root" || return 1
    else
      # A .deb is an ar archive: its data.tar.* holds the files.
      (cd "$work/root" && ar p "$deb" "$(ar t "$deb" | grep '^data.tar')" | tar -x) || return 1
    fi
  done
  ls "$work/root/usr/lib/x86_64-linux-gnu/libvulkan.so.1" >/dev/null || return 1
}

# The lib suite's cases of the kernels GPU plans take and lavapipe's own plans
# never do (the one passes, staged tiles, carries in the kernels), and the
# profiles that plan for a GPU: what the whole suite's cap must not starve.
DEFAULT_FOCUS_ARGS='-tc=rows kernels:*,one-pass kernels*,single pass with look-back*,look-back:*,columns one pass*,carry: one-pass*,carry: one scan*,carry: a device of GPU*,long axes*,axis lengths*,spec example*'
DEFAULT_FOCUS_PROFILES='native,gpu-tuning,small-workgroups'

# shards LOG N COMMAND...: COMMAND, a doctest binary with its arguments, in N
# processes at once, the cases its filters pass dealt out round-robin in
# file order (so that one file's slow cases spread), each process given its
# names as the last -tc (commas and backslashes escaped), its output in
# LOG.K; fails where any shard fails. A driver compiles pipelines on the
# CPU, one at a time per process, so shards put a machine's other cores to
# work.
shards() {
  local log=$1 n=$2
  shift 2
  local names=()
  # The names between the two rules of '=' after the listing's title.
  mapfile -t names < <("$@" --list-test-cases 2>/dev/null |
    awk '/listing all test case names/ { title = 1; next }
         title && /^=+$/ { if (++rule == 2) exit; next }
         rule == 1')
  local count=${#names[@]}
  ((n > count)) && n=$count
  if ((n <= 1)); then
    "$@"
    return
  fi
  local k i name filter rc=0 pids=()
  for ((k = 0; k < n; ++k)); do
    filter=
    for ((i = k; i < count; i += n)); do
      name=${names[i]//\\/\\\\}
      filter+=${filter:+,}${name//,/\\,}
    done
    "$@" "-tc=$filter" >"$log.$k" 2>&1 &
    pids+=($!)
  done
  for k in "${!pids[@]}"; do
    wait "${pids[k]}" || rc=1
    echo "shard $k of $n (cases $((k + 1)), $((k + 1 + n)), ... of $count):"
    grep -E '^\[doctest\] (test cases|assertions|Status)' "$log.$k"
  done
  return "$rc"
}

# Shards of each suite: half the CPUs, at most 8 (GPU_CHECK_TEST_SHARDS).
test_shards() {
  local cpus
  cpus=$(nproc 2>/dev/null || echo 2)
  local n=${GPU_CHECK_TEST_SHARDS:-$((cpus / 2))}
  ((n > 8)) && n=8
  ((n < 1)) && n=1
  echo "$n"
}

# Whether the run has its test-focus step: "none" in either of its knobs
# skips it (VKSCAN_TEST_PROFILES=none would fail every case instead).
focus_wanted() {
  [[ ${GPU_CHECK_FOCUS_ARGS:-} != none && ${GPU_CHECK_FOCUS_PROFILES:-} != none ]]
}

run_tests() {
  local work=$1 name
  # The GPU paths (or known failures) first, so that the whole suites' caps
  # cannot starve them.
  local focus=${GPU_CHECK_FOCUS_ARGS:-$DEFAULT_FOCUS_ARGS} shard_count
  shard_count=$(test_shards)
  if focus_wanted && [[ -x $work/tests/vkscan_tests ]]; then
    step test-focus 90 shards "$OUT/test-focus.log" "$shard_count" \
      env VKSCAN_TEST_PROFILES="${GPU_CHECK_FOCUS_PROFILES:-$DEFAULT_FOCUS_PROFILES}" \
      "$work/tests/vkscan_tests" --duration=true "$focus"
  fi
  for name in "${TESTS[@]}"; do
    local test=$work/tests/$name
    [[ -x $test ]] || continue
    # The lib suite gets the most time; each binary stops at its cap and the
    # log keeps the cases that finished (--duration names the slow ones).
    local budget=40
    [[ $name == vkscan_tests ]] && budget=110
    [[ $name == vkscan_concurrency_tests ]] && budget=25
    local extra=()
    [[ -n ${GPU_CHECK_TEST_ARGS:-} ]] && extra=("$GPU_CHECK_TEST_ARGS")
    # The concurrency suite runs threads of its own.
    local n=$shard_count
    [[ $name == vkscan_concurrency_tests ]] && n=1
    step "test-$name" "$budget" shards "$OUT/test-$name.log" "$n" "$test" --duration=true \
      "${extra[@]}"
  done
}

# Default plans of other tunings (VKSCAN_TUNING): the one pass's waits
# shorter and longer, tiles not staged, rows' tiles across lines first, the
# CPU planner's reduce-then-scan.
DEFAULT_VARIANTS='lookbackPolls=16;lookbackPolls=4096;rowsStagedNodes=0;rowsLinesFastest=1;planner=cpu'
DEFAULT_VARIANT_CASES='1d_16m$ 1d_256m$ rows_16k$ rows_262144$'

# Few lines off vectors (columns_x3: the rows one pass staged along the axis
# by default) under the columns one pass and under the chunk walks; columns_x4,
# the columns one pass on one vector lane, under the chunk walks too.
DEFAULT_FEW_LINES='columnsScalarLines=1;rowsStagedNodes=0'
FEW_LINES_CASES='columns_x3$ columns_x4$'

# Short columns (columns_64: the columns one pass in one tile by default)
# under the chunk walks' three passes, and walked whole in one pass; a small
# strided problem (columns_small: the columns one pass) walked whole too.
DEFAULT_SHORT_COLUMNS='columnsOneTile=0;wholeLineInvocations=1'
SHORT_COLUMNS_CASES='columns_64$ columns_small$'

# The columns one pass in smaller workgroups (256 by default): a GPU whose
# registers hold one workgroup of 256 holds several of 128 or 64, which wait
# out their look-backs apart (kernels/columns_onepass.comp).
DEFAULT_COLUMNS_WORKGROUPS='columnsWorkgroupSize=128;columnsWorkgroupSize=64'
COLUMNS_WORKGROUPS_CASES='columns_16k$ columns_16k_odd$'

# variants BENCH OUT QUICK LIST CASES [PREFIX]: the cases again under each
# tuning of LIST (';' between them), 11 repetitions each: OUT/PREFIX-N.csv,
# and OUT/PREFIXs.txt naming N's tuning (PREFIX: variant). Which knob moves
# a plan, in the same run and without a rebuild.
variants() {
  local bench=$1 out=$2 quick=$3 list=$4 prefix=${6:-variant} name i=0 rc=0 tuning
  local args=(--gpu-matrix --repeat 11)
  for name in $5; do args+=(--case "$name"); done
  [[ $quick == 1 ]] && args+=(--quick --device-local)
  local tunings
  IFS=';' read -ra tunings <<<"$list"
  : >"$out/${prefix}s.txt"
  for tuning in "${tunings[@]}"; do
    i=$((i + 1))
    printf '%s\t%s\n' "$i" "$tuning" >>"$out/${prefix}s.txt"
    echo "== $prefix $i: VKSCAN_TUNING=$tuning"
    VKSCAN_TUNING=$tuning "$bench" "${args[@]}" --csv-file "$out/$prefix-$i.csv" || rc=1
  done
  return "$rc"
}

# plan_choices BENCH STEP CAP LIST CASES PREFIX: a step of variants() in every
# run, where LIST is not "none".
plan_choices() {
  local bench=$1 name=$2 cap=$3 list=$4 cases=$5 prefix=$6
  if [[ $list == none ]]; then
    echo "$name,skipped,0,-" >>"$STEPS_CSV"
    return
  fi
  step "$name" "$cap" variants "$bench" "$OUT" "${GPU_CHECK_QUICK:-0}" "$list" "$cases" "$prefix"
}

# report MODE, from OUT's CSVs: `summary` writes OUT/summary.txt and prints
# it; `one-pass-short` exits 0 where the bench left 1-D FLOAT32 2^28 short of
# a bar of issue 47, or unmeasured, or rows_16k under 0.7 of the compute-copy
# roof (then the variants are worth their time).
report() {
  python3 - "$OUT" "$1" <<'EOF'
import csv, os, sys
out, mode = sys.argv[1], sys.argv[2]
def rows(name):
    path = os.path.join(out, name)
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {r["case"]: r for r in csv.DictReader(f)}
bench, torch = rows("bench.csv"), rows("torch.csv")
# Issue 47's bars for an H100, as (text, met, whether a 1-D bar).
def bars():
    found = []
    if "1d_256m" in bench:
        r = bench["1d_256m"]
        found.append(("1-D FLOAT32 2^28 >= 0.8 of vkCmdCopyBuffer",
                      float(r["ratio_copybuffer"]) >= 0.8, True))
        if "1d_256m" in torch:
            found.append(("1-D FLOAT32 2^28 <= 1.1 x torch.cumsum time",
                          float(r["vkscan_us"]) <= 1.1 * float(torch["1d_256m"]["cumsum_us"]),
                          True))
    for case in ("rows_16k", "columns_16k"):
        if case in bench:
            found.append((f"{case} >= 0.7 of vkCmdCopyBuffer",
                          float(bench[case]["ratio_copybuffer"]) >= 0.7, False))
    if "latency" in bench:
        found.append(("latency [1,1,3,4] < 10 us GPU time",
                      float(bench["latency"]["vkscan_us"]) < 10, False))
    return found
if mode == "one-pass-short":
    one_d = [met for _, met, is_one_d in bars() if is_one_d]
    rows_short = "rows_16k" in bench and float(bench["rows_16k"]["ratio_roof"]) < 0.7
    sys.exit(0 if not one_d or not all(one_d) or rows_short else 1)
lines = ["steps:"]
with open(os.path.join(out, "steps.csv")) as f:
    for r in csv.DictReader(f):
        lines.append(f"  {r['step']:34s} {r['status']:8s} {r['seconds']:>4s}s rc {r['rc']}")
if bench:
    lines.append("vkscan-bench --gpu-matrix (ratios: vkscan speed / copy speed; torch: vkscan "
                 "time / torch.cumsum time):")
    lines.append(f"  {'case':15s} {'vkscan_us':>10s} {'GB/s':>8s} {'r_copybuf':>9s} "
                 f"{'r_roof':>7s} {'torch_us':>9s} {'t/torch':>7s} check")
    for case, r in bench.items():
        t = torch.get(case)
        tus = float(t["cumsum_us"]) if t else None
        vus = float(r["vkscan_us"])
        ratio = f"{vus / tus:7.3f}" if tus else "    n/a"
        tcol = f"{tus:9.1f}" if tus else "      n/a"
        lines.append(f"  {case:15s} {vus:10.1f} {float(r['vkscan_gbps']):8.1f} "
                     f"{float(r['ratio_copybuffer']):9.3f} {float(r['ratio_roof']):7.3f} "
                     f"{tcol} {ratio} {r['check']}")
    lines.append("bars of issue 47 (for an H100):")
    lines += [f"  {text}: {'met' if met else 'MISSED'}" for text, met, _ in bars()]
    # The same 65536 tiles behind 0, 1, 2 and 4 levels of look-back.
    ladder = [(c, n) for c, n in (("rows_4096", 0), ("rows_16k", 1), ("rows_262144", 2),
                                  ("1d_256m", 4)) if c in bench]
    if ladder:
        lines.append("look-back ladder (the same tiles; share of the compute-copy roof):")
        lines += [f"  {c:12s} levels {n}  {float(bench[c]['ratio_roof']):.3f}" for c, n in ladder]
    baseline = rows("bench-baseline.csv")
    if baseline:
        lines.append("baseline (MANIFEST's commit) in the same run: GPU time, and this "
                     "build's over the baseline's:")
        lines.append(f"  {'case':15s} {'baseline_us':>11s} {'this_us':>10s} {'ratio':>7s} check")
        for case, b in baseline.items():
            r = bench.get(case)
            bus = float(b["vkscan_us"])
            tus = float(r["vkscan_us"]) if r else None
            ratio = f"{tus / bus:7.3f}" if tus else "    n/a"
            tcol = f"{tus:10.1f}" if tus else "       n/a"
            lines.append(f"  {case:15s} {bus:11.1f} {tcol} {ratio} {b['check']}")
    for prefix, step in (("variant", "variants"), ("few-line", "few-lines"),
                         ("short-column", "short-columns"),
                         ("columns-workgroup", "columns-workgroups")):
        listed = os.path.join(out, f"{prefix}s.txt")
        if not os.path.exists(listed):
            continue
        lines.append(f"{step} (VKSCAN_TUNING) in the same run: GPU time, and over bench.csv's:")
        lines.append(f"  {'tuning':36s} {'case':15s} {'vkscan_us':>10s} {'ratio':>7s} check")
        for entry in open(listed):
            number, tuning = entry.rstrip("\n").split("\t", 1)
            variant = rows(f"{prefix}-{number}.csv")
            if not variant:
                lines.append(f"  {tuning:36s} (no rows: see {step}.log)")
            for case, v in variant.items():
                r = bench.get(case)
                vus = float(v["vkscan_us"])
                ratio = f"{vus / float(r['vkscan_us']):7.3f}" if r else "    n/a"
                lines.append(f"  {tuning:36s} {case:15s} {vus:10.1f} {ratio} {v['check']}")
else:
    lines.append("no bench.csv: see bench.log for the cases that finished")
stats_log = os.path.join(out, "stats.log")
if os.path.exists(stats_log):
    stats = [l.strip() for l in open(stats_log, errors="replace") if l.startswith("vkscan: pipeline ")]
    lines.append(f"pipeline statistics (stats.log): {len(stats)} lines; the one-pass kernels':")
    lines += ["  " + l[len("vkscan: pipeline "):] for l in stats if "_onepass" in l][:16]
text = "\n".join(lines) + "\n"
open(os.path.join(out, "summary.txt"), "w").write(text)
print(text, end="")
EOF
}

summarize() { report summary; }
one_pass_short() { report one-pass-short; }

run() {
  local bundle out
  bundle=$(cd "$1" && pwd) || return 2
  mkdir -p "$2" || return 2
  out=$(cd "$2" && pwd)
  OUT=$out
  TOTAL_S=${GPU_CHECK_TOTAL_S:-480}
  STEPS_CSV=$OUT/steps.csv
  echo "step,status,seconds,rc" >"$STEPS_CSV"
  local work
  work=$(mktemp -d /tmp/vkscan-gpu-check.XXXXXX)
  export XDG_RUNTIME_DIR=/tmp
  # No validation layer on the GPU machine: the suites run without it.
  unset VKSCAN_REQUIRE_VALIDATION
  export VKSCAN_TEST_VALIDATION=0

  step unpack 30 unpack "$bundle" "$work" || { summarize; return 1; }
  export LD_LIBRARY_PATH=$work/lib:$work/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  local vkscan=$work/bin/vkscan
  local device=${GPU_CHECK_DEVICE:-NVIDIA}
  if [[ ${GPU_CHECK_ALLOW_CPU:-0} == 1 ]]; then device=${GPU_CHECK_DEVICE:-}; fi

  # The loader may not search the driver's folder: name its manifest then.
  local icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  if ! "$vkscan" info 2>&1 | grep -q -- "${device:-Devices:}" && [[ -f $icd ]]; then
    log "the loader finds no '$device' device: VK_DRIVER_FILES=$icd"
    export VK_DRIVER_FILES=$icd
  fi
  [[ -n $device ]] && export VKSCAN_DEVICE=$device
  step info 30 "$vkscan" info
  cp "$OUT/info.log" "$OUT/info.txt"
  {
    echo "VKSCAN_DEVICE=${VKSCAN_DEVICE:-} VK_DRIVER_FILES=${VK_DRIVER_FILES:-}"
    command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat "$bundle/MANIFEST"
  } >>"$OUT/info.txt" 2>&1

  # Measurements first: a run cut short keeps them.
  # Both files are rewritten after every case: a bench cut short keeps them.
  local bench_args=(--gpu-matrix --txt "$OUT/bench.txt" --csv-file "$OUT/bench.csv")
  [[ ${GPU_CHECK_QUICK:-0} == 1 ]] && bench_args+=(--quick --device-local)
  # shellcheck disable=SC2206  # words on purpose: "--case 1d_ --case rows"
  [[ -n ${GPU_CHECK_BENCH_ARGS:-} ]] && bench_args+=($GPU_CHECK_BENCH_ARGS)
  step bench 260 "$work/bin/vkscan-bench" "${bench_args[@]}"
  if [[ ${GPU_CHECK_SKIP_TORCH:-0} == 1 ]]; then
    echo "torch,skipped,0,-" >>"$STEPS_CSV"
  else
    step torch 90 python3 "$bundle/torch_peer.py" --out "$OUT/torch.csv"
  fi
  local variant_list=${GPU_CHECK_VARIANTS:-$DEFAULT_VARIANTS}
  if [[ $variant_list == none ]]; then
    echo "variants,skipped,0,-" >>"$STEPS_CSV"
  elif [[ ${GPU_CHECK_VARIANTS_ALWAYS:-0} == 1 ]] || one_pass_short; then
    step variants 100 variants "$work/bin/vkscan-bench" "$OUT" "${GPU_CHECK_QUICK:-0}" \
      "$variant_list" "${GPU_CHECK_VARIANT_CASES:-$DEFAULT_VARIANT_CASES}"
  else
    log "variants: skipped (1-D FLOAT32 2^28 meets its bars, rows_16k 0.7 of the roof)"
    echo "variants,skipped,0,-" >>"$STEPS_CSV"
  fi
  plan_choices "$work/bin/vkscan-bench" few-lines 40 "${GPU_CHECK_FEW_LINES:-$DEFAULT_FEW_LINES}" \
    "$FEW_LINES_CASES" few-line
  plan_choices "$work/bin/vkscan-bench" short-columns 25 \
    "${GPU_CHECK_SHORT_COLUMNS:-$DEFAULT_SHORT_COLUMNS}" "$SHORT_COLUMNS_CASES" short-column
  plan_choices "$work/bin/vkscan-bench" columns-workgroups 40 \
    "${GPU_CHECK_COLUMNS_WORKGROUPS:-$DEFAULT_COLUMNS_WORKGROUPS}" "$COLUMNS_WORKGROUPS_CASES" \
    columns-workgroup
  if [[ -x $work/baseline/bin/vkscan-bench ]]; then
    # The same cases on the baseline's library (LD_LIBRARY_PATH comes before
    # the binaries' own RUNPATH).
    # 1d_256m by its exact name: a benchmark older than 93ace5a takes names as
    # substrings, and so finds no such case, where `1d_256m` would bring three
    # more 1 GiB cases (before 9bb76af on one CPU, the CSV printed only at the
    # end, which the step's cap could cut off); 1d_16m has all its levels but one.
    local cases=() name
    for name in ${GPU_CHECK_BASELINE_CASES:-1d_1m 1d_16m 1d_256m\$ rows_16k short_rows_16m}; do
      cases+=(--case "$name")
    done
    [[ ${GPU_CHECK_QUICK:-0} == 1 ]] && cases+=(--quick --device-local)
    export BASELINE_CSV=$OUT/bench-baseline.csv
    # shellcheck disable=SC2016  # expanded by the inner shell
    step bench-baseline 100 env LD_LIBRARY_PATH="$work/baseline/lib:$LD_LIBRARY_PATH" \
      bash -c 'exec "$@" --csv >"$BASELINE_CSV"' bench "$work/baseline/bin/vkscan-bench" \
      --gpu-matrix --txt "$OUT/bench-baseline.txt" "${cases[@]}"
  fi
  # The driver's statistics of the matrix's pipelines (registers, spills,
  # shared memory, as it names them), where it has
  # VK_KHR_pipeline_executable_properties: a line each in stats.log.
  step stats 30 env VKSCAN_PIPELINE_STATISTICS=1 "$work/bin/vkscan-bench" --gpu-matrix --quick \
    --device-local
  run_tests "$work"
  rm -rf "$work"
  summarize
  ! grep -q ',\(fail\|timeout\),' "$STEPS_CSV"
}

# Sourced (the tests): the functions only.
[[ ${BASH_SOURCE[0]} == "$0" ]] || return 0

case ${1:-} in
  bundle) [[ $# == 2 ]] || usage; bundle "$2" ;;
  run) [[ $# == 3 ]] || usage; run "$2" "$3" ;;
  *) usage ;;
esac
