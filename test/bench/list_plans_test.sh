#!/usr/bin/env bash
# vkscan-bench --list: every case of both matrices, a name and `vkscan plan`
# arguments that the tool plans (scripts/kernel-stats.sh relies on them).
#
#   list_plans_test.sh BENCH VKSCAN
set -u
bench=$1 vkscan=$2
failed=0
for matrix in "" --gpu-matrix; do
  # shellcheck disable=SC2086  # no option, or one
  listed=$("$bench" $matrix --list) || { echo "FAIL: $bench $matrix --list"; exit 1; }
  count=$(wc -l <<<"$listed")
  ((count >= 20)) || { echo "FAIL: $matrix --list gave $count cases"; failed=1; }
  while IFS=$'\t' read -r name arguments; do
    read -ra words <<<"$arguments"
    if ! "$vkscan" plan "${words[@]}" --profile nvidia --json >/dev/null; then
      echo "FAIL: $name: vkscan plan $arguments"
      failed=1
    fi
  done <<<"$listed"
done
# The options select as they do for a run, and nothing else is printed.
[[ $("$bench" --gpu-matrix --case 'rows_16k$' --list) == $'rows_16k\t16384x16384 --axis 1 --dtype FLOAT32' ]] ||
  { echo "FAIL: --case rows_16k\$ --list"; failed=1; }
exit "$failed"
