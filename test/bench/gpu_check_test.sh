#!/usr/bin/env bash
# scripts/gpu-check.sh's choices that need no bundle or device, its functions
# sourced; its step functions run on a stand-in bench. Regression:
# GPU_CHECK_FOCUS_PROFILES=none (a rehearsal's way to skip the test-focus
# step) ran it with VKSCAN_TEST_PROFILES=none, failing every case.
set -u
# shellcheck source=/dev/null
source "$(dirname "$0")/../../scripts/gpu-check.sh"
set +e

failed=0
expect() {  # expect WANTED LABEL: focus_wanted() says WANTED (yes or no)
  local got=no
  focus_wanted && got=yes
  if [[ $got != "$1" ]]; then
    echo "FAIL: focus step with $2: $got, expected $1"
    failed=1
  fi
}
unset GPU_CHECK_FOCUS_ARGS GPU_CHECK_FOCUS_PROFILES
expect yes "the defaults"
GPU_CHECK_FOCUS_ARGS=none expect no "GPU_CHECK_FOCUS_ARGS=none"
GPU_CHECK_FOCUS_PROFILES=none expect no "GPU_CHECK_FOCUS_PROFILES=none"
GPU_CHECK_FOCUS_PROFILES=gpu-tuning expect yes "GPU_CHECK_FOCUS_PROFILES=gpu-tuning"
GPU_CHECK_FOCUS_ARGS='-tc=spec*' expect yes "a filter"

# variants() under a prefix of its own (the few-lines, short-columns and
# columns-workgroups steps)
# keeps its files apart from the variants step's, and the summary lists each. A stand-in
# bench writes one CSV row per --case, its time from VKSCAN_TUNING.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/bench" <<'STUB'
#!/usr/bin/env bash
cases=() csv=
while (($#)); do
  case $1 in
    --case) cases+=("${2%\$}"); shift ;;
    --csv-file) csv=$2; shift ;;
  esac
  shift
done
header="case,shape,axis,dtype,bytes,memory,vkscan_us,vkscan_gbps,copybuffer_us,copybuffer_gbps,"
header+="roof_us,roof_gbps,ratio_copybuffer,ratio_roof,roof_kernel,dispatches,reps,check"
us=${VKSCAN_TUNING:+20}
{
  echo "$header"
  for c in "${cases[@]}"; do echo "$c,3x4,0,f32,1,device,${us:-10},1,1,1,1,1,0.5,0.5,copy,1,11,-"; done
} >"$csv"
STUB
chmod +x "$work/bench"
export OUT=$work
variants "$work/bench" "$work" 0 'a=1;b=2' 'columns_x3$ columns_x4$' few-line >/dev/null
variants "$work/bench" "$work" 0 'c=3' 'columns_64$' short-column >/dev/null
variants "$work/bench" "$work" 0 'd=4' 'columns_16k$' columns-workgroup >/dev/null
VKSCAN_TUNING='' "$work/bench" --case columns_x3 --case columns_64 --case columns_16k \
  --csv-file "$work/bench.csv"
echo "step,status,seconds,rc" >"$work/steps.csv"
# A plan-choices step given "none" runs nothing and says it skipped.
STEPS_CSV=$work/steps.csv plan_choices "$work/bench" short-columns 25 none 'columns_64$' none-run
grep -qx 'short-columns,skipped,0,-' "$work/steps.csv" ||
  { echo "FAIL: plan_choices with none did not record a skipped step"; failed=1; }
[[ -e $work/none-runs.txt ]] && { echo "FAIL: plan_choices with none ran variants"; failed=1; }
for file in few-lines.txt few-line-1.csv few-line-2.csv; do
  [[ -f $work/$file ]] || { echo "FAIL: variants with prefix few-line wrote no $file"; failed=1; }
done
[[ -e $work/variants.txt ]] && { echo "FAIL: the few-lines step wrote variants.txt"; failed=1; }
summary=$(report summary)
grep -q '^few-lines (VKSCAN_TUNING) in the same run' <<<"$summary" ||
  { echo "FAIL: the summary lists no few-lines"; failed=1; }
grep -Eq '^  b=2 +columns_x3 +20.0 +2.000 ' <<<"$summary" ||
  { echo "FAIL: the summary gives no time or ratio for columns_x3 under b=2"; failed=1; }
grep -Eq '^  c=3 +columns_64 +20.0 +2.000 ' <<<"$summary" ||
  { echo "FAIL: the summary gives no short-columns time for columns_64 under c=3"; failed=1; }
grep -q '^columns-workgroups (VKSCAN_TUNING) in the same run' <<<"$summary" ||
  { echo "FAIL: the summary lists no columns-workgroups"; failed=1; }
grep -Eq '^  d=4 +columns_16k +20.0 +2.000 ' <<<"$summary" ||
  { echo "FAIL: the summary gives no columns-workgroups time for columns_16k under d=4"; failed=1; }
exit "$failed"
