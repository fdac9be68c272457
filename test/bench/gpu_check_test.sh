#!/usr/bin/env bash
# scripts/gpu-check.sh's choices that need no bundle or device, its functions
# sourced. Regression: GPU_CHECK_FOCUS_PROFILES=none (a rehearsal's way to skip
# the test-focus step) ran it with VKSCAN_TEST_PROFILES=none, failing every case.
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
exit "$failed"
