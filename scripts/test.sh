#!/usr/bin/env bash
# Installs vkscan's dependencies (Debian 12), builds everything with warnings
# as errors and runs every test with ctest, on lavapipe when there is no GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
# The validation layer was just installed: its absence fails the tests
# instead of leaving them unchecked.
export VKSCAN_REQUIRE_VALIDATION="${VKSCAN_REQUIRE_VALIDATION:-1}"
build="${VKSCAN_BUILD_DIR:-build}"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DVKSCAN_WERROR=ON
cmake --build "$build" -j"$(nproc)"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
